//! The host's other children keep their exit statuses: nothing here reaps what it did not spawn.

use std::process::Command;
use std::thread;

use super::*;
use crate::natives::process::ProcessTable;

const ROUNDS: usize = 25;

#[test]
fn host_children_spawned_in_parallel_keep_their_statuses() {
    let host_children = thread::spawn(|| {
        (0..ROUNDS)
            .map(|_| {
                Command::new(BASH)
                    .args(["-c", "exit 7"])
                    .status()
                    .expect("host child status")
                    .code()
            })
            .collect::<Vec<_>>()
    });
    let table = ProcessTable::new();
    let ours: Vec<_> = (0..ROUNDS)
        .map(|_| finished(&table.spawn(bash("exit 5")).expect("spawn")))
        .collect();
    let theirs = host_children.join().expect("host child thread");
    assert!(theirs.iter().all(|code| *code == Some(7)), "{theirs:?}");
    assert!(ours.iter().all(|outcome| *outcome == exited(5)), "{ours:?}");
}
