//! Creating and removing directory entries.

use std::os::unix::fs::DirBuilderExt;

use super::canonical::absolute;
use super::error::FsioError;

/// Create a directory and its missing ancestors (0755); an existing directory is fine.
pub fn mkdir(path: &str) -> Result<(), FsioError> {
    let path = absolute(path)?;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o755)
        .create(path)
        .map_err(|e| FsioError::io(path, e))?;
    // `create_dir_all` accepts an existing file only to fail later: say what is there.
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(FsioError::NotADirectory(path.display().to_string())),
        Err(e) => Err(FsioError::io(path, e)),
    }
}

/// Remove a file, a symlink (not what it points to) or an empty directory; never recursive.
pub fn remove(path: &str) -> Result<(), FsioError> {
    let path = absolute(path)?;
    let meta = std::fs::symlink_metadata(path).map_err(|e| FsioError::io(path, e))?;
    let removed = if meta.is_dir() {
        std::fs::remove_dir(path)
    } else {
        std::fs::remove_file(path)
    };
    removed.map_err(|e| FsioError::io(path, e))
}
