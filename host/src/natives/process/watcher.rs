//! Watching a process end: draining its collected streams, reaping its supervisor, publishing
//! the outcome once both are done.
//!
//! Each process has a watcher on a worker thread, so output is drained and the supervisor reaped
//! even when nobody waits. A thread waiting for the outcome watches the report pipe itself once
//! the streams are drained: the supervisor reports the end of the tree right before it exits,
//! so the outcome waits neither for that exit (which tears down an address space) nor for the
//! watcher to be scheduled and hand it over. A supervisor that ends without its report (it was
//! killed) is waited for through a pidfd, and reaped by whoever sees its exit first.
//!
//! The supervisor is a child of the host (the zygote creates it as its sibling). Only that pid
//! is waited for (never `waitpid(-1)`), so children the host spawns elsewhere keep their exit
//! statuses.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, FromRawFd, OwnedFd};
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::fcntl::{FcntlArg, OFlag, fcntl};
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::signal::{Signal, kill};
use nix::sys::wait::{Id, WaitPidFlag, waitid};
use nix::unistd::Pid;

use super::collect::{Drain, drain_all};
use super::launch::read_report;
use super::outcome::Outcome;
use super::private_tmp::PrivateTmp;
use super::wire::Report;
use super::workers;

/// Shared between a [`Process`](super::Process) and its watcher.
pub(super) struct ExitLink {
    state: Mutex<ExitState>,
    changed: Condvar,
}

#[derive(Default)]
struct ExitState {
    supervisor: Option<Pid>,
    /// Readable once the supervisor has exited. Unlike the pid, it can never name another
    /// process, so it is safe to wait on without the lock (a waiter holds its own reference).
    /// Missing if pidfds are unavailable; waiters then rely on the watcher alone.
    supervisor_exit: Option<Arc<OwnedFd>>,
    /// The report pipe (non-blocking), where the supervisor reports the end of the tree.
    finish: Option<Arc<File>>,
    /// Set under the lock in the same step as the reap, so a signal (or a second reap) can
    /// never reach a recycled pid.
    reaped: bool,
    /// Every collected stream hit end-of-file.
    drained: bool,
    /// Published once the streams are drained and the supervisor reported the end of the tree
    /// or was reaped.
    outcome: Option<Outcome>,
    /// The program's own TMPDIR, removed when the outcome is published: nothing of the tree
    /// runs then.
    private_tmp: Option<PrivateTmp>,
}

impl ExitLink {
    pub(super) fn new(private_tmp: Option<PrivateTmp>) -> Arc<Self> {
        Arc::new(Self {
            state: Mutex::new(ExitState {
                private_tmp,
                ..ExitState::default()
            }),
            changed: Condvar::new(),
        })
    }

    pub(super) fn outcome(&self) -> Option<Outcome> {
        self.lock().outcome
    }

