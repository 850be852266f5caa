//! What a session has seen of a target, kept in the host's state store (per world and per
//! provider, so a swapped-in provider starts with none) because lanes end with their call.

use crate::bindings::seam::host::state;

/// The evidence a session holds about one target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Observation {
    /// Read at this version (or written by this session, which is as good).
    Present(String),
    /// A read found nothing there.
    Absent,
}

const ABSENT: &[u8] = b"absent";
const PRESENT: &[u8] = b"present:";

impl Observation {
    fn encode(&self) -> Vec<u8> {
        match self {
            Self::Absent => ABSENT.to_vec(),
            Self::Present(version) => [PRESENT, version.as_bytes()].concat(),
        }
    }

    fn decode(bytes: &[u8]) -> Option<Self> {
        if bytes == ABSENT {
            return Some(Self::Absent);
        }
        let version = bytes.strip_prefix(PRESENT)?;
        String::from_utf8(version.to_vec()).ok().map(Self::Present)
    }
}

/// The store key: the session id, length-prefixed so no id can collide with another's keys,
/// then the target's opaque key.
fn key(session: &str, target_key: &str) -> String {
    format!("{}:{session}{target_key}", session.len())
}

pub fn get(session: &str, target_key: &str) -> Option<Observation> {
    state::get(&key(session, target_key)).and_then(|bytes| Observation::decode(&bytes))
}

pub fn record(session: &str, target_key: &str, observation: &Observation) {
    state::set(&key(session, target_key), &observation.encode());
}

/// A version of the target this session has seen that is not `version`: now, or once recorded
/// within `timeout_ms`.
pub fn wait_newer(session: &str, target_key: &str, version: &str, timeout_ms: u32) -> Option<String> {
    let key = key(session, target_key);
    let stale = Observation::Present(version.to_owned()).encode();
    let mut current = state::get(&key);
    if current.as_deref() == Some(&stale[..]) {
        current = state::wait_change(&key, Some(&stale), timeout_ms);
    }
    match current.and_then(|bytes| Observation::decode(&bytes)) {
        Some(Observation::Present(newer)) if newer != version => Some(newer),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn observations_round_trip() {
        for observation in [Observation::Absent, Observation::Present("1:2:3:4:5".into())] {
            assert_eq!(Observation::decode(&observation.encode()), Some(observation));
        }
        assert_eq!(Observation::decode(b"garbage"), None);
    }

    #[test]
    fn keys_of_different_sessions_never_collide() {
        assert_ne!(key("a", "b/c"), key("ab", "/c"));
        assert_ne!(key("1:a", "/x"), key("1", ":a/x"));
    }
}
