//! Opening a PTY pair with close-on-exec descriptors and sizing it.

use super::error::PtyError;
use nix::fcntl::{FcntlArg, OFlag, fcntl};
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::pty::{grantpt, posix_openpt, ptsname_r, unlockpt};
use std::os::fd::{AsFd, AsRawFd, FromRawFd, IntoRawFd, OwnedFd};

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

/// Whether the terminal echoes typed input itself. The modes asked of a PTY's master are its
/// slave's: what the shell or the program in front set.
pub(super) fn echoes(master: &OwnedFd) -> Result<bool, PtyError> {
    let modes = nix::sys::termios::tcgetattr(master).map_err(|e| PtyError::io("tcgetattr")(e.into()))?;
    Ok(modes.local_flags.contains(nix::sys::termios::LocalFlags::ECHO))
}

/// Whether output the terminal's programs wrote waits in the master to be read. A poll, not
/// FIONREAD: polling hands on what the line discipline has not passed to the master yet, which
/// FIONREAD does not count (a prompt just written could be missed).
pub(super) fn output_pending(master: &OwnedFd) -> bool {
    let mut fds = [PollFd::new(master.as_fd(), PollFlags::POLLIN)];
    poll(&mut fds, PollTimeout::ZERO).is_ok_and(|ready| ready > 0)
        && fds[0]
            .revents()
            .is_some_and(|events| events.contains(PollFlags::POLLIN))
}

/// Hands input written to the master on to the slave's line discipline now. The kernel moves it
/// there asynchronously, from a worker thread that a loaded host runs late; until then a program
/// asleep on the terminal looks like one waiting for input, while what was sent to it is on the
/// way. A poll of the slave end does the move at once (and wakes the reader): the end is opened
/// from the master for that, never as a controlling terminal, and closed again, so the terminal
/// still hangs up when its programs are gone.
pub(super) fn deliver_input(master: &OwnedFd) {
    let flags = libc::O_RDWR | libc::O_NOCTTY | libc::O_NONBLOCK | libc::O_CLOEXEC;
    // SAFETY: TIOCGPTPEER takes open flags by value and returns a new descriptor or -1.
    let fd = unsafe { libc::ioctl(master.as_raw_fd(), libc::TIOCGPTPEER, flags) };
    if fd < 0 {
        return;
    }
    // SAFETY: the ioctl returned a fresh descriptor that nothing else owns.
    let slave = unsafe { OwnedFd::from_raw_fd(fd) };
    let _ = poll(&mut [PollFd::new(slave.as_fd(), PollFlags::POLLIN)], PollTimeout::ZERO);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Complete lines the slave's reader could take now.
    fn readable(slave: &OwnedFd) -> i32 {
        let mut count: libc::c_int = 0;
        // SAFETY: TIOCINQ writes one int through a valid pointer.
        assert_eq!(unsafe { libc::ioctl(slave.as_raw_fd(), libc::TIOCINQ, &mut count) }, 0);
        count
    }

    #[test]
    fn input_written_to_the_master_is_handed_on_at_once() {
        let pair = open(24, 80).expect("a pty pair");
        let mut buffer = [0u8; 64];
        // Looked at right after the write, most of these would not have arrived yet on a busy
        // machine, and some on an idle one.
        for _ in 0..1_000 {
            assert_eq!(nix::unistd::write(&pair.master, b"key\n"), Ok(4));
            deliver_input(&pair.master);
            assert_eq!(readable(&pair.slave), 4);
            assert_eq!(nix::unistd::read(&pair.slave, &mut buffer), Ok(4));
        }
    }

    #[test]
    fn output_not_yet_drained_is_pending() {
        let pair = open(24, 80).expect("a pty pair");
        assert!(!output_pending(&pair.master));
        assert_eq!(nix::unistd::write(&pair.slave, b"hello\n"), Ok(6));
        // The line discipline hands written output on asynchronously.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while !output_pending(&pair.master) && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert!(output_pending(&pair.master));
        let mut buffer = [0u8; 64];
        assert!(nix::unistd::read(&pair.master, &mut buffer).is_ok_and(|n| n > 0));
        assert!(!output_pending(&pair.master));
    }
}
