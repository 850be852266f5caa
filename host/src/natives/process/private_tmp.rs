//! A program's own temporary directory: TMPDIR for a program that asked for one, removed with
//! everything in it once the program's tree is gone.
//!
//! Long-lived programs started for the host (language servers) create temporary files and
//! directories they never remove; in a directory of their own those go with them. A directory
//! is named after the host process that made it: when a host ends with such a program still
//! running (its supervisor then ends the tree), the next host that makes one removes it.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Once;

use super::spill::{create_private_dir_in, is_own_private_dir};

/// Names are `seam-tmp-<host pid>-<hex digits>`: never a spill directory's `seam-<hex digits>`,
/// so a spill sweep does not take one from a program that still runs.
const DIR_PREFIX: &str = "seam-tmp-";

/// Removes the directory when dropped.
pub(super) struct PrivateTmp {
    path: PathBuf,
}

impl PrivateTmp {
    /// A fresh directory (mode 0700) in the temp dir.
    pub(super) fn create() -> io::Result<Self> {
        let root = std::env::temp_dir();
        static SWEPT: Once = Once::new();
        SWEPT.call_once(|| remove_orphans(&root));
        let prefix = format!("{DIR_PREFIX}{}-", std::process::id());
        let path = create_private_dir_in(&root, &prefix)?;
        Ok(Self { path })
    }

    /// Sets `TMPDIR` in `env` to this directory, replacing any other value.
    pub(super) fn set_in(&self, env: &mut Vec<(String, String)>) {
        env.retain(|(name, _)| name != "TMPDIR");
        env.push(("TMPDIR".to_owned(), self.path.display().to_string()));
    }
}

impl Drop for PrivateTmp {
    fn drop(&mut self) {
        if let Err(err) = std::fs::remove_dir_all(&self.path)
            && err.kind() != io::ErrorKind::NotFound
        {
            tracing::warn!(path = %self.path.display(), error = %err, "cannot remove a private temporary directory");
        }
    }
}

/// Removes the private temporary directories in `root` that this user's hosts made and that
/// outlived them: the host named in the directory's name runs no more.
pub(super) fn remove_orphans(root: &Path) {
    let Ok(entries) = fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(host) = name.to_str().and_then(host_of) else {
            continue;
        };
        if is_own_private_dir(&entry) && !Path::new(&format!("/proc/{host}")).exists() {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// The host pid in a private temporary directory's name.
fn host_of(name: &str) -> Option<u32> {
    let (pid, digits) = name.strip_prefix(DIR_PREFIX)?.split_once('-')?;
    let hex = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_hexdigit());
    hex.then(|| pid.parse().ok()).flatten()
}
