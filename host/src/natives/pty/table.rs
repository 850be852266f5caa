//! The host's PTY sessions by id: they outlive the call that opened them.

use super::error::PtyError;
use super::session::PtySession;
use super::spec::PtySpec;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

#[derive(Default)]
pub struct PtyTable {
    next: AtomicU64,
    sessions: Mutex<HashMap<u64, Arc<PtySession>>>,
}

impl PtyTable {
    pub fn spawn(&self, spec: PtySpec) -> Result<Arc<PtySession>, PtyError> {
        let id = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        let session = Arc::new(PtySession::spawn(id, spec)?);
        self.sessions
            .lock()
            .expect("pty table lock")
            .insert(id, session.clone());
        Ok(session)
    }

    pub fn get(&self, id: u64) -> Result<Arc<PtySession>, PtyError> {
        let sessions = self.sessions.lock().expect("pty table lock");
        sessions.get(&id).cloned().ok_or(PtyError::Unknown(id))
    }

    /// Closes the session and forgets its id. Unknown ids are not an error (close is idempotent).
    pub fn close(&self, id: u64) -> Option<super::PtyOutcome> {
        let session = self.sessions.lock().expect("pty table lock").remove(&id)?;
        Some(session.close())
    }

    pub fn ids(&self) -> Vec<u64> {
        let mut ids: Vec<u64> = self.sessions.lock().expect("pty table lock").keys().copied().collect();
        ids.sort_unstable();
        ids
    }
}
