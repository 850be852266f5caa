//! What a spawned program inherits from the host: signal dispositions at their defaults, and
//! no descriptor past stdio.
//!
//! An ignored signal stays ignored across fork and exec, and bash cannot undo an ignore it
//! inherits. A host started under `nohup` (SIGHUP ignored) or as a background job of a script
//! (SIGINT and SIGQUIT ignored) would hand that to every program it starts: a closed terminal's
//! hangup and a ^C would not reach them. Descriptors the host holds without close-on-exec
//! (wasmtime's pagemap, whatever its own parent left open) would reach them too. Everything here
//! is async-signal-safe, so it may run between fork and exec.

use std::ptr;

use libc::{c_int, c_uint};

/// Highest signal number whose disposition is reset.
const LAST_SIGNAL: c_int = 64;

/// Resets every signal's handler to `SIG_DFL` (SIGKILL and SIGSTOP cannot be changed).
pub(crate) fn reset_dispositions() {
    for signal in 1..=LAST_SIGNAL {
        if signal != libc::SIGKILL && signal != libc::SIGSTOP {
            set_default_disposition(signal);
        }
    }
}

/// Sets `signal`'s handler to `SIG_DFL` with the kernel's own call: the C library refuses the
/// two signals it reserves for itself (32 and 33), which a parent may still have left ignored.
pub(crate) fn set_default_disposition(signal: c_int) {
    // The kernel's `struct sigaction` (handler, flags, restorer, mask): all zero is SIG_DFL
    // with no flags and an empty mask, whatever the architecture's layout.
    let action = [0u64; 4];
    // SAFETY: the kernel reads at most 32 bytes from `action` and writes nothing (no old action).
    unsafe {
        libc::syscall(
            libc::SYS_rt_sigaction,
            signal,
            action.as_ptr(),
            ptr::null_mut::<u64>(),
            std::mem::size_of::<u64>(),
        );
    }
}

/// Soft `RLIMIT_NOFILE`: the bound for going through fds one by one where `close_range` is
/// missing (kernels before 5.9, or 5.11 for its close-on-exec flag).
pub(crate) fn open_file_limit() -> c_uint {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `limit` is a valid out-pointer.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return 1024;
    }
    c_uint::try_from(limit.rlim_cur).unwrap_or(c_uint::MAX)
}

/// Marks every descriptor from `first` up close-on-exec. Unlike closing them, this keeps a
/// descriptor the spawner itself still needs until the exec (std's exec-error pipe) working.
pub(crate) fn close_on_exec_from(first: c_uint) {
    // SAFETY: close_range with integer arguments only changes descriptor flags.
    let marked = unsafe { libc::syscall(libc::SYS_close_range, first, c_uint::MAX, libc::CLOSE_RANGE_CLOEXEC) } == 0;
    if marked {
        return;
    }
    let first = c_int::try_from(first).unwrap_or(c_int::MAX);
    let last = c_int::try_from(open_file_limit()).unwrap_or(c_int::MAX);
    for fd in first..last {
        // SAFETY: setting a flag on a descriptor number; one that is not open fails harmlessly.
        unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
    }
}
