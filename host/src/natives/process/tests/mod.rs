//! Tests against real processes. Helpers here find processes by a unique marker argument
//! (e.g. `sleep 300.123456789`) by scanning `/proc`.

mod basics;
mod host_children;
mod idle;
mod output;
mod private_tmp;
mod spill_expiry;
mod stdin;
mod supervisor;
mod tree;
mod zygote;

use std::fs;
use std::io::Read;
use std::path::PathBuf;
use std::thread;
use std::time::{Duration, Instant};

use super::{CollectSpec, Outcome, OutputSpec, Process, SpawnSpec, StdinSpec, Stream};

pub(super) const BASH: &str = "/usr/bin/bash";
/// Short, so tests that wait for SIGKILL stay quick.
pub(super) const TEST_GRACE: Duration = Duration::from_millis(300);

pub(super) fn collect(tail_bytes: usize, head_bytes: usize, spill: Option<u64>) -> OutputSpec {
    OutputSpec::Collect(CollectSpec {
        tail_bytes,
        head_bytes,
        spill,
    })
}

/// Both outputs collected, `/` as cwd, only PATH in the environment.
pub(super) fn spec(argv: &[&str]) -> SpawnSpec {
    SpawnSpec {
        argv: argv.iter().map(|arg| (*arg).to_owned()).collect(),
        cwd: PathBuf::from("/"),
        env: vec![("PATH".to_owned(), "/usr/bin:/bin".to_owned())],
        stdin: StdinSpec::Null,
        stdout: collect(1 << 20, 4096, None),
        stderr: collect(1 << 20, 4096, None),
        grace: TEST_GRACE,
        private_tmp: false,
    }
}

pub(super) fn bash(script: &str) -> SpawnSpec {
    spec(&[BASH, "-c", script])
}

pub(super) fn finished(process: &Process) -> Outcome {
    process
        .wait(Some(Duration::from_secs(20)))
        .expect("process should finish")
}

pub(super) fn collected(process: &Process, stream: Stream) -> String {
    let chunk = process.read_from(stream, 0, usize::MAX).expect("collected stream");
    String::from_utf8_lossy(&chunk.data).into_owned()
}

pub(super) fn exited(code: i32) -> Outcome {
    Outcome {
        exit_code: Some(code),
        signal: None,
        left_running: 0,
    }
}

pub(super) fn killed_by(signal: i32) -> Outcome {
    Outcome {
        exit_code: None,
        signal: Some(signal),
        left_running: 0,
    }
}

/// A number like `300.123456789`: a valid `sleep` duration no other process will carry.
pub(super) fn marker(whole_seconds: u32) -> String {
    let mut raw = [0u8; 4];
    fs::File::open("/dev/urandom")
        .and_then(|mut random| random.read_exact(&mut raw))
        .expect("read /dev/urandom");
    format!("{whole_seconds}.{:09}", u32::from_ne_bytes(raw) % 1_000_000_000)
}

/// A process seen carrying a marker; the start time tells it apart from a later pid reuse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Sighting {
    pub(super) pid: i32,
    pub(super) argv: Vec<String>,
    pub(super) start_time: u64,
}

/// Fields of `/proc/<pid>/stat` after the command name: [0] state, [1] ppid, [2] pgrp,
/// [3] session, ... [19] start time.
pub(super) fn stat_fields(pid: i32) -> Option<Vec<String>> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &stat[stat.rfind(')')? + 2..];
    Some(after_name.split_whitespace().map(str::to_owned).collect())
}

pub(super) fn stat_field(pid: i32, index: usize) -> Option<String> {
    stat_fields(pid)?.get(index).cloned()
}

/// Every live process whose command line contains `marker` (zombies have an empty one).
pub(super) fn processes_with(marker: &str) -> Vec<Sighting> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| {
            let raw = fs::read(format!("/proc/{pid}/cmdline")).ok()?;
            let argv: Vec<String> = raw
                .split(|&b| b == 0)
                .filter(|arg| !arg.is_empty())
                .map(|arg| String::from_utf8_lossy(arg).into_owned())
                .collect();
            if !argv.iter().any(|arg| arg.contains(marker)) {
                return None;
            }
            let start_time = stat_field(pid, 19)?.parse().ok()?;
            Some(Sighting { pid, argv, start_time })
        })
        .collect()
}

/// True if this very process (same pid and start time) still exists, zombie or not.
pub(super) fn still_exists(sighting: &Sighting) -> bool {
    stat_field(sighting.pid, 19).and_then(|start| start.parse::<u64>().ok()) == Some(sighting.start_time)
}

/// Waits until at least `count` `sleep <marker>` processes run; returns every marked process.
pub(super) fn wait_for_sleeps(marker: &str, count: usize) -> Vec<Sighting> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let seen = processes_with(marker);
        let sleeps = seen.iter().filter(|s| is_sleep(s, marker)).count();
        if sleeps >= count {
            return seen;
        }
        assert!(
            Instant::now() < deadline,
            "only {sleeps} of {count} sleeps appeared: {seen:?}"
        );
        thread::sleep(Duration::from_millis(10));
    }
}

/// Waits until `stream` has collected `expected`: a program's word that it is ready.
pub(super) fn wait_for_output(process: &Process, stream: Stream, expected: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let seen = collected(process, stream);
        if seen.contains(expected) {
            return;
        }
        assert!(Instant::now() < deadline, "{expected:?} never came: {seen:?}");
        thread::sleep(Duration::from_millis(10));
    }
}

pub(super) fn is_sleep(sighting: &Sighting, marker: &str) -> bool {
    sighting.argv.first().is_some_and(|arg0| arg0.ends_with("sleep"))
        && sighting.argv.get(1).map(String::as_str) == Some(marker)
}

/// Asserts that nothing carrying `marker` runs and none of `sightings` exists, not even as a
/// zombie.
pub(super) fn assert_all_gone(marker: &str, sightings: &[Sighting]) {
    let running = processes_with(marker);
    assert!(running.is_empty(), "still running: {running:?}");
    let lingering: Vec<_> = sightings
        .iter()
        .filter(|sighting| still_exists(sighting))
        .map(|sighting| (sighting, stat_field(sighting.pid, 0)))
        .collect();
    assert!(lingering.is_empty(), "still present (with state): {lingering:?}");
}

/// Like [`assert_all_gone`], allowing `within` for the teardown to happen.
pub(super) fn assert_all_gone_within(marker: &str, sightings: &[Sighting], within: Duration) {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        let running = processes_with(marker);
        if running.is_empty() && !sightings.iter().any(still_exists) {
            return;
        }
        thread::sleep(Duration::from_millis(20));
    }
    assert_all_gone(marker, sightings);
}
