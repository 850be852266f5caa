//! A session's `sandbox/mode` events, kept in the host state store (per world, per provider).

use crate::bindings::exports::seam::sandbox::policy::{Error, ModeEvent};
use crate::bindings::seam::host::state;
use crate::modes;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
struct Stored {
    mode: String,
    at_ms: u64,
}

fn key(session: &str) -> String {
    format!("events/{session}")
}

pub fn load(session: &str) -> Result<Vec<ModeEvent>, Error> {
    let Some(bytes) = state::get(&key(session)) else {
        return Ok(Vec::new());
    };
    let stored: Vec<Stored> =
        serde_json::from_slice(&bytes).map_err(|e| io_error(format!("corrupt mode events: {e}")))?;
    stored
        .into_iter()
        .map(|s| {
            let mode = modes::parse(&s.mode).ok_or_else(|| io_error(format!("unknown mode {:?} in events", s.mode)))?;
            Ok(ModeEvent { mode, at_ms: s.at_ms })
        })
        .collect()
}

/// Append one event; compare-and-swap so concurrent calls never lose one.
pub fn append(session: &str, event: ModeEvent) -> Result<(), Error> {
    loop {
        let before = state::get(&key(session));
        let mut stored: Vec<Stored> = match &before {
            Some(bytes) => serde_json::from_slice(bytes).map_err(|e| io_error(format!("corrupt mode events: {e}")))?,
            None => Vec::new(),
        };
        stored.push(Stored {
            mode: modes::name(event.mode).to_string(),
            at_ms: event.at_ms,
        });
        let after = serde_json::to_vec(&stored).map_err(|e| io_error(e.to_string()))?;
        if state::compare_and_swap(&key(session), before.as_deref(), Some(&after)) {
            return Ok(());
        }
    }
}

fn io_error(message: String) -> Error {
    Error {
        code: "SANDBOX_POLICY_IO".into(),
        message,
    }
}
