//! Creating the program from the supervisor the way `posix_spawn` does: `clone` with
//! `CLONE_VM | CLONE_VFORK`, so no page table is copied and the supervisor learns the outcome
//! of `execve` synchronously (it stays suspended until the child has exec'd or exited).
//!
//! The child shares the supervisor's memory until it execs, so it writes only to its own stack
//! and to the [`Shared`] record the suspended supervisor reads afterwards. It runs no signal
//! handler: every disposition is the default and every signal stays blocked until right
//! before `execve`.

use std::ffi::c_void;
use std::mem::MaybeUninit;
use std::os::fd::RawFd;
use std::ptr;

use libc::{c_int, pid_t};

use super::super::wire::{ExecArgs, Stage};
use super::sys;

/// Stack of the short-lived child, which only makes a handful of syscalls.
const CHILD_STACK_BYTES: usize = 16 * 1024;
/// Exit code of a child whose exec failed (the same as a shell's "command not found").
const EXEC_FAILED_EXIT_CODE: c_int = 127;

/// Everything the program needs besides what it inherits from the supervisor.
#[derive(Clone, Copy)]
pub(super) struct ProgramPlan {
    /// The fd to install as stdin, stdout and stderr; negative keeps the inherited `/dev/null`.
    pub(super) stdio: [RawFd; 3],
    pub(super) exec: ExecArgs,
}

pub(super) struct LaunchFailure {
    pub(super) stage: Stage,
    pub(super) errno: c_int,
    /// The child, if one was created: it has exited and still has to be reaped.
    pub(super) pid: pid_t,
}

/// The child's view of the launch, and its way to report a failure.
struct Shared {
    plan: ProgramPlan,
    errno: c_int,
}

/// Starts the program as a child of the calling process; returns once it has exec'd.
pub(super) fn launch(plan: &ProgramPlan) -> Result<pid_t, LaunchFailure> {
    let mut shared = Shared { plan: *plan, errno: 0 };
    // Left uninitialised: the child touches only the top of it.
    let mut stack = MaybeUninit::<[u128; CHILD_STACK_BYTES / 16]>::uninit();
    // SAFETY: one past the end of the array, aligned to 16 bytes like the array itself.
    let stack_top = unsafe { stack.as_mut_ptr().cast::<u8>().add(CHILD_STACK_BYTES) };
    let flags = libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD;
    // SAFETY: the child runs `enter_program` on `stack` (which stays alive: we are suspended
    // until the child execs or exits) and touches nothing else of ours but `shared`.
    let pid = unsafe { libc::clone(enter_program, stack_top.cast(), flags, (&raw mut shared).cast()) };
    if pid < 0 {
        return Err(LaunchFailure {
            stage: Stage::Supervisor,
            errno: sys::errno(),
            pid: 0,
        });
    }
    // SAFETY: the child is done with `shared`; volatile because the write came from elsewhere.
    let errno = unsafe { ptr::read_volatile(&raw const shared.errno) };
    if errno != 0 {
        return Err(LaunchFailure {
            stage: Stage::Program,
            errno,
            pid,
        });
    }
    Ok(pid)
}

pub(super) extern "C" fn enter_program(shared: *mut c_void) -> c_int {
    let shared = shared.cast::<Shared>();
    // SAFETY: `shared` points to the suspended supervisor's record (see `launch`).
    let errno = unsafe { exec(&(*shared).plan) };
    // SAFETY: as above; `_exit` leaves the shared memory alone (no atexit handlers, no flush).
    unsafe {
        ptr::write_volatile(&raw mut (*shared).errno, errno);
        libc::_exit(EXEC_FAILED_EXIT_CODE)
    }
}

/// Wires stdio, enters the cwd, takes a process group of its own and execs; returns the errno
/// if any step fails.
///
/// # Safety
/// Only in the child created by [`launch`].
unsafe fn exec(plan: &ProgramPlan) -> c_int {
    for (target, &fd) in (0..).zip(plan.stdio.iter()) {
        if fd < 0 {
            continue;
        }
        // SAFETY: fd operations on fds this process owns. An fd already in place keeps its
        // number but must lose close-on-exec.
        let wired = unsafe {
            if fd == target {
                libc::fcntl(fd, libc::F_SETFD, 0) == 0
            } else {
                libc::dup2(fd, target) == target
            }
        };
        if !wired {
            return failure_errno();
        }
    }
    // SAFETY: `cwd` is a NUL-terminated string of the mapped request.
    if unsafe { libc::chdir(plan.exec.cwd) } != 0 {
        return failure_errno();
    }
    if let Err(errno) = sys::own_process_group() {
        return errno;
    }
    // SAFETY: an empty, initialised signal set.
    unsafe {
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &none, ptr::null_mut());
        libc::execve(plan.exec.path, plan.exec.argv, plan.exec.envp);
    }
    failure_errno()
}

/// The current errno, never 0 (0 would read as success).
fn failure_errno() -> c_int {
    match sys::errno() {
        0 => libc::EIO,
        errno => errno,
    }
}
