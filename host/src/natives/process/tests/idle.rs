//! Processes that idle out: ended and forgotten once no handle but the table's is held.

use std::thread;
use std::time::Duration;

use super::*;
use crate::natives::process::{Farewell, ProcessTable};

const IDLE: Duration = Duration::from_millis(300);

fn idle_sleeper(table: &ProcessTable) -> (u64, String, Vec<Sighting>) {
    let marker = marker(300);
    let process = table.spawn(spec(&["/usr/bin/sleep", &marker])).expect("spawn");
    let id = process.id();
    table.expire_when_idle(id, IDLE, None);
    drop(process);
    let sightings = wait_for_sleeps(&marker, 1);
    (id, marker, sightings)
}

#[test]
fn an_unheld_process_is_ended_and_forgotten_once_idle() {
    let table = ProcessTable::new();
    let (id, marker, sightings) = idle_sleeper(&table);
    assert_all_gone_within(&marker, &sightings, Duration::from_secs(5));
    assert!(table.get(id).is_none(), "an idled-out process is forgotten");
}

#[test]
fn a_held_handle_keeps_it_and_idle_time_counts_from_the_release() {
    let table = ProcessTable::new();
    let (id, marker, sightings) = idle_sleeper(&table);
    let held = table.get(id).expect("still known");
    thread::sleep(IDLE * 4);
    assert!(sightings.iter().all(still_exists), "ended while a handle was held");
    drop(held);
    table.released(id);
    thread::sleep(IDLE / 2);
    assert!(table.get(id).is_some(), "ended before its idle time after the release");
    assert_all_gone_within(&marker, &sightings, Duration::from_secs(5));
}

#[test]
fn processes_without_a_limit_are_left_alone() {
    let table = ProcessTable::new();
    let (idle_id, idle_marker, idle_sightings) = idle_sleeper(&table);
    let marker = marker(300);
    let kept = table.spawn(spec(&["/usr/bin/sleep", &marker])).expect("spawn");
    let kept_id = kept.id();
    drop(kept);
    let kept_sightings = wait_for_sleeps(&marker, 1);
    assert_all_gone_within(&idle_marker, &idle_sightings, Duration::from_secs(5));
    assert!(table.get(idle_id).is_none());
    assert!(
        kept_sightings.iter().all(still_exists),
        "a process without a limit was ended"
    );
    table.get(kept_id).expect("still known").terminate();
}

/// Spawned with a stdin pipe the host writes, left to idle out with `farewell`.
fn idle_with_farewell(table: &ProcessTable, mut spec: SpawnSpec, farewell: Farewell) -> u64 {
    spec.stdin = StdinSpec::Pipe;
    let process = table.spawn(spec).expect("spawn");
    let id = process.id();
    table.expire_when_idle(id, IDLE, Some(farewell));
    id
}

#[test]
fn an_idle_process_is_told_its_farewell_and_may_exit_on_its_own() {
    let table = ProcessTable::new();
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("log");
    // Killed at once, it would never write "finished"; told, it reads to end-of-file and does.
    let script = format!("cat > {0}; echo finished >> {0}", log.display());
    let farewell = Farewell {
        stdin: b"shutdown\n".to_vec(),
        wait: Duration::from_secs(10),
    };
    let id = idle_with_farewell(&table, bash(&script), farewell);
    let deadline = Instant::now() + Duration::from_secs(10);
    let said = || fs::read_to_string(&log).unwrap_or_default() == "shutdown\nfinished\n";
    while !said() && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(20));
    }
    assert!(
        said(),
        "the process did not get its farewell: {:?}",
        fs::read_to_string(&log)
    );
    assert!(table.get(id).is_none(), "an idled-out process is forgotten");
}

#[test]
fn an_idle_process_that_ignores_its_farewell_is_ended_after_the_wait() {
    let table = ProcessTable::new();
    let marker = marker(300);
    let farewell = Farewell {
        stdin: b"shutdown\n".to_vec(),
        wait: Duration::from_millis(300),
    };
    let id = idle_with_farewell(&table, spec(&["/usr/bin/sleep", &marker]), farewell);
    let sightings = wait_for_sleeps(&marker, 1);
    assert_all_gone_within(&marker, &sightings, Duration::from_secs(5));
    assert!(table.get(id).is_none(), "an idled-out process is forgotten");
}
