//! `bash -c true` confined by each sandbox runner against the same spawn unconfined, both
//! through fixture-confine-tool (confine + spawn + wait), so the difference is what the
//! runner costs a command.

use super::{Row, median, time};
use crate::world::builtin::ARTIFACTS_DIR;
use crate::{Runtime, World, WorldFile};
use std::path::Path;
use std::sync::Arc;

const RUNNERS: [(&str, &str, &str); 2] = [
    ("bwrap", "sandbox_bwrap_bash_true_vs_plain", "≤ +10 ms"),
    ("landlock", "sandbox_landlock_bash_true_vs_plain", "≤ +2 ms"),
];

/// One row per runner usable here; a runner (or the test fixture) that is missing is named on
/// stderr and left out rather than failing the whole bench.
pub(super) fn rows(runtime: &Arc<Runtime>, workspace: &Path, n: u32) -> anyhow::Result<Vec<Row>> {
    let tool = Path::new(ARTIFACTS_DIR).join("fixture_confine_tool.wasm");
    if !tool.exists() {
        eprintln!("sandbox rows skipped: {} was not built", tool.display());
        return Ok(Vec::new());
    }
    let mut rows = Vec::new();
    for (runner, name, goal) in RUNNERS {
        let file = WorldFile::parse(
            &format!(
                "tools = [{:?}]\n[providers]\nsubprocess = \"subprocess-local\"\nsandbox = \"sandbox-local\"\n\
                 [config.sandbox-local]\nchain = [{runner:?}]\n",
                tool.display().to_string()
            ),
            "<sandbox bench world>",
            workspace,
        )?;
        let world = World::load(runtime, file, Some(workspace))?;
        let call = |mode: &str| {
            let args = serde_json::json!({"mode": mode, "workspace": world.workspace(), "command": "true"});
            world.call("confine_run", &args.to_string(), world.call_context("bench"))
        };
        let probe = call("read-only");
        if probe.is_error || !probe.text().contains("\"exit_code\":0") {
            eprintln!("{name} skipped: {runner} does not run here: {}", probe.text());
            continue;
        }
        let (mut confined, mut plain) = (Vec::new(), Vec::new());
        for _ in 0..n {
            confined.push(time(|| assert!(!call("read-only").is_error)).as_secs_f64() * 1e3);
            plain.push(time(|| assert!(!call("danger-full-access").is_error)).as_secs_f64() * 1e3);
        }
        rows.push(Row::versus(name, median(confined), median(plain), "ms", goal));
    }
    Ok(rows)
}
