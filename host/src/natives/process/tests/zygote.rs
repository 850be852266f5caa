//! The zygote: small whatever the host's size, holding nothing, replaced when it dies, gone
//! with its table or its host.

use std::fs;
use std::hint::black_box;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

use super::*;
use crate::natives::process::ProcessTable;

const HOST_BYTES: usize = 256 << 20;
const PAGE: usize = 4096;
const ZYGOTE_RSS_LIMIT_KIB: u64 = 16 * 1024;

fn zygote_of(table: &ProcessTable) -> i32 {
    let pid = table.zygote_pid().expect("the table runs a zygote");
    i32::try_from(pid).expect("pid")
}

/// The table's standby supervisor: the host's child named `seam-standby` that holds the
/// zygote's control socket. (Read again each round: a zygote just forked still holds the
/// host's fds until it settles.)
fn standby_of(zygote: i32) -> i32 {
    let host = std::process::id().to_string();
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let socket = fs::read_link(format!("/proc/{zygote}/fd/3")).ok();
        let standby = fs::read_dir("/proc")
            .expect("/proc")
            .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<i32>().ok())
            .filter(|&pid| stat_field(pid, 1).as_ref() == Some(&host))
            .filter(|&pid| fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|comm| comm == "seam-standby\n"))
            .find(|pid| socket.is_some() && fs::read_link(format!("/proc/{pid}/fd/3")).ok() == socket);
        if let Some(pid) = standby {
            return pid;
        }
        assert!(Instant::now() < deadline, "no standby waits on the zygote's socket");
        thread::sleep(Duration::from_millis(5));
    }
}

fn fd_targets(pid: i32) -> Vec<(String, String)> {
    let mut fds: Vec<(String, String)> = fs::read_dir(format!("/proc/{pid}/fd"))
        .expect("fd dir")
        .map(|entry| {
            let entry = entry.expect("fd entry");
            let target = fs::read_link(entry.path()).expect("fd target");
            (
                entry.file_name().to_string_lossy().into_owned(),
                target.display().to_string(),
            )
        })
        .collect();
    fds.sort();
    fds
}

fn vm_rss_kib(pid: i32) -> u64 {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        .expect("VmRSS")
}

fn signal(pid: i32, signal: Signal) {
    kill(Pid::from_raw(pid), signal).expect("signal the zygote");
}

/// Waits until `pid` is a zombie or gone: it has stopped running.
fn wait_until_ended(pid: i32) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !matches!(stat_field(pid, 0).as_deref(), None | Some("Z")) {
        assert!(Instant::now() < deadline, "process {pid} is still running");
        thread::sleep(Duration::from_millis(10));
    }
}

/// Waits until the process `pid` that started at `start` is gone, not even a zombie.
fn wait_until_reaped(pid: i32, start: &str) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while stat_field(pid, 19).as_deref() == Some(start) {
        assert!(
            Instant::now() < deadline,
            "process {pid} must be reaped, not left a zombie"
        );
        thread::sleep(Duration::from_millis(5));
    }
}

/// A spawn's cost follows the zygote's size, not the host's: the zygote must not keep the
/// memory the host had when it was forked.
#[test]
fn zygote_stays_small_when_forked_from_a_large_host() {
    let mut host_memory = vec![1u8; HOST_BYTES];
    for offset in (0..HOST_BYTES).step_by(PAGE) {
        host_memory[offset] = 2;
    }
    black_box(&mut host_memory);
    let table = ProcessTable::new();
    // A served request proves the zygote is past its start-up, memory release included.
    let process = table.spawn(bash("echo hi")).expect("spawn");
    assert_eq!(finished(&process), exited(0));
    let rss = vm_rss_kib(zygote_of(&table));
    assert!(rss < ZYGOTE_RSS_LIMIT_KIB, "zygote resident: {rss} KiB");
    black_box(&host_memory);
}

