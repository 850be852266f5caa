//! The Landlock launcher binary, built from `landlock-launcher/` and carried inside the host.
//! Each command confined with Landlock starts behind it, so it must load fast: the seam binary
//! itself takes over a millisecond more to exec (decision 0024). It is installed on first use
//! under the cache directory, named by its content hash, so seam processes of one build share
//! one file and a rebuilt launcher gets a new one.

use nix::sys::statvfs::{FsFlags, statvfs};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

static BINARY: &[u8] = include_bytes!(env!("SEAM_LANDLOCK_LAUNCHER"));
/// The start of the binary's SHA-256, computed by the build.
const HASH: &str = env!("SEAM_LANDLOCK_LAUNCHER_HASH");

/// The carried launcher, installed on first use.
pub struct Launcher {
    /// `launcher/` in the cache directory; None when there is none, which leaves Landlock
    /// unusable.
    dir: Option<PathBuf>,
    installed: OnceLock<Result<PathBuf, String>>,
}

impl Launcher {
    /// The launcher to install under `cache_dir` (the compiled components' cache directory).
    pub fn carried(cache_dir: Option<PathBuf>) -> Self {
        Self {
            dir: cache_dir.map(|dir| dir.join("launcher")),
            installed: OnceLock::new(),
        }
    }

    /// The launcher's path, installing it the first time this process asks.
    pub fn path(&self) -> Result<&Path, &str> {
        let installed = self.installed.get_or_init(|| match &self.dir {
            Some(dir) => install(dir),
            None => Err("there is no cache directory to install the Landlock launcher in: set SEAM_CACHE_DIR".into()),
        });
        installed.as_deref().map_err(String::as_str)
    }
}

/// The launcher in `dir` (refused on a noexec filesystem): the file already there when its
/// bytes are the carried ones, else a new one stored whole over it.
fn install(dir: &Path) -> Result<PathBuf, String> {
    let path = dir.join(format!("seam-landlock-launcher-{HASH}"));
    let failed = |e: std::io::Error| format!("cannot install the Landlock launcher in {}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(failed)?;
    // Installed there, it could not run: say so now, not as a permission error at each launch.
    if statvfs(dir).is_ok_and(|fs| fs.flags().contains(FsFlags::ST_NOEXEC)) {
        return Err(format!(
            "cannot install the Landlock launcher in {}: its filesystem is mounted noexec; set \
             SEAM_CACHE_DIR to a directory where programs may run",
            dir.display()
        ));
    }
    if std::fs::read(&path).is_ok_and(|bytes| bytes == BINARY) {
        return Ok(path);
    }
    crate::stored_file::store(&path, BINARY, 0o755).map_err(failed)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn installs_once_and_replaces_a_damaged_copy() {
        let dir = tempfile::tempdir().unwrap();
        let launcher = Launcher::carried(Some(dir.path().to_path_buf()));
        let path = launcher.path().unwrap().to_path_buf();
        assert_eq!(std::fs::read(&path).unwrap(), BINARY);
        let output = std::process::Command::new(&path).output().unwrap();
        assert_eq!(
            output.status.code(),
            Some(i32::from(seam_landlock_launcher::FATAL_EXIT))
        );

        std::fs::write(&path, b"damaged").unwrap();
        assert_eq!(install(&dir.path().join("launcher")).unwrap(), path);
        assert_eq!(std::fs::read(&path).unwrap(), BINARY);
    }

    #[test]
    fn a_noexec_cache_directory_is_refused_with_what_to_do() {
        let dir = tempfile::tempdir().unwrap();
        let mounted = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", "noexec,size=4m", "seam-noexec-test"])
            .arg(dir.path())
            .output();
        match mounted {
            Ok(out) if out.status.success() => {}
            // Mounting needs root (CI and this project's machines have it); say why it was skipped.
            Ok(out) => {
                return eprintln!(
                    "skipped: cannot mount a tmpfs: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
            Err(e) => return eprintln!("skipped: cannot run mount: {e}"),
        }
        let refused = install(&dir.path().join("launcher"));
        let _ = std::process::Command::new("umount").arg(dir.path()).status();
        let refused = refused.unwrap_err();
        assert!(
            refused.contains("noexec") && refused.contains("SEAM_CACHE_DIR"),
            "{refused}"
        );
    }

    #[test]
    fn without_a_cache_directory_it_says_how_to_get_one() {
        let launcher = Launcher::carried(None);
        assert!(launcher.path().is_err_and(|e| e.contains("SEAM_CACHE_DIR")));
    }
}
