//! Compiled components cached on disk, keyed by content hash and engine compatibility, so a
//! component is compiled once per machine and later loads map the compiled file (well under a
//! ms for a first-party component, a few ms for a 37 MB compiled Python plugin).
//!
//! Every rebuilt component is a new entry, and an interpreter plugin's entry is tens of MB, so
//! the cache is bounded: a hit refreshes the entry's modification time, and storing a new entry
//! removes the least recently used ones beyond [`MAX_BYTES`].
//!
//! A component file's content hash is remembered with the file's identity (device, inode, size,
//! modification and change times, as fs versions are), so loading an unchanged 18 MB plugin
//! neither reads nor hashes it: most of a cached load's time otherwise.

use sha2::{Digest, Sha256};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use wasmtime::Engine;
use wasmtime::component::Component;

/// Total size of the entries kept; the least recently used beyond it are removed.
pub const MAX_BYTES: u64 = 1 << 30;
/// A cached entry used again is marked recently used when its mark is older than this.
const TOUCH_AFTER: Duration = Duration::from_secs(3600);

pub struct ComponentCache {
    dir: Option<PathBuf>,
    engine_key: String,
    /// A cache that cannot be written is said once per process, not once per component.
    warned_unwritable: AtomicBool,
}

impl ComponentCache {
    pub fn new(engine: &Engine) -> Self {
        let dir = Self::default_dir();
        let mut hasher = DefaultHasher::new();
        engine.precompile_compatibility_hash().hash(&mut hasher);
        Self {
            dir,
            engine_key: format!("{:016x}", hasher.finish()),
            warned_unwritable: AtomicBool::new(false),
        }
    }

