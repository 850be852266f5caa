//! Compiled components cached on disk, keyed by content hash and engine compatibility, so a
//! component is compiled once per machine and later loads map the compiled file (well under a
//! ms for a first-party component, a few ms for a 37 MB compiled Python plugin).
//!
//! Every rebuilt component is a new entry, and an interpreter plugin's entry is tens of MB, so
//! the cache is bounded: a hit refreshes the entry's modification time, and storing a new entry
//! removes the least recently used ones beyond [`MAX_BYTES`].

use sha2::{Digest, Sha256};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::SystemTime;
use wasmtime::Engine;
use wasmtime::component::Component;

/// Total size of the entries kept; the least recently used beyond it are removed.
pub const MAX_BYTES: u64 = 1 << 30;

pub struct ComponentCache {
    dir: Option<PathBuf>,
    engine_key: String,
}

impl ComponentCache {
    /// `SEAM_CACHE_DIR`, else `$XDG_CACHE_HOME/seam`, else `~/.cache/seam`; none disables caching.
    pub fn new(engine: &Engine) -> Self {
        let dir = std::env::var_os("SEAM_CACHE_DIR")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("seam")))
            .or_else(|| std::env::var_os("HOME").map(|d| PathBuf::from(d).join(".cache").join("seam")));
        let mut hasher = DefaultHasher::new();
        engine.precompile_compatibility_hash().hash(&mut hasher);
        Self {
            dir,
            engine_key: format!("{:016x}", hasher.finish()),
        }
    }

    pub fn content_hash(bytes: &[u8]) -> String {
        Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The compiled component for `bytes` (whose SHA-256 is `hash`).
    pub fn load(&self, engine: &Engine, bytes: &[u8], hash: &str) -> wasmtime::Result<Component> {
        let Some(dir) = &self.dir else {
            return Component::new(engine, bytes);
        };
        let path = dir.join(format!("{hash}-{}.cwasm", self.engine_key));
        if path.exists() {
            // SAFETY: the file is one this cache wrote with `serialize` for an engine with the
            // same compatibility hash (part of the name); a truncated or foreign file fails
            // deserialization's own checks and is recompiled below.
            match unsafe { Component::deserialize_file(engine, &path) } {
                Ok(component) => {
                    // Recently used entries are the ones eviction keeps.
                    let _ = std::fs::File::open(&path).and_then(|f| f.set_modified(SystemTime::now()));
                    return Ok(component);
                }
                Err(e) => {
                    tracing::warn!(path = %path.display(), "recompiling a bad cache entry: {e}")
                }
            }
        }
        let component = Component::new(engine, bytes)?;
        if let Err(e) = store(&path, &component.serialize()?) {
            tracing::warn!(path = %path.display(), "cannot cache a compiled component: {e}");
        }
        if let Err(e) = evict(dir, MAX_BYTES, &path) {
            tracing::warn!(dir = %dir.display(), "cannot trim the component cache: {e}");
        }
        Ok(component)
    }
}

/// Write atomically so concurrent seam processes never read a half-written entry.
fn store(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let temp = dir.join(format!(
        ".{}.{}",
        std::process::id(),
        path.file_name().unwrap_or_default().to_string_lossy()
    ));
    std::fs::write(&temp, bytes)?;
    std::fs::rename(&temp, path)
}

/// Remove the least recently used entries until the cache holds at most `max_bytes`; `keep`
/// (the entry just stored) stays whatever its size.
fn evict(dir: &Path, max_bytes: u64, keep: &Path) -> std::io::Result<()> {
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        // Dot files are entries another process is still writing (see `store`).
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        if hidden || path.extension().is_none_or(|e| e != "cwasm") || path == keep {
            continue;
        }
        let meta = entry.metadata()?;
        entries.push((meta.modified()?, meta.len(), path));
    }
    let kept = std::fs::metadata(keep).map(|m| m.len()).unwrap_or(0);
    let mut total = kept + entries.iter().map(|(_, len, _)| len).sum::<u64>();
    entries.sort();
    for (_, len, path) in entries {
        if total <= max_bytes {
            break;
        }
        // Another seam process may have this entry mapped: its mapping outlives the name.
        std::fs::remove_file(&path)?;
        total -= len;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn entry(dir: &Path, name: &str, len: usize, age_s: u64) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, vec![0u8; len]).unwrap();
        let when = SystemTime::now() - Duration::from_secs(age_s);
        std::fs::File::open(&path).unwrap().set_modified(when).unwrap();
        path
    }

    #[test]
    fn evicts_the_least_recently_used_entries_beyond_the_bound() {
        let dir = tempfile::tempdir().unwrap();
        let oldest = entry(dir.path(), "a.cwasm", 400, 30);
        let older = entry(dir.path(), "b.cwasm", 400, 20);
        let recent = entry(dir.path(), "c.cwasm", 400, 10);
        let in_progress = entry(dir.path(), ".123.d.cwasm", 400, 40);
        let stored = entry(dir.path(), "new.cwasm", 400, 0);
        evict(dir.path(), 1000, &stored).unwrap();
        assert!(!oldest.exists() && !older.exists());
        assert!(recent.exists() && stored.exists() && in_progress.exists());
    }

    #[test]
    fn keeps_the_entry_just_stored_even_when_it_alone_is_too_big() {
        let dir = tempfile::tempdir().unwrap();
        let old = entry(dir.path(), "a.cwasm", 10, 30);
        let stored = entry(dir.path(), "big.cwasm", 2000, 0);
        evict(dir.path(), 1000, &stored).unwrap();
        assert!(stored.exists() && !old.exists());
    }
}
