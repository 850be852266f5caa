//! The host's registry of spawned processes.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::error::ProcessError;
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
    processes: Mutex<HashMap<u64, Arc<Process>>>,
    spawner: Spawner,
}

impl ProcessTable {
    pub fn new() -> Self {
        Self {
            next_id: AtomicU64::new(1),
            processes: Mutex::new(HashMap::new()),
            spawner: Spawner::new(),
        }
    }

    pub fn spawn(&self, spec: SpawnSpec) -> Result<Arc<Process>, ProcessError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let process = Arc::new(start(id, spec, &self.spawner)?);
        self.lock().insert(id, Arc::clone(&process));
        Ok(process)
    }

    pub fn get(&self, id: u64) -> Option<Arc<Process>> {
        self.lock().get(&id).cloned()
    }

    /// Drops the table's handle; the process lives on while other handles exist.
    pub fn forget(&self, id: u64) {
        let removed = self.lock().remove(&id);
        // Dropped outside the lock: the last handle's drop signals the process.
        drop(removed);
    }

    /// The zygote's pid, if one runs.
    #[cfg(test)]
    pub(super) fn zygote_pid(&self) -> Option<u32> {
        self.spawner.pid()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<u64, Arc<Process>>> {
        self.processes.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Default for ProcessTable {
    fn default() -> Self {
        Self::new()
    }
}
