//! Whole-tree lifetime: leftover descendants, terminate, drop and host death.

use std::process::{Command, Stdio};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use super::*;
use crate::natives::process::ProcessTable;

#[test]
fn background_children_do_not_hold_up_the_program() {
    let marker = marker(300);
    let process = ProcessTable::new()
        .spawn(bash(&format!("/usr/bin/sleep {marker} & echo hi")))
        .expect("spawn");
    let started = Instant::now();
    let outcome = finished(&process);
    assert_eq!((outcome.exit_code, outcome.left_running), (Some(0), 1));
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(collected(&process, Stream::Stdout), "hi\n");
    assert_all_gone(&marker, &[]);
}

/// Waits for the marked sleeps, terminates, and checks that the tree is gone entirely.
fn terminate_and_check(process: &Arc<Process>, marker: &str, sleeps: usize) -> (Outcome, Duration) {
    let sightings = wait_for_sleeps(marker, sleeps);
    let started = Instant::now();
    // On another thread, so a tree that survives fails the test instead of hanging it.
    let (done_tx, done_rx) = mpsc::channel();
    let terminating = Arc::clone(process);
    thread::spawn(move || done_tx.send(terminating.terminate()));
    let outcome = done_rx
        .recv_timeout(Duration::from_secs(10))
        .expect("terminate should return once the tree is gone");
    let took = started.elapsed();
    // The supervisor exits only once it has no children left, so nothing may remain now.
    assert_all_gone(marker, &sightings);
    (outcome, took)
}

#[test]
fn terminate_kills_a_setsid_grandchild() {
    let marker = marker(301);
    let process = ProcessTable::new()
        .spawn(bash(&format!("/usr/bin/setsid /usr/bin/sleep {marker} & wait")))
        .expect("spawn");
    let sleep = wait_for_sleeps(&marker, 1)
        .into_iter()
        .find(|sighting| is_sleep(sighting, &marker))
        .expect("sleep");
    assert_eq!(
        stat_field(sleep.pid, 3),
        Some(sleep.pid.to_string()),
        "the sleep leads a session of its own"
    );
    let (outcome, _) = terminate_and_check(&process, &marker, 1);
    assert_eq!(outcome, killed_by(15));
}

#[test]
fn terminate_kills_a_double_forked_daemon() {
    let marker = marker(302);
    let script = format!("( ( /usr/bin/sleep {marker} & ) & ); /usr/bin/sleep {marker}");
    let process = ProcessTable::new().spawn(bash(&script)).expect("spawn");
    let supervisor = stat_field(i32::try_from(process.pid()).expect("pid"), 1);
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let parents: Vec<_> = wait_for_sleeps(&marker, 2)
            .iter()
            .filter(|sighting| is_sleep(sighting, &marker))
            .map(|sighting| stat_field(sighting.pid, 1))
            .collect();
        if parents.contains(&supervisor) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the orphaned sleep should be reparented to the supervisor {supervisor:?}: {parents:?}"
        );
        thread::sleep(Duration::from_millis(10));
    }
    let (outcome, _) = terminate_and_check(&process, &marker, 2);
    assert_eq!(outcome, killed_by(15));
}

#[test]
fn terminate_kills_a_term_ignoring_program_after_the_grace() {
    let marker = marker(303);
    let mut spec = bash(&format!("trap '' TERM; /usr/bin/sleep {marker}; echo survived"));
    spec.grace = Duration::from_millis(500);
    let process = ProcessTable::new().spawn(spec).expect("spawn");
    let (outcome, took) = terminate_and_check(&process, &marker, 1);
    assert_eq!(outcome, killed_by(9));
    assert!(
        took >= Duration::from_millis(450) && took < Duration::from_secs(5),
        "took {took:?}"
    );
    assert_eq!(collected(&process, Stream::Stdout), "");
}

#[test]
fn a_process_started_during_the_grace_is_asked_to_stop_too() {
    // The program outlives SIGTERM (a handler), then starts one that would end on it: that one
    // is sent it as well, so the program's own exit ends the tree well before the SIGKILL.
    let script = "python3 -c 'import signal,subprocess,time; signal.signal(signal.SIGTERM, lambda *a: None); \
                  print(\"ready\", flush=True); time.sleep(0.3); subprocess.run([\"/usr/bin/sleep\", \"30\"]); exit(7)'";
    let mut spec = bash(script);
    spec.grace = Duration::from_secs(20);
    let process = ProcessTable::new().spawn(spec).expect("spawn");
    // Asked only once the handler is in place: a slow start must not turn this into a plain kill.
    wait_for_output(&process, Stream::Stdout, "ready");
    let outcome = process.terminate();
    assert_eq!(outcome, exited(7));
}