    /// Waits for the outcome; `None` timeout waits forever.
    pub(super) fn wait(&self, timeout: Option<Duration>) -> Option<Outcome> {
        // A timeout too large to represent is as good as forever.
        let deadline = timeout.and_then(|timeout| Instant::now().checked_add(timeout));
        let mut state = self.lock();
        let (mut watch_finish, mut watch_exit) = (true, true);
        loop {
            if let Some(outcome) = state.outcome {
                return Some(outcome);
            }
            let remaining = deadline.map(|deadline| deadline.saturating_duration_since(Instant::now()));
            if remaining.is_some_and(|remaining| remaining.is_zero()) {
                return None;
            }
            if let (true, true, Some(finish)) = (watch_finish, state.drained, state.finish.clone()) {
                drop(state);
                let ready = wait_readable(finish.as_fd(), remaining);
                state = self.lock();
                match ready.map(|ready| ready.then(|| read_report(&mut &*finish))) {
                    Ok(Some(Ok(Some(Report::Finished { status, left_running })))) => {
                        let left_running = u32::try_from(left_running).unwrap_or(0);
                        self.publish(
                            &mut state,
                            Outcome::from_status(ExitStatus::from_raw(status), left_running),
                        );
                    }
                    // Another waiter took the report and published it.
                    Ok(Some(Err(err))) if err.kind() == io::ErrorKind::WouldBlock => {}
                    Ok(None) => {}
                    // It ended without its report: its exit says how.
                    _ => watch_finish = false,
                }
                continue;
            }
            if let (true, true, Some(supervisor), Some(exit)) = (
                watch_exit,
                state.drained,
                state.supervisor,
                state.supervisor_exit.clone(),
            ) {
                drop(state);
                let exited = wait_readable(exit.as_fd(), remaining);
                state = self.lock();
                match exited {
                    Ok(true) => self.reap_and_publish(&mut state, supervisor),
                    Ok(false) => {}
                    // Leave it to the watcher.
                    Err(_) => watch_exit = false,
                }
                continue;
            }
            // Woken when the streams are drained or the outcome is published.
            state = match remaining {
                None => self.changed.wait(state).unwrap_or_else(PoisonError::into_inner),
                Some(remaining) => {
                    self.changed
                        .wait_timeout(state, remaining)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0
                }
            };
        }
    }

    /// Signals the supervisor unless it has already been reaped.
    pub(super) fn signal_supervisor(&self, signal: Signal) {
        let state = self.lock();
        if let (Some(pid), false) = (state.supervisor, state.reaped) {
            // Failure means it is exiting on its own: nothing left to signal.
            let _ = kill(pid, signal);
        }
    }

    fn lock(&self) -> MutexGuard<'_, ExitState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn set_drained(&self) {
        self.lock().drained = true;
        self.changed.notify_all();
    }

    /// Reaps the exited supervisor and publishes the outcome, unless another thread did.
    fn reap_and_publish(&self, state: &mut ExitState, supervisor: Pid) {
        if state.reaped {
            return;
        }
        state.reaped = true;
        // The exit status is the program's either way; only the report tells what it left
        // running. It is in the pipe unless a waiter took it or the supervisor was killed.
        let left_running = match state.finish.as_deref().map(|mut finish| read_report(&mut finish)) {
            Some(Ok(Some(Report::Finished { left_running, .. }))) => u32::try_from(left_running).unwrap_or(0),
            _ => 0,
        };
        let reaped = match reap(supervisor) {
            Ok(status) => Outcome::from_status(status, left_running),
            Err(err) => {
                tracing::warn!(error = %err, "failed to reap a process supervisor");
                Outcome::unknown()
            }
        };
        // Nothing is left to wait for: an ended process that is kept (a job whose output is
        // read later) holds no descriptor. A waiter polling one still holds its own reference.
        state.supervisor_exit = None;
        state.finish = None;
        self.publish(state, reaped);
    }

    /// Publishes `outcome` unless one was: the report and the reap say the same.
    fn publish(&self, state: &mut ExitState, outcome: Outcome) {
        state.outcome.get_or_insert(outcome);
        state.private_tmp = None;
        self.changed.notify_all();
    }
}

/// The way to hand the launched supervisor to its already running watcher.
pub(super) struct WatcherHandoff {
    link: Arc<ExitLink>,
    supervisor_tx: SyncSender<Pid>,
}

impl WatcherHandoff {
    /// `finish` is the report pipe the supervisor reports the end of the tree on.
    pub(super) fn deliver(self, supervisor: Pid, finish: File) {
        {
            let mut state = self.link.lock();
            // The supervisor is our unreaped child, so the pid still names it.
            state.supervisor_exit = pidfd_open(supervisor).map(Arc::new);
            // Waiters read it under the lock, after polling without it: reads must not block.
            state.finish = fcntl(&finish, FcntlArg::F_SETFL(OFlag::O_NONBLOCK))
                .is_ok()
                .then(|| Arc::new(finish));
            state.supervisor = Some(supervisor);
        }
        if let Err(mpsc::SendError(supervisor)) = self.supervisor_tx.send(supervisor) {
            // Unreachable in practice (the watcher waits on this channel); never leak a zombie.
            tracing::warn!("process watcher is gone; reaping inline");
            self.link.set_drained();
            let mut state = self.link.lock();
            self.link.reap_and_publish(&mut state, supervisor);
        }
    }
}

