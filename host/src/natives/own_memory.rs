//! seam's memory, kept from the programs it starts.
//!
//! A process of the same user may read another's memory through /proc/<pid>/mem (and its maps,
//! environ, fds) unless the kernel says otherwise: a command run unconfined could otherwise read
//! the credentials seam holds and withholds from it. A process that is not dumpable is open to
//! none of that without CAP_SYS_PTRACE, and leaves no core file. Forks (the zygote, the
//! supervisors) inherit the setting; an exec of an ordinary program resets it, so the commands
//! themselves stay inspectable as usual.

/// Best effort: a kernel without prctl leaves the process as it was.
pub fn keep_private() {
    // SAFETY: prctl with integer arguments only.
    unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0 as libc::c_ulong) };
}
