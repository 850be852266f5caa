//! The signal dispositions a spawned program starts with: all at their defaults.
//!
//! An ignored signal stays ignored across fork and exec, and bash cannot undo an ignore it
//! inherits. A host started under `nohup` (SIGHUP ignored) or as a background job of a script
//! (SIGINT and SIGQUIT ignored) would hand that to every program it starts: a closed terminal's
//! hangup and a ^C would not reach them. Everything here is async-signal-safe, so it may run
//! between fork and exec.

use std::ptr;

use libc::c_int;

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
