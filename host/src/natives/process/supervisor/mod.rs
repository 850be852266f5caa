//! Everything that runs in processes forked from the host: the zygote, the per-spawn
//! supervisors it creates, and the launch of each program.
//!
//! The zygote ([`zygote`]) is forked from the host once per process table and keeps one
//! *standby* ([`standby`]) ready: a sibling (`CLONE_PARENT`), so a child of the host, which
//! waits on it and may signal it until it has reaped it, exactly as if the host had forked it,
//! but without copying the host's page tables. The standby has already made itself a child
//! subreaper when it takes the next request from the control socket; it then starts the
//! program in a process group of its own ([`program`]) and, once it runs, lets the zygote create
//! the next standby. A supervisor holds no memory of the host and no fd but its report pipe, reaps
//! everything beneath it (orphans of setsid'd or double-forked descendants are reparented to it)
//! and, once nothing is left, reports the program's status on that pipe and exits with it, so
//! waiting on it means waiting on the whole tree.
//!
//! Everything here runs in forked copies of a multi-threaded host and must stay
//! async-signal-safe (see [`sys`]).

mod prefault;
mod proc_tree;
mod program;
mod release_memory;
mod standby;
mod sys;
pub(super) mod zygote;

#[cfg(test)]
pub(crate) use proc_tree::ignores;

use std::ffi::c_void;
use std::os::fd::RawFd;

use libc::{c_int, c_uint, pid_t};

use super::wire::{Report, Stage};
use program::{LaunchFailure, ProgramPlan};
use standby::Handover;

/// Sent by the kernel to the supervisor when the host's anchor thread (its parent thread, see
/// `spawner::anchor`), and so the host, dies.
const HOST_DEATH_SIGNAL: c_int = libc::SIGHUP;
/// Asks for an orderly exit; SIGCONT lets stopped processes act on the SIGTERM during the grace.
const POLITE_STOP: &[c_int] = &[libc::SIGTERM, libc::SIGCONT];
const FORCED_STOP: &[c_int] = &[libc::SIGKILL];
/// Once SIGKILL is due, stragglers are re-signalled this often: they may still be forking.
const KILL_RETRY_NS: u64 = 10_000_000;
/// During the grace, processes started since the polite signals are looked for this often.
const GRACE_RESCAN_NS: u64 = 20_000_000;
/// Exit code of a supervisor that could not start its program (the host only reaps it).
const LAUNCH_FAILED_EXIT_CODE: c_int = 127;
/// The name a standby takes once it has a program to supervise.
const SUPERVISOR_NAME: &std::ffi::CStr = c"seam-supervisor";
/// Where a supervisor keeps the report pipe while its program runs.
const FINISH_FD: RawFd = 0;

/// Everything a supervisor needs to start its program, decoded from one request.
#[derive(Clone, Copy)]
struct SupervisorPlan {
    grace_ns: u64,
    report_fd: RawFd,
    fd_limit: c_uint,
    program: ProgramPlan,
    /// The mapping of a blob that came as a memfd, released once the program runs.
    request: Option<(*mut c_void, usize)>,
}

/// The steps that make the calling process a supervisor, taken before it has a program: a
/// process group of its own (out of the zygote's, as a fork of the host would be kept out of
/// the host's), child subreaper, and the host's death watched. Says whether the host lives.
fn become_supervisor(host_pid: pid_t) -> Result<bool, c_int> {
    sys::own_process_group()?;
    sys::become_subreaper()?;
    Ok(sys::watch_for_host_death(HOST_DEATH_SIGNAL, host_pid))
}

/// Starts the program of `plan` and supervises its tree; never returns. Once the program runs,
/// a byte on the handover pipe lets the zygote fork the next standby.
///
/// # Safety
/// Only in a standby that has become a supervisor and took `plan`'s request, with every signal
/// blocked.
unsafe fn run_program(plan: &SupervisorPlan, host_alive: bool, handover: Handover) -> ! {
    let plan = *plan;
    sys::set_name(SUPERVISOR_NAME);
    let own_pid = sys::own_pid();
    let program = match program::launch(&plan.program) {
        Ok(program) => program,
        Err(LaunchFailure { stage, errno, pid }) => {
            if pid > 0 {
                sys::reap(pid);
            }
            standby::refuse(handover, plan.report_fd, stage, errno)
        }
    };
    // The zygote hears first: killed between the two, this supervisor is left unreaped rather
    // than named to the host twice (by its own report and as a standby that said nothing).
    sys::write_all(handover.pipe, standby::RUNNING_BYTE);
    report(
        plan.report_fd,
        Report::Started {
            supervisor: own_pid,
            program,
            unreaped: handover.unreaped,
        },
    );
    // The report pipe stays, as fd 0, for the `Finished` report.
    sys::move_fd(plan.report_fd, FINISH_FD);
    // SAFETY: we are a supervisor; nothing here owns the other fds any more (the handover pipe
    // included).
    unsafe { sys::close_fds_from(FINISH_FD as c_uint + 1, plan.fd_limit) };
    if let Some((base, len)) = plan.request {
        // SAFETY: the request mapping was only needed to start the program, which has exec'd.
        unsafe { libc::munmap(base, len) };
    }
    supervise(program, plan.grace_ns, !host_alive)
}

