//! The host's side of the zygote: starting it, sending it requests, replacing it if it dies.

mod anchor;

use std::io;
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use nix::errno::Errno;
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::signal::{Signal, kill};
use nix::sys::wait::waitpid;
use nix::unistd::Pid;

use super::supervisor::zygote;
use super::wire::{HEADER_LEN, MAX_FDS, REPORT_LEN, Report, STOP};
use super::workers;
use anchor::{anchor_result, submit_to_anchor_thread};

/// A table's zygote, started with the table and restarted on the first spawn after it died.
pub(super) struct Spawner {
    current: Mutex<Current>,
}

enum Current {
    /// Being forked on the anchor thread; the first spawn waits for it.
    Starting(Receiver<io::Result<Zygote>>),
    Running(Arc<Zygote>),
    /// Never started, failed to start, or retired after it died.
    Stopped,
}

impl Spawner {
    /// Starts forking the zygote now, while the host is likely still small (the one fork of
    /// the host costs in proportion to its size), without waiting for it: the caller goes on
    /// with its own start-up meanwhile. A failure is retried by the next spawn.
    pub(super) fn new() -> Self {
        let current = match Zygote::start_in_background() {
            Ok(starting) => Current::Starting(starting),
            Err(err) => {
                warn_start_failed(&err);
                Current::Stopped
            }
        };
        Self {
            current: Mutex::new(current),
        }
    }

    /// The running zygote, starting one if there is none.
    pub(super) fn zygote(&self) -> io::Result<Arc<Zygote>> {
        let mut current = self.lock();
        if let Current::Starting(starting) = &*current {
            match anchor_result(starting).and_then(|started| started) {
                Ok(zygote) => *current = Current::Running(Arc::new(zygote)),
                Err(err) => {
                    warn_start_failed(&err);
                    *current = Current::Stopped;
                }
            }
        }
        if let Current::Running(zygote) = &*current {
            return Ok(Arc::clone(zygote));
        }
        let zygote = Arc::new(anchor_result(&Zygote::start_in_background()?)??);
        *current = Current::Running(Arc::clone(&zygote));
        Ok(zygote)
    }

    /// Forgets `zygote` after it was found dead, so the next spawn starts a fresh one. It is
    /// killed and reaped once the last request using it lets go.
    pub(super) fn retire(&self, zygote: &Arc<Zygote>) {
        let retired = {
            let mut current = self.lock();
            match &*current {
                Current::Running(running) if Arc::ptr_eq(running, zygote) => {
                    std::mem::replace(&mut *current, Current::Stopped)
                }
                _ => Current::Stopped,
            }
        };
        // Dropped outside the lock: the last handle reaps the zygote.
        drop(retired);
    }

    /// The zygote's pid, once it runs.
    #[cfg(test)]
    pub(super) fn pid(&self) -> Option<u32> {
        self.zygote().ok().map(|zygote| zygote.pid.as_raw().unsigned_abs())
    }

    fn lock(&self) -> MutexGuard<'_, Current> {
        self.current.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

fn warn_start_failed(err: &io::Error) {
    tracing::warn!(error = %err, "starting the process zygote failed; retrying at the next spawn");
}

/// A running zygote: a child of the host, reaped when the handle is dropped.
pub(super) struct Zygote {
    pid: Pid,
    control: OwnedFd,
}

/// Why a request could not be handed over.
pub(super) enum SendError {
    /// The zygote is gone; nothing was started.
    Gone,
    Io(io::Error),
}

impl Zygote {
    /// Forks the zygote on the anchor thread; the result arrives on the returned channel.
    fn start_in_background() -> io::Result<Receiver<io::Result<Self>>> {
        let host_pid = nix::unistd::getpid().as_raw();
        submit_to_anchor_thread(move || {
            let (host_end, zygote_end) = seqpacket_pair()?;
            let zygote_fd = zygote_end.as_raw_fd();
            // SAFETY: the child runs only the zygote's async-signal-safe code and never returns.
            let pid = match unsafe { libc::fork() } {
                // SAFETY: we are the child just forked by the anchor thread.
                0 => unsafe { zygote::serve(zygote_fd, host_pid) },
                -1 => return Err(io::Error::last_os_error()),
                pid => Pid::from_raw(pid),
            };
            // Only the zygote holds its end from now on, so it sees end-of-file when we close ours.
            drop(zygote_end);
            Ok(Self { pid, control: host_end })
        })
    }

    /// Kills a zygote that does not serve (stopped, or wedged). A request still queued on its
    /// socket goes with it: the socket's last holder is gone, so the fds sent with the request
    /// are closed, and its report pipe reads end-of-file. A standby that took a request already
    /// does not depend on the zygote and reports as usual. Reaped when dropped, as always.
    pub(super) fn kill(&self) {
        let _ = kill(self.pid, Signal::SIGKILL);
    }

