//! The Landlock launcher binary, built from `landlock-launcher/` and carried inside the host.
//! Each command confined with Landlock starts behind it, so it must load fast: the seam binary
//! itself takes over a millisecond more to exec (decision 0024). It is installed on first use
//! under the cache directory, named by its content hash, so seam processes of one build share
//! one file and a rebuilt launcher gets a new one. Launchers of other builds left unused for a
//! month are removed; one removed while its process still runs is installed again.

use crate::stored_file;
use nix::sys::statvfs::{FsFlags, statvfs};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

static BINARY: &[u8] = include_bytes!(env!("SEAM_LANDLOCK_LAUNCHER"));
/// The start of the binary's SHA-256, computed by the build.
const HASH: &str = env!("SEAM_LANDLOCK_LAUNCHER_HASH");
/// Launchers unused this long are removed when a process installs its own.
const UNUSED_FOR: Duration = Duration::from_secs(30 * 24 * 3600);
/// A launcher in use is marked so at most this often.
const MARK_EVERY: Duration = Duration::from_secs(3600);

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

    /// The launcher's path, installing it the first time this process asks, and again when it
    /// has been removed since.
    pub fn path(&self) -> Result<PathBuf, String> {
        let Some(dir) = &self.dir else {
            return Err("there is no cache directory to install the Landlock launcher in: set SEAM_CACHE_DIR".into());
        };
        let path = self.installed.get_or_init(|| install(dir)).clone()?;
        match std::fs::metadata(&path) {
            Ok(meta) if meta.len() == BINARY.len() as u64 => {
                stored_file::mark_used(&path, &meta, MARK_EVERY);
                Ok(path)
            }
            _ => install(dir),
        }
    }
}

/// The launcher in `dir` (refused on a noexec filesystem): the file already there when its
/// bytes are the carried ones, else a new one stored whole over it. Then launchers of other
/// builds unused for a month go.
fn install(dir: &Path) -> Result<PathBuf, String> {
    let name = format!("seam-landlock-launcher-{HASH}");
    let path = dir.join(&name);
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
    if !std::fs::read(&path).is_ok_and(|bytes| bytes == BINARY) {
        stored_file::store(&path, BINARY, 0o755).map_err(failed)?;
    }
    prune(dir, &name, UNUSED_FOR);
    Ok(path)
}

/// Remove what else is in `dir` (other builds' launchers, staging files a crash left) when
/// unmarked for `unused_for`: a process still using a launcher marks it hourly, and installs
/// it again should it be gone. Best effort.
fn prune(dir: &Path, keep: &str, unused_for: Duration) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let unused = entry
            .metadata()
            .and_then(|meta| meta.modified())
            .is_ok_and(|at| at.elapsed().is_ok_and(|age| age > unused_for));
        if unused && entry.file_name() != keep {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn installs_once_and_replaces_a_damaged_copy() {
        let dir = tempfile::tempdir().unwrap();
        let launcher = Launcher::carried(Some(dir.path().to_path_buf()));
        let path = launcher.path().unwrap();
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

    fn aged(path: &Path, days: u64) {
        let when = std::time::SystemTime::now() - Duration::from_secs(days * 24 * 3600);
        std::fs::File::open(path).unwrap().set_modified(when).unwrap();
    }

    #[test]
    fn launchers_unused_for_a_month_are_pruned_and_one_in_use_is_marked() {
        let dir = tempfile::tempdir().unwrap();
        let launchers = dir.path().join("launcher");
        std::fs::create_dir_all(&launchers).unwrap();
        let old = launchers.join("seam-landlock-launcher-0ld");
        let recent = launchers.join("seam-landlock-launcher-2ecent");
        let crashed = launchers.join(".123.0.seam-landlock-launcher-0ld");
        for (path, days) in [(&old, 31), (&recent, 29), (&crashed, 40)] {
            std::fs::write(path, b"another build").unwrap();
            aged(path, days);
        }
        let launcher = Launcher::carried(Some(dir.path().to_path_buf()));
        let ours = launcher.path().unwrap();
        assert!(!old.exists() && !crashed.exists());
        assert!(recent.exists() && ours.exists());

        // Unmarked for two days, then used: marked again.
        aged(&ours, 2);
        launcher.path().unwrap();
        let age = std::fs::metadata(&ours).unwrap().modified().unwrap().elapsed().unwrap();
        assert!(age < MARK_EVERY, "{age:?}");
    }

    #[test]
    fn a_launcher_removed_while_in_use_is_installed_again() {
        let dir = tempfile::tempdir().unwrap();
        let launcher = Launcher::carried(Some(dir.path().to_path_buf()));
        let path = launcher.path().unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(launcher.path().unwrap(), path);
        assert_eq!(std::fs::read(&path).unwrap(), BINARY);
    }

    #[test]
    fn without_a_cache_directory_it_says_how_to_get_one() {
        let launcher = Launcher::carried(None);
        assert!(launcher.path().is_err_and(|e| e.contains("SEAM_CACHE_DIR")));
    }
}