/// Reports that nothing runs but this process (the host reaps it), and exits.
fn fail(report_fd: RawFd, stage: Stage, errno: c_int) -> ! {
    report(
        report_fd,
        Report::Failed {
            stage,
            supervisor: sys::own_pid(),
            errno,
        },
    );
    sys::exit(LAUNCH_FAILED_EXIT_CODE)
}

fn report(fd: RawFd, report: Report) {
    sys::write_all(fd, &report.encode());
}

enum Phase {
    /// The program runs; wait for it to exit or for a stop request.
    Running,
    /// SIGTERM was sent to the tree; SIGKILL follows at `kill_at` (monotonic ns).
    Terminating { kill_at: u64 },
    /// SIGKILL rounds until no child is left.
    Killing,
}

fn supervise(program: pid_t, grace_ns: u64, mut stop_requested: bool) -> ! {
    let mut program_status: Option<c_int> = None;
    let mut phase = Phase::Running;
    // Descendants still running when the program ended on its own, before they were stopped.
    let mut left_running = 0usize;
    let mut signalled = proc_tree::Signalled::new();
    loop {
        if !reap_children(program, &mut program_status) {
            report(
                FINISH_FD,
                Report::Finished {
                    status: sys::exit_status(program_status),
                    left_running: c_int::try_from(left_running).unwrap_or(c_int::MAX),
                },
            );
            sys::exit_like(program_status);
        }
        let now = sys::now_ns();
        if matches!(phase, Phase::Running) && (stop_requested || program_status.is_some()) {
            let count = signal_tree(program, program_status.is_none(), POLITE_STOP, Some(&mut signalled));
            if !stop_requested {
                left_running = count;
            }
            phase = Phase::Terminating {
                kill_at: now.saturating_add(grace_ns),
            };
        } else if matches!(phase, Phase::Terminating { .. }) {
            _ = proc_tree::signal_descendants(POLITE_STOP, Some(&mut signalled));
        }
        if let Phase::Terminating { kill_at } = phase
            && now >= kill_at
        {
            phase = Phase::Killing;
        }
        let timeout = match phase {
            Phase::Running => None,
            Phase::Terminating { kill_at } => Some(kill_at.saturating_sub(now).min(GRACE_RESCAN_NS)),
            Phase::Killing => {
                _ = signal_tree(program, program_status.is_none(), FORCED_STOP, None);
                Some(KILL_RETRY_NS)
            }
        };
        if let Some(signal) = sys::wait_for_signal(timeout)
            && is_stop_request(signal)
        {
            stop_requested = true;
        }
    }
}

fn is_stop_request(signal: c_int) -> bool {
    matches!(signal, libc::SIGTERM | libc::SIGINT | libc::SIGQUIT | HOST_DEATH_SIGNAL)
}

/// Reaps every exited child, recording the program's status. Returns false once no child is
/// left at all.
fn reap_children(program: pid_t, program_status: &mut Option<c_int>) -> bool {
    loop {
        let mut status: c_int = 0;
        // SAFETY: `status` is a valid out-pointer.
        let pid = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG | libc::__WALL) };
        if pid == program {
            *program_status = Some(status);
        } else if pid == 0 {
            return true;
        } else if pid < 0 && sys::errno() != libc::EINTR {
            return false;
        }
    }
}

/// Sends `signals` to the program's process group and to every descendant (with `once`, every
/// descendant not sent them yet); returns how many descendants were signalled.
///
/// The group is only signalled while the program is unreaped: until then its pid, and so the
/// group id, cannot be reused by an unrelated process. Descendants that stay behind are
/// reached through the tree walk anyway.
fn signal_tree(
    program: pid_t,
    program_unreaped: bool,
    signals: &[c_int],
    once: Option<&mut proc_tree::Signalled>,
) -> usize {
    if program_unreaped {
        for &signal in signals {
            // SAFETY: kill has no memory-safety preconditions.
            unsafe { libc::kill(-program, signal) };
        }
    }
    proc_tree::signal_descendants(signals, once)
}
