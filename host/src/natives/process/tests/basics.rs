//! Spawning, exit statuses, environment, cwd, process structure and spec validation.

use std::path::PathBuf;
use std::time::Duration;

use super::*;
use crate::natives::process::{ProcessError, ProcessTable};

fn spawn_error(spec: SpawnSpec) -> ProcessError {
    match ProcessTable::new().spawn(spec) {
        Ok(process) => panic!("spawn of pid {} should have failed", process.pid()),
        Err(err) => err,
    }
}

#[test]
fn echo_output_is_collected() {
    let table = ProcessTable::new();
    let process = table.spawn(spec(&["/usr/bin/echo", "hi"])).expect("spawn");
    assert_eq!(finished(&process), exited(0));
    assert_eq!(collected(&process, Stream::Stdout), "hi\n");
    assert_eq!(collected(&process, Stream::Stderr), "");
    assert_eq!(process.terminate(), exited(0), "terminate on a finished process");
}

#[test]
fn exit_code_is_reported() {
    let process = ProcessTable::new().spawn(bash("exit 3")).expect("spawn");
    assert_eq!(finished(&process), exited(3));
    assert_eq!(process.outcome(), Some(exited(3)));
}

#[test]
fn death_by_signal_is_reported() {
    let process = ProcessTable::new().spawn(bash("kill -9 $$")).expect("spawn");
    assert_eq!(finished(&process), killed_by(9));
}

#[test]
fn child_gets_exactly_the_given_environment() {
    let mut spec = spec(&["/usr/bin/env"]);
    spec.env = vec![
        ("ALPHA".to_owned(), "1".to_owned()),
        ("BETA".to_owned(), "two words".to_owned()),
    ];
    let process = ProcessTable::new().spawn(spec).expect("spawn");
    assert_eq!(finished(&process), exited(0));
    assert_eq!(collected(&process, Stream::Stdout), "ALPHA=1\nBETA=two words\n");
}

#[test]
fn argv_and_environment_of_any_size_arrive_intact() {
    let table = ProcessTable::new();
    // Small requests travel inside the request datagram, large ones in a memfd; one spans the
    // boundary (an argument of about the datagram's room).
    for (arg_bytes, env_bytes) in [(2, 1), (15_000, 1), (17_000, 0), (100_000, 100_000)] {
        let arg = format!("<{}>", "a".repeat(arg_bytes - 2));
        let script = r#"printf '%s %s %s' "${#1}" "${1:0:1}${1: -1}" "${#BIG}""#;
        let mut spec = spec(&[BASH, "-c", script, "sh", &arg]);
        spec.env = vec![("BIG".to_owned(), "b".repeat(env_bytes))];
        let process = table.spawn(spec).expect("spawn");
        assert_eq!(finished(&process), exited(0));
        assert_eq!(
            collected(&process, Stream::Stdout),
            format!("{arg_bytes} <> {env_bytes}")
        );
    }
}

#[test]
fn child_runs_in_the_given_cwd() {
    let mut spec = spec(&["/usr/bin/pwd"]);
    spec.cwd = PathBuf::from("/usr");
    let process = ProcessTable::new().spawn(spec).expect("spawn");
    assert_eq!(finished(&process), exited(0));
    assert_eq!(collected(&process, Stream::Stdout), "/usr\n");
}

#[test]
fn pid_is_the_program_not_the_supervisor() {
    let process = ProcessTable::new().spawn(bash("echo $$")).expect("spawn");
    assert_eq!(finished(&process), exited(0));
    assert_eq!(collected(&process, Stream::Stdout), format!("{}\n", process.pid()));
}

