//! Compiled components cached on disk, keyed by content hash and engine compatibility, so a
//! component is compiled once per machine and later loads deserialize in well under a ms.

use sha2::{Digest, Sha256};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use wasmtime::Engine;
use wasmtime::component::Component;

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
                Ok(component) => return Ok(component),
                Err(e) => {
                    tracing::warn!(path = %path.display(), "recompiling a bad cache entry: {e}")
                }
            }
        }
        let component = Component::new(engine, bytes)?;
        if let Err(e) = store(&path, &component.serialize()?) {
            tracing::warn!(path = %path.display(), "cannot cache a compiled component: {e}");
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
