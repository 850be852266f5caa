//! The per-world, per-provider key-value store behind seam:host/state.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// Namespaces are `<world>/<provider>`; a provider sees only its own.
#[derive(Default)]
pub struct StateStore {
    spaces: Mutex<HashMap<String, BTreeMap<String, Vec<u8>>>>,
    /// Notified on every change, for `wait_change`.
    changed: Condvar,
}

impl StateStore {
    fn with<R>(&self, space: &str, f: impl FnOnce(&mut BTreeMap<String, Vec<u8>>) -> R) -> R {
        let mut spaces = self.spaces.lock().unwrap_or_else(|p| p.into_inner());
        f(spaces.entry(space.to_string()).or_default())
    }

    fn mutate<R>(&self, space: &str, f: impl FnOnce(&mut BTreeMap<String, Vec<u8>>) -> R) -> R {
        let result = self.with(space, f);
        self.changed.notify_all();
        result
    }

    /// Blocks until `key` holds something other than `seen` or `timeout` passes; returns what
    /// it holds then.
    pub fn wait_change(&self, space: &str, key: &str, seen: Option<&[u8]>, timeout: Duration) -> Option<Vec<u8>> {
        let deadline = Instant::now() + timeout;
        let mut spaces = self.spaces.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            let current = spaces.get(space).and_then(|m| m.get(key)).cloned();
            let remaining = deadline.saturating_duration_since(Instant::now());
            if current.as_deref() != seen || remaining.is_zero() {
                return current;
            }
            spaces = self
                .changed
                .wait_timeout(spaces, remaining)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }

    pub fn get(&self, space: &str, key: &str) -> Option<Vec<u8>> {
        self.with(space, |m| m.get(key).cloned())
    }

    pub fn set(&self, space: &str, key: &str, value: Vec<u8>) {
        self.mutate(space, |m| m.insert(key.to_string(), value));
    }

    pub fn delete(&self, space: &str, key: &str) -> bool {
        self.mutate(space, |m| m.remove(key).is_some())
    }

    pub fn keys(&self, space: &str, prefix: &str) -> Vec<String> {
        self.with(space, |m| {
            m.range(prefix.to_string()..)
                .take_while(|(k, _)| k.starts_with(prefix))
                .map(|(k, _)| k.clone())
                .collect()
        })
    }

    pub fn compare_and_swap(&self, space: &str, key: &str, expected: Option<&[u8]>, value: Option<Vec<u8>>) -> bool {
        self.mutate(space, |m| {
            if m.get(key).map(Vec::as_slice) != expected {
                return false;
            }
            match value {
                Some(v) => m.insert(key.to_string(), v),
                None => m.remove(key),
            };
            true
        })
    }

    /// Forget a namespace (its provider was swapped out).
    pub fn clear(&self, space: &str) {
        let mut spaces = self.spaces.lock().unwrap_or_else(|p| p.into_inner());
        spaces.remove(space);
        self.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn namespaces_are_separate_and_cas_guards() {
        let s = StateStore::default();
        s.set("w/a", "k", b"1".to_vec());
        assert_eq!(s.get("w/b", "k"), None);
        assert!(!s.compare_and_swap("w/a", "k", Some(b"2"), Some(b"3".to_vec())));
        assert!(s.compare_and_swap("w/a", "k", Some(b"1"), Some(b"3".to_vec())));
        assert!(s.compare_and_swap("w/a", "n", None, Some(b"x".to_vec())));
        assert_eq!(s.keys("w/a", ""), vec!["k", "n"]);
        s.clear("w/a");
        assert_eq!(s.get("w/a", "k"), None);
    }

    #[test]
    fn wait_change_wakes_on_a_change_or_returns_at_the_timeout() {
        let s = std::sync::Arc::new(StateStore::default());
        s.set("w", "lock", b"held".to_vec());
        let waiter = {
            let s = s.clone();
            std::thread::spawn(move || s.wait_change("w", "lock", Some(b"held"), Duration::from_secs(60)))
        };
        s.delete("w", "lock");
        assert_eq!(waiter.join().unwrap(), None);
        let unchanged = s.wait_change("w", "other", None, Duration::from_millis(1));
        assert_eq!(unchanged, None);
    }
}