#[test]
fn program_has_its_own_group_under_a_supervisor_holding_only_its_report_pipe() {
    let marker = marker(299);
    let mut spec = spec(&["/usr/bin/sleep", &marker]);
    spec.stdin = StdinSpec::Pipe;
    let process = ProcessTable::new().spawn(spec).expect("spawn");
    wait_for_sleeps(&marker, 1);
    let pid = i32::try_from(process.pid()).expect("pid");
    let fields = stat_fields(pid).expect("program stat");
    assert_eq!(fields[2], pid.to_string(), "program leads its own process group");
    let supervisor: i32 = fields[1].parse().expect("ppid");
    let host = std::process::id().to_string();
    assert_eq!(stat_field(supervisor, 1), Some(host), "supervisor is the host's child");
    let link = |pid: i32, fd: &str| std::fs::read_link(format!("/proc/{pid}/fd/{fd}")).ok();
    let supervisor_fds = || -> Vec<String> {
        std::fs::read_dir(format!("/proc/{supervisor}/fd"))
            .expect("supervisor fd dir")
            .map(|entry| entry.expect("fd entry").file_name().to_string_lossy().into_owned())
            .collect()
    };
    // The supervisor closes what it inherited right after its Started report, which the spawn
    // may return on first.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while supervisor_fds() != ["0"] && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(supervisor_fds(), ["0"], "the supervisor holds its report pipe alone");
    let report_pipe = link(supervisor, "0").expect("report pipe");
    assert!(report_pipe.to_string_lossy().starts_with("pipe:"), "{report_pipe:?}");
    assert_ne!(Some(report_pipe), link(pid, "0"), "not the program's stdin");
    assert_eq!(process.terminate(), killed_by(15));
}

#[test]
fn a_supervisor_killed_before_its_report_ends_the_wait_with_its_own_death() {
    let marker = marker(1);
    let process = ProcessTable::new()
        .spawn(spec(&["/usr/bin/sleep", &marker]))
        .expect("spawn");
    wait_for_sleeps(&marker, 1);
    let pid = i32::try_from(process.pid()).expect("pid");
    let supervisor: i32 = stat_field(pid, 1).and_then(|ppid| ppid.parse().ok()).expect("ppid");
    // SAFETY: kill with integer arguments; the supervisor is our unreaped child.
    assert_eq!(unsafe { libc::kill(supervisor, libc::SIGKILL) }, 0);
    // The orphaned program holds the output pipe until it ends; then its supervisor's exit,
    // not a report, says how the process ended.
    assert_eq!(finished(&process), killed_by(9));
}

#[test]
fn ids_increase_and_the_table_forgets() {
    let table = ProcessTable::new();
    let first = table.spawn(spec(&["/usr/bin/true"])).expect("spawn");
    let _ = spawn_error(spec(&["/nonexistent/program"]));
    let second = table.spawn(spec(&["/usr/bin/true"])).expect("spawn");
    assert!(second.id() > first.id());
    assert!(table.get(first.id()).is_some());
    table.forget(first.id());
    assert!(table.get(first.id()).is_none());
    assert_eq!(finished(&first), exited(0), "a forgotten process stays usable");
}

#[test]
fn missing_program_fails_to_spawn() {
    let err = spawn_error(spec(&["/nonexistent/program"]));
    assert_eq!(err.code(), "PROCESS_SPAWN_FAILED", "{err}");
}

#[test]
fn invalid_specs_are_rejected() {
    assert_eq!(spawn_error(spec(&[])).code(), "PROCESS_INVALID_SPEC");
    assert_eq!(spawn_error(spec(&["bash"])).code(), "PROCESS_INVALID_SPEC");
    let mut merged_stdout = spec(&["/usr/bin/true"]);
    merged_stdout.stdout = OutputSpec::Merge;
    assert_eq!(spawn_error(merged_stdout).code(), "PROCESS_INVALID_SPEC");
    let mut bad_env = spec(&["/usr/bin/true"]);
    bad_env.env.push(("A=B".to_owned(), "c".to_owned()));
    assert_eq!(spawn_error(bad_env).code(), "PROCESS_INVALID_SPEC");
}

#[test]
fn unusable_cwd_is_rejected() {
    let mut missing = spec(&["/usr/bin/true"]);
    missing.cwd = PathBuf::from("/nonexistent/dir");
    assert_eq!(spawn_error(missing).code(), "PROCESS_CWD_INVALID");
    let mut file = spec(&["/usr/bin/true"]);
    file.cwd = PathBuf::from("/usr/bin/true");
    assert_eq!(spawn_error(file).code(), "PROCESS_CWD_INVALID");
}

#[test]
fn wait_times_out_on_a_running_process() {
    let process = ProcessTable::new().spawn(bash("sleep 5")).expect("spawn");
    assert_eq!(process.wait(Some(Duration::from_millis(50))), None);
    assert_eq!(process.outcome(), None);
    assert_eq!(process.terminate(), killed_by(15));
    assert_eq!(process.terminate(), killed_by(15), "terminate is idempotent");
}
