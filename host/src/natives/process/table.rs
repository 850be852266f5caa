//! The host's registry of spawned processes.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::thread::Thread;
use std::time::{Duration, Instant};

use super::error::ProcessError;
use super::farewell::Farewell;
use super::handle::Process;
use super::spawner::Spawner;
use super::spec::SpawnSpec;
use super::start::start;

/// One per host. Ids increase monotonically and are never reused, even after failed spawns.
///
/// Creating a table forks its zygote (see the module docs); dropping it ends the zygote, while
/// processes it spawned run on.
pub struct ProcessTable {
    next_id: AtomicU64,
    entries: Arc<Entries>,
    spawner: Spawner,
    /// The thread that ends idle processes, started with the first one that may idle out.
    idle_reaper: Mutex<Option<Thread>>,
}

type Entries = Mutex<HashMap<u64, Entry>>;

struct Entry {
    process: Arc<Process>,
    idle: Option<IdleLimit>,
}

/// A detached process that ends once nobody has held a handle to it for `after`.
struct IdleLimit {
    after: Duration,
    last_held: Instant,
    farewell: Option<Farewell>,
}

/// Longest sleep of the idle reaper, so it notices a dropped table soon enough.
const REAPER_NAP: Duration = Duration::from_secs(30);

impl ProcessTable {
    pub fn new() -> Self {
        Self {
            next_id: AtomicU64::new(1),
            entries: Arc::default(),
            spawner: Spawner::new(),
            idle_reaper: Mutex::new(None),
        }
    }

    pub fn spawn(&self, spec: SpawnSpec) -> Result<Arc<Process>, ProcessError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let process = Arc::new(start(id, spec, &self.spawner)?);
        let entry = Entry {
            process: Arc::clone(&process),
            idle: None,
        };
        lock(&self.entries).insert(id, entry);
        Ok(process)
    }

    /// A handle to the process; for one that may idle out, holding it counts as use.
    pub fn get(&self, id: u64) -> Option<Arc<Process>> {
        let mut entries = lock(&self.entries);
        let entry = entries.get_mut(&id)?;
        entry.touch();
        Some(Arc::clone(&entry.process))
    }

    /// Drops the table's handle; the process lives on while other handles exist.
    pub fn forget(&self, id: u64) {
        let removed = lock(&self.entries).remove(&id);
        // Dropped outside the lock: the last handle's drop signals the process.
        drop(removed);
    }

    /// Ends the process once no handle but the table's has been held for `after`: it is given
    /// its `farewell`, if any, then its tree is terminated and the table forgets it. For servers
    /// that later calls attach to, so they do not outlive their use (nor the world that started
    /// them).
    pub fn expire_when_idle(&self, id: u64, after: Duration, farewell: Option<Farewell>) {
        if let Some(entry) = lock(&self.entries).get_mut(&id) {
            entry.idle = Some(IdleLimit {
                after,
                last_held: Instant::now(),
                farewell,
            });
        }
        self.wake_idle_reaper();
    }

    /// A handle to the process was let go: its idle time counts from now.
    pub fn released(&self, id: u64) {
        if let Some(entry) = lock(&self.entries).get_mut(&id) {
            entry.touch();
        }
    }

    /// The zygote's pid, if one runs.
    #[cfg(test)]
    pub(super) fn zygote_pid(&self) -> Option<u32> {
        self.spawner.pid()
    }

    fn wake_idle_reaper(&self) {
        let mut reaper = self.idle_reaper.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(thread) = reaper.as_ref() {
            thread.unpark();
            return;
        }
        let entries = Arc::downgrade(&self.entries);
        match std::thread::Builder::new()
            .name("seam-idle-reaper".into())
            .spawn(move || reap_idle_until_dropped(&entries))
        {
            Ok(handle) => *reaper = Some(handle.thread().clone()),
            Err(err) => tracing::warn!(error = %err, "cannot start the idle process reaper; idle processes run on"),
        }
    }
}

impl Entry {
    fn touch(&mut self) {
        if let Some(idle) = &mut self.idle {
            idle.last_held = Instant::now();
        }
    }
}

impl Drop for ProcessTable {
    fn drop(&mut self) {
        // The reaper holds only a weak reference; woken, it sees the table is gone and exits.
        if let Some(thread) = self.idle_reaper.get_mut().unwrap_or_else(PoisonError::into_inner) {
            thread.unpark();
        }
    }
}

impl Default for ProcessTable {
    fn default() -> Self {
        Self::new()
    }
}

fn lock(entries: &Entries) -> MutexGuard<'_, HashMap<u64, Entry>> {
    entries.lock().unwrap_or_else(PoisonError::into_inner)
}

fn reap_idle_until_dropped(entries: &Weak<Entries>) {
    loop {
        let Some(table) = entries.upgrade() else {
            return;
        };
        let nap = reap_idle(&table, Instant::now());
        drop(table);
        std::thread::park_timeout(nap.min(REAPER_NAP));
    }
}

/// Forgets the processes idle past their limit (dropping the last handle terminates a running
/// tree, after its farewell) and says how long until the next one may be due.
fn reap_idle(entries: &Entries, now: Instant) -> Duration {
    let mut expired = Vec::new();
    let mut next = REAPER_NAP;
    {
        let mut entries = lock(entries);
        entries.retain(|_, entry| {
            let Some(idle) = &mut entry.idle else {
                return true;
            };
            // A handle held by a call right now is use.
            if Arc::strong_count(&entry.process) > 1 {
                idle.last_held = now;
            }
            let idle_for = now.saturating_duration_since(idle.last_held);
            if idle_for < idle.after {
                next = next.min(idle.after - idle_for);
                return true;
            }
            expired.push((Arc::clone(&entry.process), idle.farewell.take()));
            false
        });
    }
    // Outside the lock: each last handle's drop signals its tree, which ends in the background.
    for (process, farewell) in expired {
        tracing::debug!(
            id = process.id(),
            pid = process.pid(),
            "ending a process that idled out"
        );
        match farewell {
            Some(farewell) => farewell.say(process),
            None => drop(process),
        }
    }
    next
}
