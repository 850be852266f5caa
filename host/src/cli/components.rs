//! `seam world components`: the built-in components a world file can name, with what each does.

use seam_host::world::builtin::{BUILTINS, BuiltinKind};
use std::process::ExitCode;

pub fn run(json: bool) -> anyhow::Result<ExitCode> {
    let named = |kind: BuiltinKind| BUILTINS.iter().filter(move |b| b.kind == kind);
    if json {
        let rows: Vec<serde_json::Value> = [(BuiltinKind::Provider, "provider"), (BuiltinKind::Tool, "tool")]
            .into_iter()
            .flat_map(|(kind, label)| {
                named(kind)
                    .map(move |b| serde_json::json!({"name": b.name, "kind": label, "description": b.description}))
            })
            .collect();
        say!("{}", serde_json::to_string_pretty(&rows)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let width = BUILTINS.iter().map(|b| b.name.len()).max().unwrap_or(0);
    for (kind, heading) in [
        (
            BuiltinKind::Provider,
            "Providers, named under [providers] (shell = \"bash-sandbox\"):",
        ),
        (BuiltinKind::Tool, "Tools, named in tools = [...]:"),
    ] {
        say!("{heading}")?;
        for builtin in named(kind) {
            say!("  {:width$}  {}", builtin.name, builtin.description)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