/// Starts the watcher before anything is launched, so a failure to start it leaves nothing
/// running. `drains` are the collected streams to read to their end before publishing.
pub(super) fn start_watcher(link: Arc<ExitLink>, drains: Vec<Drain>) -> io::Result<WatcherHandoff> {
    let (supervisor_tx, supervisor_rx) = mpsc::sync_channel(1);
    let watched = Arc::clone(&link);
    workers::run(move || watch(&watched, &supervisor_rx, drains))?;
    Ok(WatcherHandoff { link, supervisor_tx })
}

fn watch(link: &ExitLink, supervisor_rx: &Receiver<Pid>, drains: Vec<Drain>) {
    // Output is read while the program runs; after a failed launch the pipes close at once.
    drain_all(drains);
    link.set_drained();
    // A closed channel means the launch failed.
    let Ok(supervisor) = supervisor_rx.recv() else {
        return;
    };
    let exit = link.lock().supervisor_exit.clone();
    let exited = exit.is_some_and(|exit| wait_readable(exit.as_fd(), None).unwrap_or(false));
    if !exited && !link.lock().reaped {
        // No pidfd: wait on the pid, which only this thread reaps then (waiters leave it to us).
        let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOWAIT;
        while let Err(Errno::EINTR) = waitid(Id::Pid(supervisor), flags) {}
    }
    let mut state = link.lock();
    link.reap_and_publish(&mut state, supervisor);
}

/// Reaps the exited supervisor; callers hold the lock and checked that it is not reaped yet.
fn reap(supervisor: Pid) -> io::Result<ExitStatus> {
    let mut status: libc::c_int = 0;
    loop {
        // SAFETY: `status` is a valid out-pointer.
        if unsafe { libc::waitpid(supervisor.as_raw(), &mut status, 0) } >= 0 {
            return Ok(ExitStatus::from_raw(status));
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

/// A pidfd for `pid`; `None` where the kernel has none.
fn pidfd_open(pid: Pid) -> Option<OwnedFd> {
    // SAFETY: pidfd_open with integer arguments; the result is a new fd we own.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid.as_raw(), 0) };
    let fd = i32::try_from(fd).ok().filter(|fd| *fd >= 0)?;
    // SAFETY: the kernel just created this fd and nothing else owns it.
    Some(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Waits at most `timeout` (forever if `None`) for `fd` to become readable; true if it did.
fn wait_readable(fd: BorrowedFd<'_>, timeout: Option<Duration>) -> Result<bool, Errno> {
    let deadline = timeout.and_then(|timeout| Instant::now().checked_add(timeout));
    loop {
        let remaining = deadline.map(|deadline| deadline.saturating_duration_since(Instant::now()));
        let poll_timeout = match remaining {
            None => PollTimeout::NONE,
            // Rounded up, so a short timeout still waits rather than returning at once.
            Some(remaining) => {
                PollTimeout::try_from(remaining.as_nanos().div_ceil(1_000_000)).unwrap_or(PollTimeout::MAX)
            }
        };
        let mut fds = [PollFd::new(fd, PollFlags::POLLIN)];
        match poll(&mut fds, poll_timeout) {
            Ok(ready) => return Ok(ready > 0),
            Err(Errno::EINTR) => {}
            Err(errno) => {
                tracing::warn!(error = %errno, "waiting for a process supervisor failed");
                return Err(errno);
            }
        }
    }
}
