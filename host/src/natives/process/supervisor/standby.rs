//! The standby: a supervisor created before its request, so a spawn does not wait for a fork.
//!
//! The zygote forks one standby at a time. It becomes a supervisor right away (process group,
//! subreaper, the host's death watched), then waits on the control socket itself. Once its
//! program runs, it tells the zygote through the *handover* pipe, and the zygote forks the next
//! standby: forking earlier would compete with the launch for a CPU. A standby that fails its
//! request says so on the pipe before its report names it to the host, which reaps it. A
//! standby that ends with nothing said (killed while it waited) is named by nobody: the zygote
//! hands its pid to the next standby, whose `Started` report carries it to the host. A `STOP`
//! request (sent when a table drops its zygote) makes a waiting standby report its own pid, so
//! the host can reap it, and exit.

use std::os::fd::RawFd;

use libc::{c_int, c_uint, pid_t};

use super::super::wire::{STOP, Stage};
use super::zygote::{Received, plan_of, receive};
use super::{become_supervisor, fail, prefault, run_program, sys};

/// The byte a standby writes on the handover pipe once its program runs.
pub(super) const RUNNING: u8 = 1;
/// [`RUNNING`] as written: static data, faulted in by [`prefault`](super::prefault).
pub(super) static RUNNING_BYTE: &[u8] = &[RUNNING];
/// The byte it writes before its report of a failed request names it to the host. Written
/// first: a standby killed between the two is left unreaped, never reaped twice.
pub(super) const FAILED: u8 = 2;

/// What a standby passes on.
#[derive(Clone, Copy)]
pub(super) struct Handover {
    /// The write end of the pipe the zygote waits on.
    pub(super) pipe: RawFd,
    /// An earlier standby that ended before taking a request, for the host to reap; 0: none.
    pub(super) unreaped: pid_t,
}

/// Entered in the standby the zygote just created, with every signal blocked; never returns.
///
/// # Safety
/// Only in a child just created by the zygote.
pub(super) unsafe fn stand_by(handover: Handover, host_pid: pid_t, fd_limit: c_uint) -> ! {
    sys::set_name(c"seam-standby");
    // A failure here is reported on the request, which is the only way to the host.
    let ready = become_supervisor(host_pid);
    prefault::prefault();
    let mut request = Received::new();
    if !receive(&mut request) {
        // The host closed its end (or died): no more requests will come.
        sys::exit(0)
    }
    // SAFETY: we are the standby that took `request`.
    unsafe { serve(&mut request, ready, fd_limit, handover) }
}

/// # Safety
/// Only in the standby, once, for the request it took.
unsafe fn serve(request: &mut Received, ready: Result<bool, c_int>, fd_limit: c_uint, handover: Handover) -> ! {
    // Every request carries its report pipe first; without one nobody is waiting for an answer.
    let Some(&report_fd) = request.fds().first() else {
        sys::exit(0)
    };
    if request.header == STOP {
        refuse(handover, report_fd, Stage::Zygote, 0)
    }
    let plan = match plan_of(request, fd_limit) {
        Ok(plan) => plan,
        Err(errno) => refuse(handover, report_fd, Stage::Zygote, errno),
    };
    match ready {
        // SAFETY: we are a supervisor now, with the plan of the request we took.
        Ok(host_alive) => unsafe { run_program(&plan, host_alive, handover) },
        Err(errno) => refuse(handover, report_fd, Stage::Supervisor, errno),
    }
}

/// Tells the zygote the host will reap this standby, then reports the failure (naming it).
pub(super) fn refuse(handover: Handover, report_fd: RawFd, stage: Stage, errno: c_int) -> ! {
    sys::write_all(handover.pipe, &[FAILED]);
    fail(report_fd, stage, errno)
}
