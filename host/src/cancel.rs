//! Cancelling one call from outside its lane: the caller (an MCP client, say) cancels, and the
//! processes the call spawned are terminated so that a lane blocked waiting for them returns.
//!
//! Host natives register what they spawn for a call here. A flag alone is not enough: a lane
//! blocked in `wait` on a long command never looks at it.

use crate::natives::process::Process;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};

/// Shared by a call's context and whoever may cancel it. Cloning shares the token.
#[derive(Clone, Default)]
pub struct CancelToken(Arc<Inner>);

#[derive(Default)]
struct Inner {
    cancelled: AtomicBool,
    /// Processes spawned for the call, by table id. Weak: the registry must not keep a process
    /// alive after the call's own handles are gone.
    processes: Mutex<Vec<(u64, Weak<Process>)>>,
}

impl CancelToken {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.load(Ordering::Relaxed)
    }

    /// Mark the call cancelled and terminate every process registered for it. Returns at once:
    /// each tree is terminated on a thread of its own, since termination waits out the grace.
    pub fn cancel(&self) {
        let processes = {
            let mut registered = self.lock();
            self.0.cancelled.store(true, Ordering::Relaxed);
            std::mem::take(&mut *registered)
        };
        for (_, process) in processes {
            if let Some(process) = process.upgrade() {
                terminate_in_background(process);
            }
        }
    }

    /// Record a process spawned for this call. One spawned after the call was cancelled is
    /// terminated right away (the cancellation raced with the spawn).
    pub fn register(&self, process: &Arc<Process>) {
        let mut registered = self.lock();
        if self.0.cancelled.load(Ordering::Relaxed) {
            drop(registered);
            terminate_in_background(process.clone());
            return;
        }
        // Entries of processes already gone are dropped here so a long call stays bounded.
        registered.retain(|(_, p)| p.strong_count() > 0);
        registered.push((process.id(), Arc::downgrade(process)));
    }

    /// Stop tracking a process: it was detached to outlive the call (a background job).
    pub fn release(&self, id: u64) {
        self.lock().retain(|(registered, _)| *registered != id);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(u64, Weak<Process>)>> {
        self.0.processes.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl std::fmt::Debug for CancelToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CancelToken")
            .field("cancelled", &self.is_cancelled())
            .finish_non_exhaustive()
    }
}

fn terminate_in_background(process: Arc<Process>) {
    let moved = process.clone();
    let spawned = std::thread::Builder::new().name("seam-cancel".into()).spawn(move || {
        moved.terminate();
    });
    if let Err(e) = spawned {
        // No thread to spare: terminating here blocks the canceller for the grace, which beats
        // leaving the tree running.
        tracing::warn!("cannot start a thread to terminate a cancelled call's process: {e}");
        process.terminate();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::natives::process::{ProcessTable, SpawnSpec, ignores};
    use std::time::Duration;

    fn sleeper(table: &ProcessTable) -> Arc<Process> {
        let mut spec = SpawnSpec::new(vec!["/bin/sleep".into(), "300".into()], "/".into());
        spec.grace = Duration::from_millis(200);
        table.spawn(spec).expect("sleep starts")
    }

    /// A sleep that ignores SIGTERM, so only the SIGKILL after `grace` ends it: terminating
    /// it takes the whole grace.
    fn stubborn_sleeper(table: &ProcessTable, grace: Duration) -> Arc<Process> {
        let script = "trap '' TERM; exec /bin/sleep 300";
        let mut spec = SpawnSpec::new(vec!["/bin/bash".into(), "-c".into(), script.into()], "/".into());
        spec.grace = grace;
        let process = table.spawn(spec).expect("sleep starts");
        let pid = i32::try_from(process.pid()).expect("a pid");
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while !ignores(pid, libc::SIGTERM) {
            assert!(std::time::Instant::now() < deadline, "SIGTERM never ignored");
            std::thread::sleep(Duration::from_millis(10));
        }
        process
    }

    fn ends_soon(process: &Process) -> bool {
        process.wait(Some(Duration::from_secs(10))).is_some()
    }

    #[test]
    fn cancel_terminates_what_was_registered_and_returns_at_once() {
        let table = ProcessTable::new();
        let grace = Duration::from_secs(3);
        let (a, b) = (stubborn_sleeper(&table, grace), stubborn_sleeper(&table, grace));
        let token = CancelToken::new();
        token.register(&a);
        token.register(&b);
        let start = std::time::Instant::now();
        token.clone().cancel();
        assert!(
            start.elapsed() < grace / 3,
            "cancel does not wait out the grace: {:?}",
            start.elapsed()
        );
        assert!(token.is_cancelled());
        assert!(ends_soon(&a) && ends_soon(&b));
    }

    #[test]
    fn a_spawn_that_races_the_cancellation_is_terminated() {
        let table = ProcessTable::new();
        let token = CancelToken::new();
        token.cancel();
        let late = sleeper(&table);
        token.register(&late);
        assert!(ends_soon(&late));
    }

    #[test]
    fn a_released_process_outlives_the_cancellation() {
        let table = ProcessTable::new();
        let (job, call) = (sleeper(&table), sleeper(&table));
        let token = CancelToken::new();
        token.register(&job);
        token.register(&call);
        token.release(job.id());
        token.cancel();
        assert!(ends_soon(&call));
        assert!(
            job.wait(Some(Duration::from_millis(300))).is_none(),
            "the released one still runs"
        );
        job.terminate();
    }
}
