//! The thread that drains a PTY master into the scrollback and the screen until the terminal
//! hangs up or the session is closed.

use super::screen::Screen;
use super::scrollback::Scrollback;
use nix::errno::Errno;
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use std::os::fd::{AsFd, OwnedFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// The scrollback, the screen, and a condition signalled on every change (new bytes, end of
/// stream). The screen is fed first, so whoever sees bytes in the scrollback finds them drawn.
pub(super) struct Output {
    pub scrollback: Mutex<Scrollback>,
    pub screen: Mutex<Screen>,
    pub changed: Condvar,
    /// Set while bytes taken from the master are on their way to the scrollback: with the
    /// master's own pending output, what a program wrote that a reader cannot see yet.
    pub draining: AtomicBool,
}

/// Runs on its own thread. `stop` becomes readable (its write end is closed) when the session
/// closes: a blocked read on the master would not be woken by closing the master elsewhere.
pub(super) fn run(master: Arc<OwnedFd>, stop: OwnedFd, output: Arc<Output>) {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let mut fds = [
            PollFd::new(master.as_fd(), PollFlags::POLLIN),
            PollFd::new(stop.as_fd(), PollFlags::POLLIN),
        ];
        match poll(&mut fds, PollTimeout::NONE) {
            Ok(_) | Err(Errno::EINTR) => {}
            Err(_) => break,
        }
        if fds[1].any().unwrap_or(true) {
            break;
        }
        // Set before the read takes the bytes, so one who finds the master empty then sees it.
        output.draining.store(true, Ordering::SeqCst);
        let read = nix::unistd::read(master.as_fd(), &mut buf);
        match read {
            Ok(0) => break,
            Ok(n) => {
                let answers = output.screen.lock().expect("screen lock").feed(&buf[..n]);
                // Best effort: a program that stopped reading its terminal misses its answer.
                if !answers.is_empty() {
                    let _ = nix::unistd::write(master.as_fd(), &answers);
                }
                output.scrollback.lock().expect("scrollback lock").push(&buf[..n]);
                output.draining.store(false, Ordering::SeqCst);
                output.changed.notify_all();
            }
            Err(Errno::EAGAIN | Errno::EINTR) => output.draining.store(false, Ordering::SeqCst),
            // EIO: every slave descriptor is closed (the shell and its children are gone).
            Err(_) => break,
        }
    }
    output.scrollback.lock().expect("scrollback lock").end_stream();
    output.changed.notify_all();
}
