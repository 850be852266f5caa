//! Reaping the supervisor and publishing the outcome once all collected output is in.
//!
//! Each process has one reaper thread that waits for its supervisor only (never `waitpid(-1)`),
//! so children the host spawns elsewhere keep their exit statuses.

use std::io;
use std::process::Child;
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::sys::signal::{Signal, kill};
use nix::sys::wait::{Id, WaitPidFlag, waitid};
use nix::unistd::Pid;

use super::outcome::Outcome;

/// Shared between a [`Process`](super::Process) and its reaper thread.
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

/// The way to hand the launched supervisor to its already running reaper thread.
pub(super) struct ReaperHandoff {
    link: Arc<ExitLink>,
    supervisor_tx: SyncSender<Child>,
}

impl ReaperHandoff {
    pub(super) fn deliver(self, supervisor: Child) {
        let pid = i32::try_from(supervisor.id()).ok().map(Pid::from_raw);
        self.link.lock().supervisor = pid;
        if let Err(mpsc::SendError(mut supervisor)) = self.supervisor_tx.send(supervisor) {
            // Unreachable in practice (the reaper blocks on this channel); never leak a zombie.
            tracing::warn!("process reaper thread is gone; reaping inline");
            let status = supervisor.wait();
            self.link.lock().reaped = true;
            self.link
                .publish(status.map_or_else(|_| Outcome::unknown(), Outcome::from_status));
        }
    }
}

/// Starts the reaper before anything is launched, so a failure to start it leaves nothing
/// running. `drains` are the collected-stream readers to join before publishing.
pub(super) fn start_reaper(link: Arc<ExitLink>, drains: Vec<JoinHandle<()>>) -> io::Result<ReaperHandoff> {
    let (supervisor_tx, supervisor_rx) = mpsc::sync_channel(1);
    let thread_link = Arc::clone(&link);
    thread::Builder::new()
        .name("proc-reaper".to_owned())
        .spawn(move || reap(&thread_link, supervisor_rx, drains))?;
    Ok(ReaperHandoff { link, supervisor_tx })
}

fn reap(link: &ExitLink, supervisor_rx: Receiver<Child>, drains: Vec<JoinHandle<()>>) {
    // A closed channel means the launch failed; the drains end on their own.
    let Ok(mut supervisor) = supervisor_rx.recv() else {
        return;
    };
    wait_until_exited(&supervisor);
    let status = {
        let mut state = link.lock();
        let status = supervisor.wait();
        state.reaped = true;
        status
    };
    let outcome = match status {
        Ok(status) => Outcome::from_status(status),
        Err(err) => {
            tracing::warn!(error = %err, "failed to reap a process supervisor");
            Outcome::unknown()
        }
    };
    for drain in drains {
        if drain.join().is_err() {
            tracing::warn!("a process output reader panicked");
        }
    }
    link.publish(outcome);
}

/// Blocks until the supervisor has exited, leaving it unreaped (see `ExitState::reaped`).
fn wait_until_exited(supervisor: &Child) {
    let Ok(raw) = i32::try_from(supervisor.id()) else {
        return;
    };
    let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOWAIT;
    while let Err(Errno::EINTR) = waitid(Id::Pid(Pid::from_raw(raw)), flags) {}
}