#[test]
fn zygote_and_standby_hold_only_their_socket_pipe_and_dev_null() {
    let table = ProcessTable::new();
    let mut spec = spec(&["/usr/bin/cat"]);
    spec.stdin = StdinSpec::Pipe;
    // A running program whose pipes neither may hold open.
    let process = table.spawn(spec).expect("spawn");
    let zygote = zygote_of(&table);
    let standby = standby_of(zygote);
    for (name, pid) in [("zygote", zygote), ("standby", standby)] {
        let fds = fd_targets(pid);
        let names: Vec<_> = fds.iter().map(|(fd, target)| (fd.as_str(), target.as_str())).collect();
        assert_eq!(
            &names[..3],
            [("0", "/dev/null"), ("1", "/dev/null"), ("2", "/dev/null")],
            "{name}"
        );
        assert_eq!(names.len(), 5, "{name}: {names:?}");
        assert!(
            names[3].0 == "3" && names[3].1.starts_with("socket:"),
            "{name}: {names:?}"
        );
        // The pipe through which the standby tells the zygote it took a request.
        assert!(names[4].1.starts_with("pipe:"), "{name}: {names:?}");
        assert_eq!(
            stat_field(pid, 2),
            Some(pid.to_string()),
            "the {name} leads its own group"
        );
    }
    let host = std::process::id().to_string();
    assert_eq!(stat_field(standby, 1), Some(host), "the standby is the host's child");
    assert_eq!(
        stat_field(standby, 0).as_deref(),
        Some("S"),
        "the standby waits for a request"
    );
    process.close_stdin();
    assert_eq!(finished(&process), exited(0));
}

#[test]
fn each_spawn_takes_the_waiting_standby_and_the_zygote_makes_the_next() {
    let table = ProcessTable::new();
    let zygote = zygote_of(&table);
    let first = standby_of(zygote);
    let marker = marker(313);
    let process = table.spawn(spec(&["/usr/bin/sleep", &marker])).expect("spawn");
    let sightings = wait_for_sleeps(&marker, 1);
    let supervisor = stat_field(sightings[0].pid, 1).and_then(|ppid| ppid.parse::<i32>().ok());
    assert_eq!(supervisor, Some(first), "the standby became the program's supervisor");
    let next = standby_of(zygote);
    assert_ne!(next, first, "a fresh standby waits for the next request");
    assert_eq!(process.terminate(), killed_by(15));
    assert_all_gone(&marker, &sightings);
}

#[test]
fn a_standby_killed_while_it_waits_is_replaced_and_reaped() {
    let table = ProcessTable::new();
    let zygote = zygote_of(&table);
    let killed = standby_of(zygote);
    let start = stat_field(killed, 19).expect("the standby's start time");
    signal(killed, Signal::SIGKILL);
    wait_until_ended(killed);
    // Its replacement serves the next spawn, whose report names the dead one to the host.
    let process = table.spawn(bash("echo served")).expect("spawn");
    assert_eq!(finished(&process), exited(0));
    assert_ne!(standby_of(zygote), killed);
    wait_until_reaped(killed, &start);
}

#[test]
fn a_stopped_zygote_is_replaced_once_no_standby_takes_a_spawn() {
    let table = ProcessTable::new();
    let zygote = zygote_of(&table);
    let start = stat_field(zygote, 19).expect("the zygote's start time");
    signal(zygote, Signal::SIGSTOP);
    // The standby it made before it stopped serves one spawn; the next finds nobody to take it
    // until the stopped zygote is replaced.
    for _ in 0..2 {
        let process = table.spawn(bash("echo served")).expect("spawn");
        assert_eq!(finished(&process), exited(0));
    }
    assert_ne!(zygote_of(&table), zygote);
    wait_until_reaped(zygote, &start);
}

#[test]
fn a_dead_zygote_is_replaced_and_its_processes_run_on() {
    let table = ProcessTable::new();
    let marker = marker(310);
    let running = table
        .spawn(bash(&format!("/usr/bin/sleep {marker} & /usr/bin/sleep {marker}")))
        .expect("spawn");
    let sightings = wait_for_sleeps(&marker, 2);
    let old = zygote_of(&table);
    let old_start = stat_field(old, 19).expect("zygote start time");
    signal(old, Signal::SIGKILL);
    wait_until_ended(old);

    // Its standby serves one more request; the next goes to a fresh zygote.
    for round in ["again", "and again"] {
        let process = table
            .spawn(bash(&format!("echo {round}")))
            .expect("spawn after the zygote died");
        assert_eq!(finished(&process), exited(0));
        assert_eq!(collected(&process, Stream::Stdout), format!("{round}\n"));
    }
    let new = zygote_of(&table);
    assert_ne!(new, old, "a fresh zygote serves the table");
    wait_until_reaped(old, &old_start);

    // The tree started by the dead zygote is still the host's to wait on and terminate.
    assert_eq!(running.outcome(), None);
    assert_eq!(running.terminate(), killed_by(15));
    assert_all_gone(&marker, &sightings);
}

