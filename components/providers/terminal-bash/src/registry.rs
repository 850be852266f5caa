//! The session registry in seam:host/state: lanes are per call, sessions outlive calls.
//!
//! Keys: `next` (the last N handed out), `session/pty-N` (a JSON record), `busy/pty-N` (the
//! wall-clock millisecond after which an in-flight send is considered dead: a call that trapped
//! never clears its flag), `released/<owner>`.

use serde::{Deserialize, Serialize};

use crate::bindings::exports::seam::terminal::terminal::Error;
use crate::bindings::seam::host::state;
use crate::errors;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Record {
    pub owner: String,
    /// Where the shell started, then where it was after the last command that finished: what
    /// a session that exited last knew.
    pub cwd: String,
    pub shell: String,
    pub rows: u16,
    pub cols: u16,
    /// The subprocess seam's terminal id.
    pub terminal: u64,
    /// Identifies this session's prompt markers.
    pub nonce: String,
    /// Where the session's output starts: its first prompt, after the set-up line.
    #[serde(default)]
    pub origin: u64,
    /// Where the last send or read stopped.
    pub cursor: u64,
    /// The last send returned before its prompt marker, its output ending here: the command
    /// may still run.
    #[serde(default)]
    pub pending_from: Option<u64>,
}

fn session_key(id: &str) -> String {
    format!("session/{id}")
}

pub fn next_id() -> String {
    loop {
        let current = state::get("next");
        let n = current
            .as_deref()
            .and_then(|b| std::str::from_utf8(b).ok()?.parse::<u64>().ok())
            .unwrap_or(0)
            + 1;
        if state::compare_and_swap("next", current.as_deref(), Some(n.to_string().as_bytes())) {
            return format!("pty-{n}");
        }
    }
}

pub fn save(id: &str, record: &Record) {
    let json = serde_json::to_vec(record).expect("a record serializes");
    state::set(&session_key(id), &json);
}

pub fn forget(id: &str) {
    state::delete(&session_key(id));
    state::delete(&format!("busy/{id}"));
}

fn load(id: &str) -> Option<Record> {
    serde_json::from_slice(&state::get(&session_key(id))?).ok()
}

pub fn is_released(owner: &str) -> bool {
    state::get(&format!("released/{owner}")).is_some()
}

pub fn release(owner: &str) {
    state::set(&format!("released/{owner}"), b"1");
}

/// Refuses a released owner before anything else.
pub fn check_live(owner: &str) -> Result<(), Error> {
    if is_released(owner) {
        return Err(errors::error(
            errors::OWNER_NOT_LIVE,
            format!("agent {owner:?} was released"),
        ));
    }
    Ok(())
}

/// The session `id` if `owner` may use it: OWNER_NOT_LIVE, TERMINAL_NOT_FOUND, FOREIGN_SESSION.
pub fn fenced(owner: &str, id: &str) -> Result<Record, Error> {
    check_live(owner)?;
    let record = load(id).ok_or_else(|| errors::error(errors::NOT_FOUND, format!("no terminal session {id}")))?;
    if record.owner != owner {
        return Err(errors::error(
            errors::FOREIGN_SESSION,
            format!("terminal session {id} belongs to another agent"),
        ));
    }
    Ok(record)
}

/// Every session, with its id.
pub fn all() -> Vec<(String, Record)> {
    state::keys("session/")
        .into_iter()
        .filter_map(|key| {
            let id = key.strip_prefix("session/")?.to_owned();
            Some((id.clone(), load(&id)?))
        })
        .collect()
}

/// A read stopped at `cursor`.
pub fn update_cursor(id: &str, cursor: u64) {
    if let Some(mut record) = load(id) {
        record.cursor = cursor;
        save(id, &record);
    }
}

/// A send stopped at `cursor`, with its command finished or, when `pending`, maybe not.
pub fn after_send(id: &str, cursor: u64, pending: bool, cwd: Option<String>) {
    if let Some(mut record) = load(id) {
        record.cursor = cursor;
        record.pending_from = pending.then_some(cursor);
        if let Some(cwd) = cwd {
            record.cwd = cwd;
        }
        save(id, &record);
    }
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or_default()
}

/// One send at a time per session. The flag holds until `until_ms` (wall clock) at the latest.
pub struct Busy {
    key: String,
    value: Vec<u8>,
}

impl Busy {
    pub fn acquire(id: &str, hold_ms: u64) -> Result<Self, Error> {
        let key = format!("busy/{id}");
        let value = (now_ms() + hold_ms).to_string().into_bytes();
        let current = state::get(&key);
        let stale = current
            .as_deref()
            .and_then(|b| std::str::from_utf8(b).ok()?.parse::<u64>().ok())
            .is_some_and(|until| until < now_ms());
        if (current.is_none() || stale) && state::compare_and_swap(&key, current.as_deref(), Some(&value)) {
            return Ok(Self { key, value });
        }
        Err(errors::error(
            errors::BUSY,
            format!("a send is already in flight on terminal session {id}"),
        ))
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        state::compare_and_swap(&self.key, Some(&self.value), None);
    }
}

pub fn is_busy(id: &str) -> bool {
    state::get(&format!("busy/{id}"))
        .as_deref()
        .and_then(|b| std::str::from_utf8(b).ok()?.parse::<u64>().ok())
        .is_some_and(|until| until >= now_ms())
}
