//! Raw syscall wrappers for the zygote and the supervisors.
//!
//! The zygote is a forked copy of a multi-threaded host and the supervisors are copies of the
//! zygote: another thread may have held the allocator or any lock at fork time, so everything
//! here is async-signal-safe: no allocation, no locks, no panics, buffers on the stack.

use std::os::fd::RawFd;
use std::ptr;

use libc::{c_int, c_uint, pid_t, sigset_t};

use crate::natives::inherited::set_default_disposition;

/// Exit code used if the program's status was somehow lost (it cannot be: the program is our
/// own child, so only we can reap it).
const LOST_STATUS_EXIT_CODE: c_int = 255;

pub(super) fn errno() -> c_int {
    // SAFETY: errno is thread-local and always readable.
    unsafe { *libc::__errno_location() }
}

pub(super) fn own_pid() -> pid_t {
    // SAFETY: getpid has no preconditions.
    unsafe { libc::getpid() }
}

/// Monotonic clock in nanoseconds.
pub(super) fn now_ns() -> u64 {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid out-pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) };
    let secs = u64::try_from(now.tv_sec).unwrap_or(0);
    let nanos = u64::try_from(now.tv_nsec).unwrap_or(0);
    secs.saturating_mul(1_000_000_000).saturating_add(nanos)
}

/// Orphaned descendants (setsid'd, double-forked) are reparented to us instead of to init.
pub(super) fn become_subreaper() -> Result<(), c_int> {
    // SAFETY: prctl with integer arguments only.
    if unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong) } != 0 {
        return Err(errno());
    }
    Ok(())
}

/// Asks for `signal` when the parent *thread* dies; returns false if the host is already gone.
pub(super) fn watch_for_host_death(signal: c_int, host_pid: pid_t) -> bool {
    // SAFETY: prctl with integer arguments only.
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::c_ulong::from(signal.unsigned_abs())) };
    // The host may have died before the prctl: then we have already been reparented.
    // SAFETY: getppid has no preconditions.
    unsafe { libc::getppid() == host_pid }
}

/// Names the process (`comm`, as `ps` and `/proc/<pid>/stat` show it); `name` must be
/// NUL-terminated and at most 16 bytes long with the NUL.
pub(super) fn set_name(name: &std::ffi::CStr) {
    // SAFETY: the kernel copies at most 16 bytes from a valid NUL-terminated string.
    unsafe { libc::prctl(libc::PR_SET_NAME, name.as_ptr()) };
}

/// Blocks every blockable signal and returns the previous mask.
pub(super) fn block_all_signals() -> sigset_t {
    // SAFETY: both sets are valid, initialised by sigfillset/sigprocmask before use.
    unsafe {
        let mut all: sigset_t = std::mem::zeroed();
        let mut previous: sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        libc::sigprocmask(libc::SIG_SETMASK, &all, &mut previous);
        previous
    }
}

/// Every signal except `unblocked`.
pub(super) fn all_signals_except(unblocked: &[c_int]) -> sigset_t {
    // SAFETY: the set is initialised by sigfillset before use.
    unsafe {
        let mut set: sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut set);
        for &signal in unblocked {
            libc::sigdelset(&mut set, signal);
        }
        set
    }
}

pub(super) fn set_signal_mask(mask: &sigset_t) {
    // SAFETY: `mask` is a valid, initialised signal set.
    unsafe { libc::sigprocmask(libc::SIG_SETMASK, mask, ptr::null_mut()) };
}

/// Puts the calling process in a new process group of its own, so that signals aimed at the
/// host's group (a terminal's ^C) do not reach it.
pub(super) fn own_process_group() -> Result<(), c_int> {
    // SAFETY: setpgid with integer arguments only.
    if unsafe { libc::setpgid(0, 0) } != 0 {
        return Err(errno());
    }
    Ok(())
}

/// A sibling of the calling process: a fork whose parent is our own parent (`CLONE_PARENT`).
/// Returns like `fork`: 0 in the child, its pid in the caller, or the errno.
///
/// # Safety
/// Same contract as `fork` in a process that must stay async-signal-safe. Unlike `fork`, the
/// child runs no `pthread_atfork` handlers and libc's cached thread id stays the caller's:
/// only pthread functions read it, and none run in the zygote or a supervisor.
pub(super) unsafe fn fork_sibling() -> Result<pid_t, c_int> {
    let flags = libc::c_ulong::try_from(libc::CLONE_PARENT | libc::SIGCHLD).unwrap_or(0);
    // SAFETY: without a new stack the child continues on a copy of ours, exactly as after fork.
    let pid = unsafe { libc::syscall(libc::SYS_clone, flags, 0usize, 0usize, 0usize, 0usize) };
    if pid < 0 {
        return Err(errno());
    }
    // Pids always fit; never mistake a failed conversion for the child's 0.
    pid_t::try_from(pid).map_err(|_| libc::EINVAL)
}

/// Best-effort write of a small message; a failure surfaces on the reading side as a short read.
pub(super) fn write_all(fd: RawFd, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        // SAFETY: the pointer and length describe the live `bytes` slice.
        let written = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        match usize::try_from(written) {
            Ok(0) => return,
            Ok(n) => bytes = bytes.get(n..).unwrap_or_default(),
            Err(_) if errno() == libc::EINTR => {}
            Err(_) => return,
        }
    }
}

