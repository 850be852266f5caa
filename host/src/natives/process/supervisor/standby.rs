//! The standby: a supervisor created before its request, so a spawn does not wait for a fork.
//!
//! The zygote forks one standby at a time. It becomes a supervisor right away (process group,
//! subreaper, the host's death watched), then waits on the control socket itself. Once its
//! program runs, it tells the zygote through the *taken* pipe, and the zygote forks the next
//! standby: forking earlier would compete with the launch for a CPU. A standby that fails its
//! request says the same by exiting (end-of-file on the pipe). A `STOP` request (sent when a table drops its
//! zygote) makes a waiting standby report its own pid, so the host can reap it, and exit.

use std::os::fd::RawFd;

use libc::{c_int, c_uint, pid_t};

use super::super::wire::{STOP, Stage};
use super::zygote::{Received, plan_of, receive};
use super::{become_supervisor, fail, run_program, sys};

/// Entered in the standby the zygote just created, with every signal blocked; never returns.
/// `taken` is the write end of the pipe the zygote waits on.
///
/// # Safety
/// Only in a child just created by the zygote.
pub(super) unsafe fn stand_by(taken: RawFd, host_pid: pid_t, fd_limit: c_uint) -> ! {
    sys::set_name(c"seam-standby");
    // A failure here is reported on the request, which is the only way to the host.
    let ready = become_supervisor(host_pid);
    let Some(request) = receive() else {
        // The host closed its end (or died): no more requests will come.
        sys::exit(0)
    };
    // SAFETY: we are the standby that took `request`.
    unsafe { serve(&request, ready, fd_limit, taken) }
}

/// # Safety
/// Only in the standby, once, for the request it took.
unsafe fn serve(request: &Received, ready: Result<bool, c_int>, fd_limit: c_uint, taken: RawFd) -> ! {
    // Every request carries its report pipe first; without one nobody is waiting for an answer.
    let Some(&report_fd) = request.fds().first() else {
        sys::exit(0)
    };
    if request.header == STOP {
        fail(report_fd, Stage::Zygote, 0)
    }
    let plan = match plan_of(request, fd_limit) {
        Ok(plan) => plan,
        Err(errno) => fail(report_fd, Stage::Zygote, errno),
    };
    match ready {
        // SAFETY: we are a supervisor now, with the plan of the request we took.
        Ok(host_alive) => unsafe { run_program(&plan, host_alive, taken) },
        Err(errno) => fail(report_fd, Stage::Supervisor, errno),
    }
}