    /// Sends one request datagram: `header`, the inline `blob` (empty if none) and `fds` (see
    /// [`wire`](super::wire)).
    pub(super) fn send(&self, header: &[u8; HEADER_LEN], blob: &[u8], fds: &[RawFd]) -> Result<(), SendError> {
        send_request(self.control.as_raw_fd(), header, blob, fds)
    }
}

impl Drop for Zygote {
    /// The zygote holds nothing but its socket and `/dev/null`; killing it cannot harm a
    /// process it started (those are the host's children). The pid is still unreaped, so the
    /// signal cannot reach a recycled pid. Once it is gone no new standby can appear, and the
    /// one waiting (if any) is asked for its pid, so it is reaped too. This takes a while, so
    /// it happens on a worker thread: dropping a table (e.g. when a short-lived host exits)
    /// does not wait for it.
    fn drop(&mut self) {
        let pid = self.pid;
        let _ = kill(pid, Signal::SIGKILL);
        let control = self.control.try_clone();
        let reap = move || {
            while let Err(Errno::EINTR) = waitpid(pid, None) {}
            if let Ok(control) = control {
                stop_standby(&control);
            }
        };
        if workers::run(reap).is_err() {
            // The standby then ends at end-of-file on the socket, unreaped until the host exits.
            while let Err(Errno::EINTR) = waitpid(pid, None) {}
        }
    }
}

/// How long a table's end waits for its standby to answer `STOP`.
const STOP_TIMEOUT_MS: u16 = 5_000;

/// Asks the standby waiting on `control` (if one is) for its pid, and reaps it once it exits.
fn stop_standby(control: &OwnedFd) {
    let Ok((report_read, report_write)) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC) else {
        return;
    };
    if send_request(control.as_raw_fd(), &STOP, &[], &[report_write.as_raw_fd()]).is_err() {
        // Nobody holds the other end: there is no standby.
        return;
    }
    drop(report_write);
    let mut ready = [PollFd::new(report_read.as_fd(), PollFlags::POLLIN)];
    if !matches!(poll(&mut ready, PollTimeout::from(STOP_TIMEOUT_MS)), Ok(1)) {
        tracing::warn!("the process zygote's standby did not answer; it is left unreaped");
        return;
    }
    let mut raw = [0u8; REPORT_LEN];
    if nix::unistd::read(&report_read, &mut raw) != Ok(REPORT_LEN) {
        return;
    }
    if let Some(Report::Failed { supervisor, .. }) = Report::decode(&raw)
        && supervisor > 0
    {
        // It reported its own pid while alive and unreaped: the pid still names it.
        while let Err(Errno::EINTR) = waitpid(Pid::from_raw(supervisor), None) {}
    }
}

/// Sends one request datagram on the control socket `control`.
fn send_request(control: RawFd, header: &[u8; HEADER_LEN], blob: &[u8], fds: &[RawFd]) -> Result<(), SendError> {
    let fd_bytes = size_of_val(fds);
    let mut control_buffer = [0u64; 8];
    // SAFETY: CMSG_SPACE is a pure size computation.
    let control_len = unsafe { libc::CMSG_SPACE(u32::try_from(fd_bytes).unwrap_or(u32::MAX)) } as usize;
    if fds.len() > MAX_FDS || control_len > size_of_val(&control_buffer) {
        return Err(SendError::Io(io::Error::other("too many fds for one spawn request")));
    }
    let mut iov = [header.as_slice(), blob].map(|part| libc::iovec {
        iov_base: part.as_ptr().cast_mut().cast(),
        iov_len: part.len(),
    });
    // SAFETY: a zeroed msghdr is valid; every pointer set below outlives the sendmsg call,
    // and the control message is written within `control_buffer` (size checked above).
    let sent = unsafe {
        let mut message: libc::msghdr = std::mem::zeroed();
        message.msg_iov = iov.as_mut_ptr();
        message.msg_iovlen = iov.len();
        message.msg_control = control_buffer.as_mut_ptr().cast();
        message.msg_controllen = control_len;
        let cmsg = libc::CMSG_FIRSTHDR(&message);
        (*cmsg).cmsg_level = libc::SOL_SOCKET;
        (*cmsg).cmsg_type = libc::SCM_RIGHTS;
        (*cmsg).cmsg_len = libc::CMSG_LEN(fd_bytes as u32) as usize;
        std::ptr::copy_nonoverlapping(fds.as_ptr(), libc::CMSG_DATA(cmsg).cast::<RawFd>(), fds.len());
        loop {
            let sent = libc::sendmsg(control, &message, libc::MSG_NOSIGNAL);
            if sent >= 0 || Errno::last() != Errno::EINTR {
                break sent;
            }
        }
    };
    if sent >= 0 {
        return Ok(());
    }
    match Errno::last() {
        Errno::EPIPE | Errno::ECONNRESET | Errno::ENOTCONN | Errno::ECONNREFUSED => Err(SendError::Gone),
        errno => Err(SendError::Io(errno.into())),
    }
}

fn seqpacket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [-1; 2];
    // SAFETY: `fds` is a valid out-array of two ints.
    let created = unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    };
    if created != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: socketpair just created both fds and nothing else owns them.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}
