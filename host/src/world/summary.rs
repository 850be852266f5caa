//! What a full load of a world learned, recorded in the component cache so that a process
//! making one call loads only the components that call can reach.
//!
//! The record is keyed by everything linking depends on: the world file's fingerprint and the
//! content hash of each component, under the engine's key. A world with the same key links the
//! same way, so a subset of it links too; a world that was refused has no record and is loaded
//! whole, and refused, every time. Worlds naming component files are always loaded whole: their
//! key would cost reading every file.

use super::Placement;
use super::builtin;
use super::cache::ComponentCache;
use super::file::{ComponentRef, WorldFile};
use crate::link::plan::{ImportPlan, Target};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Tool name → the component serving it, by load order.
    pub tools: BTreeMap<String, usize>,
    /// Per component in load order: the components serving its imports.
    pub imports: Vec<Vec<usize>>,
}

impl Summary {
    /// The components a call of `tool` can reach, in load order, and where the tool's own
    /// component is among them.
    pub fn reach(&self, tool: &str) -> Option<(Vec<usize>, usize)> {
        let serving = *self.tools.get(tool)?;
        let mut reached = vec![false; self.imports.len()];
        let mut todo = vec![serving];
        while let Some(node) = todo.pop() {
            if !std::mem::replace(reached.get_mut(node)?, true) {
                todo.extend(self.imports.get(node)?);
            }
        }
        let reach: Vec<usize> = (0..reached.len()).filter(|&node| reached[node]).collect();
        let position = reach.iter().position(|&node| node == serving)?;
        Some((reach, position))
    }
}

/// The providers serving a component's imports.
pub fn providers(imports: &[ImportPlan]) -> Vec<usize> {
    imports
        .iter()
        .filter_map(|import| match &import.target {
            Target::Provider(forward) => Some(forward.provider),
            _ => None,
        })
        .collect()
}

/// The key of a world made of built-in components only.
pub fn key(file: &WorldFile, placements: &[(&ComponentRef, Placement<'_>)]) -> Option<String> {
    let mut identity = file.fingerprint.clone();
    for (component, _) in placements {
        let ComponentRef::Builtin(name) = component else {
            return None;
        };
        identity.push(' ');
        identity.push_str(builtin::find(name)?.hash);
    }
    Some(ComponentCache::content_hash(identity.as_bytes()))
}

pub fn recall(cache: &ComponentCache, key: &str) -> Option<Summary> {
    serde_json::from_slice(&cache.recalled(key)?).ok()
}

pub fn record(cache: &ComponentCache, key: &str, summary: &Summary) {
    if recall(cache, key).as_ref() != Some(summary) {
        cache.remember(key, &serde_json::to_vec(summary).unwrap_or_default());
    }
}

/// The placements at `keep` (load-order indices, ascending), a stack's inner provider renumbered
/// (or dropped when the call cannot reach it, so its wrapper never imported from it).
pub fn subset<'a>(
    placements: Vec<(&'a ComponentRef, Placement<'a>)>,
    keep: &[usize],
) -> Vec<(&'a ComponentRef, Placement<'a>)> {
    let renumbered = |old: usize| keep.iter().position(|&kept| kept == old);
    placements
        .into_iter()
        .enumerate()
        .filter(|(old, _)| keep.contains(old))
        .map(|(_, (component, mut place))| {
            place.inner = place.inner.and_then(renumbered);
            (component, place)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_reaches_its_providers_and_theirs_only() {
        // 0 fs-local, 1 subprocess-local, 2 bash-local → 1, 3 tool-fs → 0, 4 tool-bash → 2
        let summary = Summary {
            tools: BTreeMap::from([("bash".into(), 4), ("read".into(), 3)]),
            imports: vec![vec![], vec![], vec![1], vec![0], vec![2]],
        };
        assert_eq!(summary.reach("bash"), Some((vec![1, 2, 4], 2)));
        assert_eq!(summary.reach("read"), Some((vec![0, 3], 1)));
        assert_eq!(summary.reach("grep"), None);
    }

    #[test]
    fn a_summary_pointing_outside_itself_reaches_nothing() {
        let summary = Summary {
            tools: BTreeMap::from([("bash".into(), 1)]),
            imports: vec![vec![], vec![7]],
        };
        assert_eq!(summary.reach("bash"), None);
    }
}
