//! The supervisor's footprint: it must not keep a copy of the host's memory alive.

use std::fs;
use std::hint::black_box;
use std::thread;
use std::time::{Duration, Instant};

use super::*;
use crate::natives::process::ProcessTable;

const HOST_BYTES: usize = 64 << 20;
const PAGE: usize = 4096;
const PINNED_LIMIT_KIB: u64 = 8 * 1024;

/// Private (unshared) memory of a process, in KiB.
fn private_kib(pid: i32) -> u64 {
    let rollup = fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).expect("smaps_rollup");
    rollup
        .lines()
        .filter(|line| line.starts_with("Private_Clean:") || line.starts_with("Private_Dirty:"))
        .filter_map(|line| line.split_whitespace().nth(1)?.parse::<u64>().ok())
        .sum()
}

#[test]
fn supervisor_does_not_pin_memory_the_host_rewrites() {
    let mut host_memory = vec![1u8; HOST_BYTES];
    black_box(&mut host_memory);
    let marker = marker(307);
    let mut spec = spec(&["/usr/bin/sleep", &marker]);
    spec.stdout = OutputSpec::Null;
    spec.stderr = OutputSpec::Null;
    let process = ProcessTable::new().spawn(spec).expect("spawn");
    wait_for_sleeps(&marker, 1);
    let program = i32::try_from(process.pid()).expect("pid");
    let supervisor: i32 = stat_field(program, 1).expect("ppid").parse().expect("pid");
    // A copy-on-write image would now keep every original page for the supervisor alone.
    for offset in (0..HOST_BYTES).step_by(PAGE) {
        host_memory[offset] = 2;
    }
    black_box(&mut host_memory);
    // The release runs concurrently with the program's start; give it a moment.
    let deadline = Instant::now() + Duration::from_secs(3);
    let mut pinned = private_kib(supervisor);
    while pinned >= PINNED_LIMIT_KIB && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(20));
        pinned = private_kib(supervisor);
    }
    assert!(
        pinned < PINNED_LIMIT_KIB,
        "supervisor holds {pinned} KiB of private memory"
    );
    assert_eq!(process.terminate(), killed_by(15));
}
