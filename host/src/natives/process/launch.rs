//! Starts the program under its supervisor through std's `Command` and learns the program's pid.

use std::fs::File;
use std::io::{self, Read};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command};

use nix::fcntl::OFlag;
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

use super::error::ProcessError;
use super::spawner::run_on_spawner_thread;
use super::spec::SpawnSpec;
use super::supervisor::{self, SupervisorPlan};
use super::wiring::ChildStdio;

pub(super) struct Launched {
    /// The direct child of the host; it exits with the program's status once the tree is gone.
    pub(super) supervisor: Child,
    pub(super) program_pid: u32,
}

pub(super) fn launch(spec: &SpawnSpec, stdio: ChildStdio) -> Result<Launched, ProcessError> {
    let (program, args) = spec
        .argv
        .split_first()
        .ok_or_else(|| ProcessError::InvalidSpec("argv is empty".to_owned()))?;
    let spawn_failed = |source: io::Error| ProcessError::SpawnFailed {
        program: program.clone(),
        source,
    };
    let (report_read, report_write) =
        nix::unistd::pipe2(OFlag::O_CLOEXEC).map_err(|errno| spawn_failed(errno.into()))?;
    let plan = SupervisorPlan::new(spec.grace, report_write.as_raw_fd());

    let mut command = Command::new(program);
    command
        .args(args)
        .env_clear()
        .envs(spec.env.iter().map(|(key, value)| (key, value)))
        .current_dir(&spec.cwd)
        .stdin(stdio.stdin)
        .stdout(stdio.stdout)
        .stderr(stdio.stderr)
        // Keeps the supervisor out of the host's group, so terminal signals aimed at the host
        // do not reach it; the program gets a group of its own inside `split_off_program`.
        .process_group(0);
    let split_off_program = move || {
        // SAFETY: this closure only runs as a pre_exec hook, in the child std just forked.
        unsafe { supervisor::split_off_program(&plan) }
    };
    // SAFETY: the hook only makes async-signal-safe raw syscalls, on stack data.
    unsafe { command.pre_exec(split_off_program) };
    // The command (and with it the host's copies of the program's stdio fds) is dropped on the
    // spawner thread right after the spawn.
    let spawned = run_on_spawner_thread(move || command.spawn());
    drop(report_write);
    let supervisor = spawned.and_then(|spawned| spawned).map_err(spawn_failed)?;

    match read_program_pid(report_read.into()) {
        Ok(program_pid) => Ok(Launched {
            supervisor,
            program_pid,
        }),
        Err(err) => {
            abandon(supervisor);
            Err(spawn_failed(err))
        }
    }
}

fn read_program_pid(mut report: File) -> io::Result<u32> {
    let mut raw = [0u8; 4];
    report.read_exact(&mut raw)?;
    u32::try_from(i32::from_ne_bytes(raw)).map_err(|_| io::Error::other("supervisor reported an invalid program pid"))
}

/// Tears down a supervisor whose program cannot be tracked, and reaps it.
fn abandon(mut supervisor: Child) {
    if let Ok(pid) = i32::try_from(supervisor.id()) {
        let _ = kill(Pid::from_raw(pid), Signal::SIGTERM);
    }
    if let Err(err) = supervisor.wait() {
        tracing::warn!(error = %err, "failed to reap an abandoned process supervisor");
    }
}
