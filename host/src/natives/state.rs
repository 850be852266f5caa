//! The per-world, per-provider key-value store behind seam:host/state.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

/// Namespaces are `<world>/<provider>`; a provider sees only its own.
#[derive(Default)]
pub struct StateStore {
    spaces: Mutex<HashMap<String, BTreeMap<String, Vec<u8>>>>,
}

impl StateStore {
    fn with<R>(&self, space: &str, f: impl FnOnce(&mut BTreeMap<String, Vec<u8>>) -> R) -> R {
        let mut spaces = self.spaces.lock().unwrap_or_else(|p| p.into_inner());
        f(spaces.entry(space.to_string()).or_default())
    }

    pub fn get(&self, space: &str, key: &str) -> Option<Vec<u8>> {
        self.with(space, |m| m.get(key).cloned())
    }

    pub fn set(&self, space: &str, key: &str, value: Vec<u8>) {
        self.with(space, |m| m.insert(key.to_string(), value));
    }

    pub fn delete(&self, space: &str, key: &str) -> bool {
        self.with(space, |m| m.remove(key).is_some())
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
        self.with(space, |m| {
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
}
