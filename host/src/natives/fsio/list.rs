//! Directory listings.

use super::canonical::absolute;
use super::error::FsioError;
use super::metadata::Kind;
use super::staging;

pub struct DirEntry {
    pub name: String,
    /// Not followed: a symlink is a symlink.
    pub kind: Kind,
}

/// Entries sorted by name, without the staging directories of atomic writes (a writer that was
/// killed leaves one until the next write into the directory removes it). Names that are not
/// UTF-8 are shown lossily.
pub fn list_dir(path: &str) -> Result<Vec<DirEntry>, FsioError> {
    let path = absolute(path)?;
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(path).map_err(|e| FsioError::io(path, e))? {
        let entry = entry.map_err(|e| FsioError::io(path, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if staging::is_staging_name(&name) {
            continue;
        }
        let kind = entry
            .file_type()
            .map(Kind::of)
            .map_err(|e| FsioError::io(path.join(&name), e))?;
        entries.push(DirEntry { name, kind });
    }
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(entries)
}