#[test]
fn a_process_that_ignored_sigterm_when_asked_is_asked_again() {
    // Started during the grace with SIGTERM ignored (inherited), the child restores the default
    // later: a later round's SIGTERM ends it, and the program's own exit ends the tree.
    let script = "python3 -c 'import signal,subprocess,time; signal.signal(signal.SIGTERM, signal.SIG_IGN); \
                  print(\"ready\", flush=True); time.sleep(0.3); subprocess.run([\"python3\", \"-c\", \"import signal,time; time.sleep(0.5); \
                  signal.signal(signal.SIGTERM, signal.SIG_DFL); time.sleep(30)\"]); exit(7)'";
    let mut spec = bash(script);
    spec.grace = Duration::from_secs(20);
    let process = ProcessTable::new().spawn(spec).expect("spawn");
    wait_for_output(&process, Stream::Stdout, "ready");
    let started = Instant::now();
    assert_eq!(process.terminate(), exited(7));
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "took {:?}",
        started.elapsed()
    );
}

#[test]
fn terminate_wakes_a_stopped_program_so_it_can_exit_gracefully() {
    let marker = marker(306);
    let mut spec = bash(&format!("/usr/bin/sleep {marker} & kill -STOP $$; wait"));
    spec.grace = Duration::from_secs(5);
    let process = ProcessTable::new().spawn(spec).expect("spawn");
    let pid = i32::try_from(process.pid()).expect("pid");
    let deadline = Instant::now() + Duration::from_secs(5);
    while stat_field(pid, 0).as_deref() != Some("T") {
        assert!(Instant::now() < deadline, "bash never stopped");
        thread::sleep(Duration::from_millis(10));
    }
    let (outcome, took) = terminate_and_check(&process, &marker, 1);
    assert_eq!(outcome, killed_by(15), "SIGTERM, not the SIGKILL after the grace");
    assert!(took < Duration::from_secs(2), "took {took:?}");
}

#[test]
fn dropping_a_running_handle_leaves_nothing_behind() {
    let marker = marker(304);
    let table = ProcessTable::new();
    let process = table
        .spawn(bash(&format!("/usr/bin/sleep {marker} & /usr/bin/sleep {marker}")))
        .expect("spawn");
    let sightings = wait_for_sleeps(&marker, 2);
    table.forget(process.id());
    let started = Instant::now();
    drop(process);
    assert!(started.elapsed() < TEST_GRACE, "drop must not wait for the grace");
    assert_all_gone_within(&marker, &sightings, Duration::from_secs(3));
}

/// A program whose watcher could not start is not left running unwatched: abandoning its
/// launch ends the whole tree and reaps the supervisor before the spawn reports the failure.
#[test]
fn an_abandoned_launch_leaves_nothing_behind() {
    let marker = marker(311);
    let spec = bash(&format!("/usr/bin/sleep {marker} & /usr/bin/sleep {marker}"));
    let (stdio, _host_ends) = crate::natives::process::wiring::wire(&spec).expect("pipes");
    let spawner = crate::natives::process::spawner::Spawner::new();
    let mut sent = 0;
    let launched = crate::natives::process::launch::launch(&spawner, &spec, stdio, || sent += 1).expect("launch");
    assert_eq!(sent, 1, "told once that the request is on its way");
    let sightings = wait_for_sleeps(&marker, 2);
    let supervisor = launched.supervisor.as_raw();
    let supervisor_started = stat_field(supervisor, 19);
    launched.abandon();
    assert_all_gone(&marker, &sightings);
    assert_ne!(
        stat_field(supervisor, 19),
        supervisor_started,
        "the supervisor is reaped"
    );
}

const HOST_DEATH_MARKER_ENV: &str = "SEAM_PROCESS_TEST_HOST_DEATH_MARKER";

/// Run as a separate host process by `host_death_takes_the_tree_down`.
#[test]
#[ignore = "helper process for host_death_takes_the_tree_down"]
fn host_death_helper() {
    let Ok(marker) = std::env::var(HOST_DEATH_MARKER_ENV) else {
        return;
    };
    let table = ProcessTable::new();
    let _process = table
        .spawn(bash(&format!("/usr/bin/sleep {marker} & /usr/bin/sleep {marker}")))
        .expect("spawn");
    thread::sleep(Duration::from_secs(60));
}

#[test]
fn host_death_takes_the_tree_down() {
    let marker = marker(305);
    let mut helper = Command::new(std::env::current_exe().expect("test binary"))
        .args([
            "--exact",
            "natives::process::tests::tree::host_death_helper",
            "--ignored",
            "--test-threads=1",
        ])
        .env(HOST_DEATH_MARKER_ENV, &marker)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start helper host");
    let sightings = wait_for_sleeps(&marker, 2);
    helper.kill().expect("kill helper host");
    helper.wait().expect("reap helper host");
    assert_all_gone_within(&marker, &sightings, Duration::from_secs(5));
}
