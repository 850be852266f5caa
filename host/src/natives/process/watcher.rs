//! The watcher thread of each process: it drains the collected streams, reaps the supervisor and
//! publishes the outcome once both are done.
//!
//! The supervisor is a child of the host (the zygote creates it as its sibling). The watcher
//! waits for that pid only (never `waitpid(-1)`), so children the host spawns elsewhere keep
//! their exit statuses.

use std::io;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::sys::signal::{Signal, kill};
use nix::sys::wait::{Id, WaitPidFlag, waitid};
use nix::unistd::Pid;

use super::collect::{Drain, drain_all};
use super::outcome::Outcome;

/// Shared between a [`Process`](super::Process) and its watcher thread.
pub(super) struct ExitLink {
    state: Mutex<ExitState>,
    changed: Condvar,
}

#[derive(Default)]
struct ExitState {
    supervisor: Option<Pid>,
    /// Set under the lock in the same step as the reap, so a signal can never reach a
    /// recycled pid.
    reaped: bool,
    /// Published once the supervisor is reaped and every collected stream hit end-of-file.
    outcome: Option<Outcome>,
}

impl ExitLink {
    pub(super) fn new() -> Arc<Self> {
        Arc::new(Self {
            state: Mutex::new(ExitState::default()),
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
        loop {
            if let Some(outcome) = state.outcome {
                return Some(outcome);
            }
            state = match deadline {
                None => self.changed.wait(state).unwrap_or_else(PoisonError::into_inner),
                Some(deadline) => {
                    let remaining = deadline.saturating_duration_since(Instant::now());
                    if remaining.is_zero() {
                        return None;
                    }
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

    fn publish(&self, outcome: Outcome) {
        self.lock().outcome = Some(outcome);
        self.changed.notify_all();
    }
}

/// The way to hand the launched supervisor to its already running watcher thread.
pub(super) struct WatcherHandoff {
    link: Arc<ExitLink>,
    supervisor_tx: SyncSender<Pid>,
}

impl WatcherHandoff {
    pub(super) fn deliver(self, supervisor: Pid) {
        self.link.lock().supervisor = Some(supervisor);
        if let Err(mpsc::SendError(supervisor)) = self.supervisor_tx.send(supervisor) {
            // Unreachable in practice (the watcher waits on this channel); never leak a zombie.
            tracing::warn!("process watcher thread is gone; reaping inline");
            let status = reap_exited(&self.link, supervisor);
            self.link
                .publish(status.map_or_else(|_| Outcome::unknown(), Outcome::from_status));
        }
    }
}

/// Starts the watcher before anything is launched, so a failure to start it leaves nothing
/// running. `drains` are the collected streams to read to their end before publishing.
pub(super) fn start_watcher(link: Arc<ExitLink>, drains: Vec<Drain>) -> io::Result<WatcherHandoff> {
    let (supervisor_tx, supervisor_rx) = mpsc::sync_channel(1);
    let thread_link = Arc::clone(&link);
    thread::Builder::new()
        .name("proc-watch".to_owned())
        .spawn(move || watch(&thread_link, supervisor_rx, drains))?;
    Ok(WatcherHandoff { link, supervisor_tx })
}

fn watch(link: &ExitLink, supervisor_rx: Receiver<Pid>, drains: Vec<Drain>) {
    // Output is read while the program runs; after a failed launch the pipes close at once.
    drain_all(drains);
    // A closed channel means the launch failed.
    let Ok(supervisor) = supervisor_rx.recv() else {
        return;
    };
    wait_until_exited(supervisor);
    let outcome = match reap_exited(link, supervisor) {
        Ok(status) => Outcome::from_status(status),
        Err(err) => {
            tracing::warn!(error = %err, "failed to reap a process supervisor");
            Outcome::unknown()
        }
    };
    link.publish(outcome);
}

/// Blocks until the supervisor has exited, leaving it unreaped (see `ExitState::reaped`).
fn wait_until_exited(supervisor: Pid) {
    let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOWAIT;
    while let Err(Errno::EINTR) = waitid(Id::Pid(supervisor), flags) {}
}

/// Reaps the supervisor under the lock, in the same step as recording that it is gone.
fn reap_exited(link: &ExitLink, supervisor: Pid) -> io::Result<ExitStatus> {
    let mut state = link.lock();
    let mut status: libc::c_int = 0;
    let reaped = loop {
        // SAFETY: `status` is a valid out-pointer.
        if unsafe { libc::waitpid(supervisor.as_raw(), &mut status, 0) } >= 0 {
            break Ok(ExitStatus::from_raw(status));
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            break Err(err);
        }
    };
    state.reaped = true;
    reaped
}
