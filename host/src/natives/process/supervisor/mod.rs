//! The per-spawn supervisor, entered from `pre_exec` in the child that std forks.
//!
//! That child makes itself a child subreaper and forks once more: the grandchild returns to std,
//! which execs the program; the child stays behind as the supervisor and never returns. It
//! holds neither fds nor the host's memory, reaps everything beneath it (orphans of setsid'd or
//! double-forked descendants are reparented to it) and exits with the program's status once
//! nothing is left, so waiting on it means waiting on the whole tree.
//!
//! Everything here runs in a forked copy of a multi-threaded host and must stay
//! async-signal-safe (see [`sys`]).

mod proc_tree;
mod release_memory;
mod sys;

use std::io;
use std::os::fd::RawFd;
use std::time::Duration;

use libc::{c_int, c_uint, pid_t};

/// Sent by the kernel to the supervisor when the thread that forked it (and so the host) dies.
const HOST_DEATH_SIGNAL: c_int = libc::SIGHUP;
/// Asks for an orderly exit; SIGCONT lets stopped processes act on the SIGTERM during the grace.
const POLITE_STOP: &[c_int] = &[libc::SIGTERM, libc::SIGCONT];
const FORCED_STOP: &[c_int] = &[libc::SIGKILL];
/// Once SIGKILL is due, stragglers are re-signalled this often: they may still be forking.
const KILL_RETRY_NS: u64 = 10_000_000;

/// Everything the supervisor needs, computed before forking so the forked side only copies
/// integers.
#[derive(Clone, Copy)]
pub(super) struct SupervisorPlan {
    grace_ns: u64,
    host_pid: pid_t,
    pid_report_fd: RawFd,
    fd_limit: c_uint,
}

impl SupervisorPlan {
    /// `pid_report_fd` is the write end of a CLOEXEC pipe that receives the program's pid.
    pub(super) fn new(grace: Duration, pid_report_fd: RawFd) -> Self {
        Self {
            grace_ns: u64::try_from(grace.as_nanos()).unwrap_or(u64::MAX),
            host_pid: nix::unistd::getpid().as_raw(),
            pid_report_fd,
            fd_limit: sys::open_file_limit(),
        }
    }
}

/// Splits the freshly forked child into supervisor and program.
///
/// Returns only in the program-to-be (std then execs it) or on failure before the split; the
/// supervisor side exits through [`sys::exit_like`].
///
/// # Safety
/// Must only be called from `CommandExt::pre_exec`, in the child std just forked.
pub(super) unsafe fn split_off_program(plan: &SupervisorPlan) -> io::Result<()> {
    // `plan` lives in the heap, which the supervisor releases below: keep a copy on the stack.
    let plan = *plan;
    sys::become_subreaper()?;
    // Signals stay blocked in the supervisor for good: they are consumed synchronously.
    let program_mask = sys::block_all_signals();
    sys::reset_signal_dispositions();
    let host_alive = sys::watch_for_host_death(HOST_DEATH_SIGNAL, plan.host_pid);
    // SAFETY: this process is single-threaded (just forked); both sides only make raw syscalls
    // until the program execs or the supervisor exits.
    match unsafe { libc::fork() } {
        -1 => {
            let err = io::Error::last_os_error();
            sys::set_signal_mask(&program_mask);
            Err(err)
        }
        0 => {
            sys::set_signal_mask(&program_mask);
            sys::own_process_group()
        }
        program => {
            sys::write_all(plan.pid_report_fd, &program.to_ne_bytes());
            // SAFETY: we are the forked supervisor; nothing here owns these fds any more.
            unsafe { sys::close_all_fds(plan.fd_limit) };
            sys::leave_working_directory();
            // SAFETY: from here on only stack data and static code are used.
            unsafe { release_memory::release_host_memory() };
            supervise(program, plan.grace_ns, !host_alive)
        }
    }
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
    loop {
        if !reap_children(program, &mut program_status) {
            sys::exit_like(program_status);
        }
        let now = sys::now_ns();
        if matches!(phase, Phase::Running) && (stop_requested || program_status.is_some()) {
            signal_tree(program, program_status.is_none(), POLITE_STOP);
            phase = Phase::Terminating {
                kill_at: now.saturating_add(grace_ns),
            };
        }
        if let Phase::Terminating { kill_at } = phase
            && now >= kill_at
        {
            phase = Phase::Killing;
        }
        let timeout = match phase {
            Phase::Running => None,
            Phase::Terminating { kill_at } => Some(kill_at.saturating_sub(now)),
            Phase::Killing => {
                signal_tree(program, program_status.is_none(), FORCED_STOP);
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

/// Sends `signals` to the program's process group and to every descendant.
///
/// The group is only signalled while the program is unreaped: until then its pid, and so the
/// group id, cannot be reused by an unrelated process. Descendants that stay behind are
/// reached through the tree walk anyway.
fn signal_tree(program: pid_t, program_unreaped: bool, signals: &[c_int]) {
    if program_unreaped {
        for &signal in signals {
            // SAFETY: kill has no memory-safety preconditions.
            unsafe { libc::kill(-program, signal) };
        }
    }
    proc_tree::signal_descendants(signals);
}