/// Reads one byte, retrying on EINTR; None at end-of-file or on an error.
pub(super) fn read_byte(fd: RawFd) -> Option<u8> {
    let mut byte = 0u8;
    loop {
        // SAFETY: one byte into a live stack variable.
        let read = unsafe { libc::read(fd, (&raw mut byte).cast(), 1) };
        if read >= 0 || errno() != libc::EINTR {
            return (read == 1).then_some(byte);
        }
    }
}

/// Closes every file descriptor from `first` on, so the process pins no pipe, terminal or file.
///
/// # Safety
/// Only for a forked zygote or supervisor: any owner of these fds in this process is gone.
pub(super) unsafe fn close_fds_from(first: c_uint, fd_limit: c_uint) {
    // SAFETY: raw close_range syscall with integer arguments.
    let closed = unsafe { libc::syscall(libc::SYS_close_range, first, c_uint::MAX, 0 as c_uint) };
    if closed == 0 {
        return;
    }
    let first = c_int::try_from(first).unwrap_or(c_int::MAX);
    let last = c_int::try_from(fd_limit).unwrap_or(c_int::MAX);
    for fd in first..last {
        // SAFETY: closing an fd number has no memory-safety effect here (see above).
        unsafe { libc::close(fd) };
    }
}

/// Makes `fd` available as `target` too (without close-on-exec), closing what `target` was.
pub(super) fn move_fd(fd: RawFd, target: RawFd) {
    if fd != target {
        // SAFETY: dup2 on fd numbers has no memory-safety effect; callers own both.
        unsafe { libc::dup2(fd, target) };
    }
}

/// Closes `fd`, ignoring errors (there is nothing to do about them).
pub(super) fn close(fd: RawFd) {
    // SAFETY: closing an fd number has no memory-safety effect; callers own `fd`.
    unsafe { libc::close(fd) };
}

/// Opens `/dev/null` with `flags` as fd `target`.
pub(super) fn null_onto(target: RawFd, flags: c_int) {
    // SAFETY: a NUL-terminated static path.
    let fd = unsafe { libc::open(c"/dev/null".as_ptr(), flags) };
    if fd >= 0 && fd != target {
        // SAFETY: dup2 and close on fds this process owns.
        unsafe {
            libc::dup2(fd, target);
            libc::close(fd);
        }
    }
}

/// Neither the zygote nor a supervisor needs a cwd; keeping the host's would pin that
/// directory (and its mount).
pub(super) fn leave_working_directory() {
    // SAFETY: a NUL-terminated static path.
    unsafe { libc::chdir(c"/".as_ptr()) };
}

/// Waits up to `timeout_ns` (forever if `None`) for any signal; all of them are blocked, so they
/// queue up and are consumed here instead of running handlers.
pub(super) fn wait_for_signal(timeout_ns: Option<u64>) -> Option<c_int> {
    let timeout = timeout_ns.map(|ns| libc::timespec {
        tv_sec: libc::time_t::try_from(ns / 1_000_000_000).unwrap_or(libc::time_t::MAX),
        tv_nsec: libc::c_long::try_from(ns % 1_000_000_000).unwrap_or(0),
    });
    let timeout_ptr = timeout.as_ref().map_or(ptr::null(), |t| t as *const libc::timespec);
    // SAFETY: `all` is initialised by sigfillset; `info` and `timeout_ptr` are valid or null.
    let signal = unsafe {
        let mut all: sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        let mut info: libc::siginfo_t = std::mem::zeroed();
        libc::sigtimedwait(&all, &mut info, timeout_ptr)
    };
    (signal > 0).then_some(signal)
}

/// The wait status [`exit_like`] gives the supervisor, as its parent would collect it.
pub(super) fn exit_status(status: Option<c_int>) -> c_int {
    match status {
        Some(status) if libc::WIFEXITED(status) => libc::WEXITSTATUS(status) << 8,
        Some(status) if libc::WIFSIGNALED(status) => libc::WTERMSIG(status),
        _ => LOST_STATUS_EXIT_CODE << 8,
    }
}

/// Exits the way the program did, so whoever waits on the supervisor sees the program's status.
pub(super) fn exit_like(status: Option<c_int>) -> ! {
    match status {
        Some(status) if libc::WIFEXITED(status) => exit(libc::WEXITSTATUS(status)),
        Some(status) if libc::WIFSIGNALED(status) => die_by_signal(libc::WTERMSIG(status)),
        _ => exit(LOST_STATUS_EXIT_CODE),
    }
}

/// Reaps `pid`, retrying on EINTR.
pub(super) fn reap(pid: pid_t) {
    let mut status: c_int = 0;
    // SAFETY: `status` is a valid out-pointer.
    while unsafe { libc::waitpid(pid, &mut status, 0) } < 0 && errno() == libc::EINTR {}
}

pub(super) fn exit(code: c_int) -> ! {
    // SAFETY: _exit skips atexit handlers and stdio flushing, which belong to the host.
    unsafe { libc::_exit(code) }
}

fn die_by_signal(signal: c_int) -> ! {
    // SAFETY: integer/stack arguments only; core dumps are disabled first because a core of the
    // supervisor would be a dump of the whole host image.
    unsafe {
        let no_core = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        libc::setrlimit(libc::RLIMIT_CORE, &no_core);
        set_default_disposition(signal);
        libc::kill(libc::getpid(), signal);
        let mut only: sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut only);
        libc::sigaddset(&mut only, signal);
        libc::sigprocmask(libc::SIG_UNBLOCK, &only, ptr::null_mut());
    }
    // Only reached for signals whose default action does not terminate.
    exit(128_i32.saturating_add(signal))
}
