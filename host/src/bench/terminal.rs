//! terminal_send of `echo hi` until the prompt marker says it is done, on one persistent
//! session of the default world: what a model waits for per interactive command.

use super::{Row, median};
use crate::World;
use std::time::Instant;

pub(super) fn rows(world: &World, n: u32) -> anyhow::Result<Vec<Row>> {
    let call = |tool: &str, args: serde_json::Value| world.call(tool, &args.to_string(), world.call_context("bench"));
    let opened = call("terminal_open", serde_json::json!({}));
    anyhow::ensure!(!opened.is_error, "terminal_open: {}", opened.text());
    let text = opened.text();
    let id = text
        .split_whitespace()
        .find(|w| w.starts_with("pty-"))
        .map(|w| w.trim_end_matches('.').to_string())
        .ok_or_else(|| anyhow::anyhow!("no session id in {text:?}"))?;
    let send = serde_json::json!({"session_id": id, "input": "echo hi"});
    let mut samples = Vec::new();
    for _ in 0..n {
        let start = Instant::now();
        let result = call("terminal_send", send.clone());
        samples.push(start.elapsed().as_secs_f64() * 1e3);
        anyhow::ensure!(
            result.text().contains("decided by prompt-marker"),
            "terminal_send: {}",
            result.text()
        );
    }
    call("terminal_close", serde_json::json!({"session_id": id}));
    let mut sorted = samples.clone();
    sorted.sort_by(f64::total_cmp);
    let p95 = sorted[(sorted.len() * 95 / 100).min(sorted.len() - 1)];
    let row = |name, value, goal| Row {
        name,
        value,
        baseline: None,
        ratio: None,
        unit: "ms",
        goal,
    };
    Ok(vec![
        row("terminal_send_echo_ready_median", median(samples), "≤ 20 ms"),
        row("terminal_send_echo_ready_p95", p95, "—"),
    ])
}
