//! Processes that idle out: ended and forgotten once no handle but the table's is held.

use std::thread;
use std::time::Duration;

use super::*;
use crate::natives::process::ProcessTable;

const IDLE: Duration = Duration::from_millis(300);

fn idle_sleeper(table: &ProcessTable) -> (u64, String, Vec<Sighting>) {
    let marker = marker(300);
    let process = table.spawn(spec(&["/usr/bin/sleep", &marker])).expect("spawn");
    let id = process.id();
    table.expire_when_idle(id, IDLE);
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