#[test]
fn a_request_lost_with_its_zygote_is_sent_to_a_fresh_one() {
    let table = ProcessTable::new();
    let old = zygote_of(&table);
    let standby = standby_of(old);
    // A stopped standby leaves the request queued on the socket; once it and the zygote are
    // killed, nobody holds the socket and the request is dropped.
    signal(standby, Signal::SIGSTOP);
    let (done_tx, done_rx) = mpsc::channel();
    thread::scope(|scope| {
        scope.spawn(|| {
            let result = table.spawn(bash("echo retried")).map(|process| {
                let outcome = finished(&process);
                (outcome, collected(&process, Stream::Stdout))
            });
            let _ = done_tx.send(result.map_err(|err| err.to_string()));
        });
        assert!(
            done_rx.recv_timeout(Duration::from_millis(200)).is_err(),
            "a stopped standby cannot have served the request"
        );
        signal(old, Signal::SIGKILL);
        wait_until_ended(old);
        signal(standby, Signal::SIGKILL);
        let result = done_rx.recv_timeout(Duration::from_secs(10)).expect("spawn returns");
        assert_eq!(result, Ok((exited(0), "retried\n".to_owned())));
    });
    assert_ne!(zygote_of(&table), old);
}

#[test]
fn dropping_the_table_ends_and_reaps_its_zygote() {
    let table = ProcessTable::new();
    let zygote = zygote_of(&table);
    let start = stat_field(zygote, 19).expect("zygote start time");
    let marker = marker(311);
    let process = table.spawn(bash(&format!("/usr/bin/sleep {marker}"))).expect("spawn");
    let sightings = wait_for_sleeps(&marker, 1);
    let standby = standby_of(zygote);
    let standby_start = stat_field(standby, 19).expect("standby start time");
    drop(table);
    wait_until_reaped(zygote, &start);
    wait_until_reaped(standby, &standby_start);
    // Processes outlive their table.
    assert_eq!(process.outcome(), None);
    assert_eq!(process.terminate(), killed_by(15));
    assert_all_gone(&marker, &sightings);
}

const HOST_DEATH_MARKER_ENV: &str = "SEAM_PROCESS_TEST_ZYGOTE_HOST_DEATH_MARKER";

/// Run as a separate host process by `host_death_ends_the_zygote_and_every_tree`.
#[test]
#[ignore = "helper process for host_death_ends_the_zygote_and_every_tree"]
fn zygote_host_death_helper() {
    let Ok(marker) = std::env::var(HOST_DEATH_MARKER_ENV) else {
        return;
    };
    // The table lives on a short-lived thread: its end must not end the processes.
    let (table, processes) = thread::spawn(move || {
        let table = ProcessTable::new();
        let processes: Vec<_> = (0..2)
            .map(|_| {
                table
                    .spawn(bash(&format!("/usr/bin/sleep {marker} & /usr/bin/sleep {marker}")))
                    .expect("spawn")
            })
            .collect();
        (table, processes)
    })
    .join()
    .expect("spawning thread");
    println!("\nzygote-pid={}", zygote_of(&table));
    thread::sleep(Duration::from_secs(60));
    drop(processes);
}

#[test]
fn host_death_ends_the_zygote_and_every_tree() {
    let marker = marker(312);
    let mut helper = Command::new(std::env::current_exe().expect("test binary"))
        .args([
            "--exact",
            "natives::process::tests::zygote::zygote_host_death_helper",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(HOST_DEATH_MARKER_ENV, &marker)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start helper host");
    let sightings = wait_for_sleeps(&marker, 4);
    let stdout = BufReader::new(helper.stdout.take().expect("helper stdout"));
    let zygote: i32 = stdout
        .lines()
        .map_while(Result::ok)
        .find_map(|line| line.strip_prefix("zygote-pid=")?.parse().ok())
        .expect("helper names its zygote");
    assert_eq!(stat_field(zygote, 0).as_deref(), Some("S"), "zygote waits for requests");
    assert!(
        sightings.iter().all(still_exists),
        "the spawning thread's end must not end the trees"
    );
    helper.kill().expect("kill helper host");
    helper.wait().expect("reap helper host");
    assert_all_gone_within(&marker, &sightings, Duration::from_secs(5));
    wait_until_ended(zygote);
}
