//! What a writable sandbox keeps read-only because code runs from it later, unconfined: git's
//! hooks and config (`git`), and the host's own cache directory, which holds the compiled
//! components the host loads as machine code and the Landlock launcher every confined command
//! starts behind. A command that could write there would escape its sandbox at the next load
//! or launch.

use super::git;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Directory,
    File,
    /// An absent directory, kept from being created by mounting over it.
    MissingDirectory,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Protected {
    pub path: PathBuf,
    pub kind: Kind,
    /// Why it stays read-only, for messages.
    pub why: &'static str,
}

const CACHE_WHY: &str = "seam's cache (compiled components, the Landlock launcher) stays read-only: \
                         seam runs what it holds later, outside any sandbox";

/// Git's metadata for the checkout at `root`, then the cache directory `cache` (when there is
/// one), wherever each lies: the sandbox profile guards those a writable root exposes.
pub fn paths(root: &Path, cache: Option<&Path>) -> Vec<Protected> {
    let mut found = git::protected_paths(root);
    found.extend(cache.and_then(cache_dir));
    found
}

/// The cache directory by its canonical path, created when missing: a mount or a rule needs
/// the real path, and a sandboxed command must not be the one to create it.
fn cache_dir(dir: &Path) -> Option<Protected> {
    std::fs::create_dir_all(dir).ok()?;
    Some(Protected {
        path: std::fs::canonicalize(dir).ok()?,
        kind: Kind::Directory,
        why: CACHE_WHY,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_is_listed_by_its_canonical_path_and_created_when_missing() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir(root.join("real")).unwrap();
        std::os::unix::fs::symlink(root.join("real"), root.join("link")).unwrap();
        let cache = root.join("link/cache");
        let found = paths(&root, Some(&cache));
        assert_eq!(
            found,
            vec![Protected {
                path: root.join("real/cache"),
                kind: Kind::Directory,
                why: CACHE_WHY,
            }]
        );
        assert!(root.join("real/cache").is_dir());
        assert_eq!(paths(&root, None), vec![]);
    }
}
