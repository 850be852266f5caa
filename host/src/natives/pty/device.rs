//! Opening a PTY pair with close-on-exec descriptors and sizing it.

use super::error::PtyError;
use nix::fcntl::{FcntlArg, OFlag, fcntl};
use nix::pty::{grantpt, posix_openpt, ptsname_r, unlockpt};
use std::os::fd::{AsRawFd, FromRawFd, IntoRawFd, OwnedFd};

pub(super) struct Pair {
    pub master: OwnedFd,
    pub slave: OwnedFd,
    /// The terminal's device number, to recognise processes reading it.
    pub device: u64,
}

/// Both ends are O_CLOEXEC from the start, so a concurrent spawn elsewhere in the host never
/// inherits them (which would keep the terminal alive and leak a /dev/ptmx descriptor).
pub(super) fn open(rows: u16, cols: u16) -> Result<Pair, PtyError> {
    let master = posix_openpt(OFlag::O_RDWR | OFlag::O_NOCTTY | OFlag::O_CLOEXEC)
        .map_err(|e| PtyError::io("posix_openpt")(e.into()))?;
    grantpt(&master).map_err(|e| PtyError::io("grantpt")(e.into()))?;
    unlockpt(&master).map_err(|e| PtyError::io("unlockpt")(e.into()))?;
    let slave_path = ptsname_r(&master).map_err(|e| PtyError::io("ptsname")(e.into()))?;
    let slave = nix::fcntl::open(
        slave_path.as_str(),
        OFlag::O_RDWR | OFlag::O_NOCTTY | OFlag::O_CLOEXEC,
        nix::sys::stat::Mode::empty(),
    )
    .map_err(|e| PtyError::io("open pty slave")(e.into()))?;
    let device = nix::sys::stat::fstat(&slave)
        .map_err(|e| PtyError::io("fstat pty slave")(e.into()))?
        .st_rdev;
    // The drain thread polls; writes poll for room, so a stalled reader never blocks the host.
    // Only the master is non-blocking: the slave's flags are what the shell sees.
    let flags = fcntl(&master, FcntlArg::F_GETFL).map_err(|e| PtyError::io("fcntl")(e.into()))?;
    fcntl(
        &master,
        FcntlArg::F_SETFL(OFlag::from_bits_truncate(flags) | OFlag::O_NONBLOCK),
    )
    .map_err(|e| PtyError::io("fcntl")(e.into()))?;
    // SAFETY: posix_openpt returned a fresh descriptor that nothing else owns.
    let master = unsafe { OwnedFd::from_raw_fd(master.into_raw_fd()) };
    resize(&master, rows, cols)?;
    Ok(Pair { master, slave, device })
}

pub(super) fn resize(master: &OwnedFd, rows: u16, cols: u16) -> Result<(), PtyError> {
    let size = libc::winsize {
        ws_row: rows,
        ws_col: cols,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: TIOCSWINSZ reads one winsize from a valid pointer on a descriptor we own.
    let rc = unsafe { libc::ioctl(master.as_raw_fd(), libc::TIOCSWINSZ, &size) };
    if rc != 0 {
        return Err(PtyError::io("TIOCSWINSZ")(std::io::Error::last_os_error()));
    }
    Ok(())
}
