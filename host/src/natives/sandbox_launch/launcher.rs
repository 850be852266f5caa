//! The Landlock launcher binary, built from `landlock-launcher/` and carried inside the host.
//! Each command confined with Landlock starts behind it, so it must load fast: the seam binary
//! itself takes over a millisecond more to exec (decision 0024). It is installed on first use
//! under the cache directory, named by its content hash, so seam processes of one build share
//! one file and a rebuilt launcher gets a new one.

use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt;
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

/// The launcher in `dir`: the file already there when its bytes are the carried ones, else a
/// new one written beside it and renamed over (concurrent installs leave one whole file).
fn install(dir: &Path) -> Result<PathBuf, String> {
    let path = dir.join(format!("seam-landlock-launcher-{HASH}"));
    if std::fs::read(&path).is_ok_and(|bytes| bytes == BINARY) {
        return Ok(path);
    }
    let failed = |e: std::io::Error| format!("cannot install the Landlock launcher in {}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(failed)?;
    let temp = dir.join(format!(".{}.seam-landlock-launcher", std::process::id()));
    let mut file = std::fs::File::options()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o755)
        .open(&temp)
        .map_err(failed)?;
    file.write_all(BINARY).map_err(failed)?;
    // Closed before anything can exec it: a file open for writing cannot be executed.
    drop(file);
    std::fs::rename(&temp, &path).map_err(failed)?;
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
    fn without_a_cache_directory_it_says_how_to_get_one() {
        let launcher = Launcher::carried(None);
        assert!(launcher.path().is_err_and(|e| e.contains("SEAM_CACHE_DIR")));
    }
}
