//! terminal_send of `echo hi` until the prompt marker says it is done, on one persistent
//! session of the default world: what a model waits for per interactive command. And the share
//! of a PTY's output time the terminal emulator behind it takes.

use super::{Row, median};
use crate::World;
use crate::natives::pty::{PtySpec, PtyTable, Screen};
use std::time::{Duration, Instant};

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
        emulator_share()?,
    ])
}

/// 8 MiB of `ls --color -l`-like lines: feeding them to a screen alone, against a real PTY
/// session printing them (`cat`) until its output ends, which drains them into the scrollback
/// and through the emulator.
fn emulator_share() -> anyhow::Result<Row> {
    let listing = std::env::temp_dir().join(format!("seam-bench-listing-{}", std::process::id()));
    let line = |n: usize| format!("drwxr-xr-x 2 user user 4096 Dec  4 10:00 \x1b[01;34mdir-{n:06}\x1b[0m\r\n");
    let mut data = Vec::with_capacity(8 << 20);
    while data.len() < 8 << 20 {
        data.extend_from_slice(line(data.len() / 64).as_bytes());
    }
    std::fs::write(&listing, &data)?;
    let share = emulator_and_pty(&data, &listing);
    let _ = std::fs::remove_file(&listing);
    let (emulator, pty) = share?;
    Ok(Row::versus(
        "terminal_emulator_share_of_pty_output_8mib",
        emulator.as_secs_f64() * 1e3,
        pty.as_secs_f64() * 1e3,
        "ms",
        "—",
    ))
}

fn emulator_and_pty(data: &[u8], listing: &std::path::Path) -> anyhow::Result<(Duration, Duration)> {
    let started = Instant::now();
    let mut screen = Screen::new(24, 80);
    for chunk in data.chunks(64 * 1024) {
        screen.feed(chunk);
    }
    let emulator = started.elapsed();

    let table = PtyTable::default();
    let spec = PtySpec {
        argv: vec!["/bin/cat".into(), listing.display().to_string()],
        cwd: "/".into(),
        env: Vec::new(),
        rows: 24,
        cols: 80,
        scrollback_bytes: 1 << 20,
        grace: Duration::from_millis(100),
    };
    let started = Instant::now();
    let session = table.spawn(spec)?;
    let mut end = 0;
    while !session.read_from(end, 0).eof {
        end = session.wait_output(end, Duration::from_secs(5));
    }
    let pty = started.elapsed();
    table.close(session.id());
    Ok((emulator, pty))
}
