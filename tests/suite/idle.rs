//! A seam with nothing to run uses no CPU: between calls, and while a call waits on a command,
//! the epoch ticker that checks guest time rests (docs/decisions/0002), in the real binary with
//! its spare lanes.

use crate::common::*;
use serde_json::json;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Duration;

/// The `status` file of the process's epoch ticker thread.
fn ticker_status(pid: u32) -> PathBuf {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .expect("the process's threads")
        .map(|task| task.expect("a thread").path())
        .find(|task| std::fs::read_to_string(task.join("comm")).is_ok_and(|comm| comm.trim() == "seam-epoch"))
        .expect("seam runs an epoch ticker")
        .join("status")
}

/// How often the thread has been switched to so far.
fn switches(status: &PathBuf) -> u64 {
    let status = std::fs::read_to_string(status).expect("the thread's status");
    status
        .lines()
        .filter(|line| line.contains("ctxt_switches:"))
        .map(|line| line.split_whitespace().last().unwrap().parse::<u64>().unwrap())
        .sum()
}

/// The ticker stays asleep over a whole window of 40 of its ticks.
fn rests(status: &PathBuf) -> bool {
    let before = switches(status);
    std::thread::sleep(Duration::from_millis(200));
    switches(status) == before
}

#[test]
fn the_ticker_rests_between_calls_and_while_a_call_waits_on_a_command() {
    let dir = tempfile::tempdir().unwrap();
    let (mut seam, mut stdin, answers) = live_batch(dir.path());
    let mut answers = answers.lines();
    let mut ask = move |command: &str| {
        let line = json!({"tool": "bash", "args": {"command": command}});
        writeln!(stdin, "{line}").unwrap();
    };

    // After a call, which leaves a spare lane for the next one.
    ask("echo hi");
    assert!(answers.next().unwrap().unwrap().contains("hi"));
    let status = ticker_status(seam.id());
    assert!(
        eventually(Duration::from_secs(5), || rests(&status)),
        "the ticker rests between calls"
    );

    // While a call waits for its command.
    ask("sleep 4; echo done");
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        eventually(Duration::from_secs(2), || rests(&status)),
        "the ticker rests while the call waits"
    );
    assert!(answers.next().unwrap().unwrap().contains("done"));
    drop(ask);
    assert!(seam.wait().unwrap().success());
}
