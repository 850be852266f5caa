//! The per-target mutation lock. Lanes are per call, so concurrent calls of one world (and of
//! every world in this host) meet only here: a write holds its canonical path while it checks
//! the expected version and publishes. It does not lock against other processes.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};

#[derive(Default)]
pub struct TargetLocks {
    held: Mutex<HashSet<PathBuf>>,
    released: Condvar,
}

/// Holds one path until dropped.
pub struct TargetGuard<'a> {
    locks: &'a TargetLocks,
    path: PathBuf,
}

impl TargetLocks {
    /// Wait until no other write holds `path`, then hold it.
    pub fn lock(&self, path: &Path) -> TargetGuard<'_> {
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        while held.contains(path) {
            held = self.released.wait(held).unwrap_or_else(|p| p.into_inner());
        }
        held.insert(path.to_path_buf());
        TargetGuard {
            locks: self,
            path: path.to_path_buf(),
        }
    }
}

impl Drop for TargetGuard<'_> {
    fn drop(&mut self) {
        let mut held = self.locks.held.lock().unwrap_or_else(|p| p.into_inner());
        held.remove(&self.path);
        drop(held);
        self.locks.released.notify_all();
    }
}
