//! Reading regular files, whole or by range, with the metadata of the file actually read.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::Path;

use super::canonical::absolute;
use super::error::FsioError;
use super::metadata::{Kind, Metadata};

/// How often a whole-file read is retried when the file changes while it is read.
const READ_ATTEMPTS: u32 = 3;

pub struct Contents {
    pub data: Vec<u8>,
    /// Of the opened file, taken after the read, so data and version agree.
    pub metadata: Metadata,
}

/// A whole regular file, refused with TooLarge past `max` bytes without buffering beyond it.
pub fn read(path: &str, max: u64) -> Result<Contents, FsioError> {
    let path = absolute(path)?;
    for _ in 0..READ_ATTEMPTS {
        let (mut file, before) = open_regular(path)?;
        if before.size > max {
            return Err(too_large(path, before.size, max));
        }
        let mut data = Vec::with_capacity(usize::try_from(before.size).unwrap_or(0));
        (&mut file)
            .take(max.saturating_add(1))
            .read_to_end(&mut data)
            .map_err(|e| FsioError::io(path, e))?;
        let read = data.len() as u64;
        if read > max {
            return Err(too_large(path, read, max));
        }
        let after = metadata_of(&file, path)?;
        // An in-place writer changed it under us: the bytes may mix two versions.
        if after.version() == before.version() {
            return Ok(Contents { data, metadata: after });
        }
    }
    Err(FsioError::mismatch(path, "kept changing while it was read"))
}

pub struct Text {
    pub content: String,
    pub metadata: Metadata,
}

/// A whole regular file that is UTF-8 without NUL bytes.
pub fn read_text(path: &str, max: u64) -> Result<Text, FsioError> {
    let Contents { data, metadata } = read(path, max)?;
    let not_text = |reason: String| FsioError::NotText {
        path: path.to_owned(),
        reason,
    };
    // `contains` is the word-at-a-time memchr; the position is looked for only when it is there.
    if data.contains(&0) {
        let at = data.iter().position(|&b| b == 0).unwrap_or_default();
        return Err(not_text(format!("a NUL byte at offset {at}")));
    }
    let content = String::from_utf8(data)
        .map_err(|e| not_text(format!("invalid UTF-8 at offset {}", e.utf8_error().valid_up_to())))?;
    Ok(Text { content, metadata })
}

/// At most `max` bytes from `offset` (empty at end of file).
pub fn read_range(path: &str, offset: u64, max: u32) -> Result<Contents, FsioError> {
    let path = absolute(path)?;
    let (file, opened) = open_regular(path)?;
    // Sized by what is there, not by what was asked: `max` may be far larger than the file.
    let available = opened.size.saturating_sub(offset).min(u64::from(max));
    let mut data = vec![0; usize::try_from(available).unwrap_or(0)];
    let mut filled = 0;
    while filled < data.len() {
        match file.read_at(&mut data[filled..], offset + filled as u64) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(FsioError::io(path, e)),
        }
    }
    data.truncate(filled);
    Ok(Contents {
        data,
        metadata: metadata_of(&file, path)?,
    })
}

/// Open a regular file for reading. The kind is checked by path first so a device is never
/// opened (opening some has side effects), the open does not block (a fifo swapped in after
/// the check would wait for a writer forever), and the opened file is checked again.
fn open_regular(path: &Path) -> Result<(File, Metadata), FsioError> {
    let meta = std::fs::metadata(path).map_err(|e| FsioError::io(path, e))?;
    require_regular(path, &Metadata::of(&meta))?;
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|e| FsioError::io(path, e))?;
    let meta = metadata_of(&file, path)?;
    require_regular(path, &meta)?;
    Ok((file, meta))
}

pub(super) fn require_regular(path: &Path, meta: &Metadata) -> Result<(), FsioError> {
    match meta.kind {
        Kind::File => Ok(()),
        Kind::Dir => Err(FsioError::IsADirectory(path.display().to_string())),
        kind => Err(FsioError::NotAFile {
            path: path.display().to_string(),
            kind,
        }),
    }
}

pub(super) fn metadata_of(file: &File, path: &Path) -> Result<Metadata, FsioError> {
    file.metadata()
        .map(|meta| Metadata::of(&meta))
        .map_err(|e| FsioError::io(path, e))
}

fn too_large(path: &Path, size: u64, max: u64) -> FsioError {
    FsioError::TooLarge {
        path: path.display().to_string(),
        size,
        max,
    }
}
