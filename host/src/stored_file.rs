//! Files seam keeps for itself (compiled components and what its cache remembers, the Landlock
//! launcher), written whole: other processes and threads see the old file or the new one,
//! never part of one.

use std::fs::Metadata;
use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

/// Numbers this process's staging files: two threads may store the same path at once.
static NEXT_STAGING: AtomicU64 = AtomicU64::new(0);

/// Write `bytes` to `path` (its directory created), with `mode` before the umask: staged in a
/// dot file beside it, then renamed over it.
pub(crate) fn store(path: &Path, bytes: &[u8], mode: u32) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let staging = dir.join(format!(
        ".{}.{}.{}",
        std::process::id(),
        NEXT_STAGING.fetch_add(1, Ordering::Relaxed),
        path.file_name().unwrap_or_default().to_string_lossy()
    ));
    let written = std::fs::File::options()
        .write(true)
        .create_new(true)
        .mode(mode)
        .open(&staging)
        .and_then(|mut file| file.write_all(bytes))
        // The file is closed here, before the rename: one open for writing cannot be executed.
        .and_then(|()| std::fs::rename(&staging, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&staging);
    }
    written
}

/// Mark `path` (whose metadata is `meta`) as used now, when its mark (the modification time) is
/// older than `grain`: what removes seam's files by age keeps the ones in use. A coarse grain
/// spares most uses a metadata write. Best effort: a file that cannot be marked is only
/// removed sooner.
pub(crate) fn mark_used(path: &Path, meta: &Metadata, grain: Duration) {
    let stale = meta
        .modified()
        .map_or(true, |at| at.elapsed().map_or(true, |age| age > grain));
    if stale {
        let _ = std::fs::File::open(path).and_then(|f| f.set_modified(SystemTime::now()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn replaces_the_file_whole_and_leaves_no_staging_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/entry");
        store(&path, b"old", 0o644).unwrap();
        store(&path, b"new", 0o755).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o100, 0o100);
        let names: Vec<_> = std::fs::read_dir(dir.path().join("sub"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["entry"]);
    }
}