    /// `SEAM_CACHE_DIR`, else `$XDG_CACHE_HOME/seam`, else `~/.cache/seam`; none disables caching.
    pub fn default_dir() -> Option<PathBuf> {
        std::env::var_os("SEAM_CACHE_DIR")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("seam")))
            .or_else(|| std::env::var_os("HOME").map(|d| PathBuf::from(d).join(".cache").join("seam")))
    }

    pub fn content_hash(bytes: &[u8]) -> String {
        Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The content hash and compiled component of the component file at `path` (known as
    /// `name`); the outer error is a file that cannot be read, the inner one a file that is not a
    /// component.
    pub fn load_file(
        &self,
        engine: &Engine,
        name: &str,
        path: &Path,
    ) -> std::io::Result<(String, wasmtime::Result<Component>)> {
        // The identity is taken before the read: a file replaced in between is hashed as read
        // but remembered under the old identity, which no file has any more.
        let identity = identity(&std::fs::metadata(path)?);
        let memo = self.dir.as_ref().map(|dir| memo_path(dir, path));
        if let Some(hash) = memo.as_deref().and_then(|memo| remembered(memo, &identity)) {
            let compiled = self.dir.as_ref().map(|dir| self.entry(dir, &hash));
            if compiled.as_deref().is_some_and(Path::exists) {
                // The bytes are only read again when the entry turns out to be bad.
                return Ok((
                    hash.clone(),
                    self.load_with(engine, name, &hash, || std::fs::read(path)),
                ));
            }
        }
        let bytes = std::fs::read(path)?;
        let hash = Self::content_hash(&bytes);
        if let Some(memo) = memo {
            let _ = store(&memo, format!("{identity} {hash}").as_bytes());
        }
        let compiled = self.load(engine, name, &bytes, &hash);
        Ok((hash, compiled))
    }

    /// The compiled component for `bytes` (whose SHA-256 is `hash`), known as `name`.
    pub fn load(&self, engine: &Engine, name: &str, bytes: &[u8], hash: &str) -> wasmtime::Result<Component> {
        self.load_with(engine, name, hash, || Ok(bytes.to_vec()))
    }

    /// What a full load learned about the world with `key`, if one was recorded.
    pub fn recalled(&self, key: &str) -> Option<Vec<u8>> {
        std::fs::read(self.recollection(key)?).ok()
    }

    /// Record what a full load learned about the world with `key`; a failure only costs
    /// later processes the full load.
    pub fn remember(&self, key: &str, bytes: &[u8]) {
        if let Some(path) = self.recollection(key)
            && let Err(e) = store(&path, bytes)
        {
            self.cannot_write(&path, &e);
        }
    }

    fn recollection(&self, key: &str) -> Option<PathBuf> {
        let dir = self.dir.as_ref()?;
        Some(dir.join("worlds").join(format!("{key}-{}.json", self.engine_key)))
    }

    fn entry(&self, dir: &Path, hash: &str) -> PathBuf {
        dir.join(format!("{hash}-{}.cwasm", self.engine_key))
    }

    /// The cached entry for `hash`, else compile what `bytes` gives and cache it.
    fn load_with(
        &self,
        engine: &Engine,
        name: &str,
        hash: &str,
        bytes: impl FnOnce() -> std::io::Result<Vec<u8>>,
    ) -> wasmtime::Result<Component> {
        let Some(dir) = &self.dir else {
            return Component::new(engine, bytes()?);
        };
        let path = self.entry(dir, hash);
        if let Ok(meta) = std::fs::metadata(&path) {
            // SAFETY: the file is one this cache wrote with `serialize` for an engine with the
            // same compatibility hash (part of the name); a truncated or foreign file fails
            // deserialization's own checks and is recompiled below.
            match unsafe { Component::deserialize_file(engine, &path) } {
                Ok(component) => {
                    // Recently used entries are the ones eviction keeps.
                    crate::stored_file::mark_used(&path, &meta, TOUCH_AFTER);
                    return Ok(component);
                }
                Err(e) => {
                    tracing::warn!(path = %path.display(), "recompiling a bad cache entry: {e}")
                }
            }
        }
        // Compiling takes from a fraction of a second to several (an interpreter plugin): said
        // before it starts, so a first load is not a silent wait. Where nothing can be stored
        // it would be said on every run, after the warning that says why.
        if !self.warned_unwritable.load(Ordering::Relaxed) {
            tracing::info!(target: crate::lane::PROGRESS_LOG, "compiling {name}, once: later runs load it from the cache");
        }
        let component = Component::new(engine, bytes()?)?;
        match store(&path, &component.serialize()?) {
            Ok(()) => {
                if let Err(e) = evict(dir, MAX_BYTES, &path) {
                    tracing::warn!(dir = %dir.display(), "cannot trim the component cache: {e}");
                }
            }
            Err(e) => self.cannot_write(&path, &e),
        }
        Ok(component)
    }

    fn cannot_write(&self, path: &Path, e: &std::io::Error) {
        if !self.warned_unwritable.swap(true, Ordering::Relaxed) {
            tracing::warn!(
                path = %path.display(),
                "the component cache cannot be written ({e}): components are compiled again in every \
                 run; set SEAM_CACHE_DIR to a writable directory"
            );
        }
    }
}

/// Equal identities mean equal contents: any write changes the size, a time or the inode.
fn identity(meta: &std::fs::Metadata) -> String {
    let (mtime, ctime) = (meta.mtime_nsec(), meta.ctime_nsec());
    format!(
        "{}:{}:{}:{}.{mtime:09}:{}.{ctime:09}",
        meta.dev(),
        meta.ino(),
        meta.len(),
        meta.mtime(),
        meta.ctime()
    )
}

/// Where the hash of the component file at `path` is remembered.
fn memo_path(dir: &Path, path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let key = ComponentCache::content_hash(absolute.as_os_str().as_encoded_bytes());
    dir.join("files").join(key)
}

/// The hash remembered for a file that still has `identity`.
fn remembered(memo: &Path, identity: &str) -> Option<String> {
    let text = std::fs::read_to_string(memo).ok()?;
    let (seen, hash) = text.split_once(' ')?;
    (seen == identity).then(|| hash.to_string())
}

/// A cache file, written whole: concurrent seam processes never read half of one.
fn store(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    crate::stored_file::store(path, bytes, 0o666)
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
    use std::time::SystemTime;

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

    /// The smallest valid component: the preamble of an empty one.
    const EMPTY_COMPONENT: &[u8] = b"\0asm\x0d\0\x01\0";

    #[test]
    fn a_changed_file_is_hashed_again_and_an_unchanged_one_is_remembered() {
        let dir = tempfile::tempdir().unwrap();
        let engine = Engine::default();
        let cache = ComponentCache {
            dir: Some(dir.path().join("cache")),
            engine_key: "test".into(),
            warned_unwritable: AtomicBool::new(false),
        };
        let file = dir.path().join("plugin.wasm");
        std::fs::write(&file, EMPTY_COMPONENT).unwrap();
        let (hash, compiled) = cache.load_file(&engine, "plugin", &file).unwrap();
        assert_eq!(hash, ComponentCache::content_hash(EMPTY_COMPONENT));
        assert!(compiled.is_ok());
        let memo = memo_path(cache.dir.as_ref().unwrap(), &file);
        let identity = identity(&std::fs::metadata(&file).unwrap());
        assert_eq!(remembered(&memo, &identity), Some(hash.clone()));
        assert_eq!(cache.load_file(&engine, "plugin", &file).unwrap().0, hash);

        // Same length, new content: the identity changed, so the file is read and hashed again.
        std::fs::write(&file, b"not wasm").unwrap();
        // File times are coarse (a clock tick): say plainly that this write came later.
        let later = SystemTime::now() + Duration::from_secs(1);
        std::fs::File::open(&file).unwrap().set_modified(later).unwrap();
        let (changed, compiled) = cache.load_file(&engine, "plugin", &file).unwrap();
        assert_eq!(changed, ComponentCache::content_hash(b"not wasm"));
        assert!(compiled.is_err());
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
