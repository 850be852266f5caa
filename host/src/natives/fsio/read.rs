//! Reading regular files, whole or by range, with the metadata of the file actually read.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::Path;

use super::canonical::absolute;
use super::error::FsioError;
use super::metadata::{Kind, Metadata};
use super::text_check::TextCheck;
use super::utf16::{self, ByteOrder};

/// How often a whole-file read is retried when the file changes while it is read.
const READ_ATTEMPTS: u32 = 3;

pub struct Contents {
    pub data: Vec<u8>,
    /// Of the opened file, taken after the read, so data and version agree.
    pub metadata: Metadata,
}

/// Bytes read per `read(2)`: small enough that a chunk is still in cache when it is scanned.
const CHUNK: u64 = 256 << 10;

/// A whole regular file, refused with TooLarge past `max` bytes without buffering beyond it.
pub fn read(path: &str, max: u64) -> Result<Contents, FsioError> {
    read_scanned(path, max, |_: &mut (), _| {}).map(|(contents, ())| contents)
}

pub struct Text {
    pub content: String,
    pub encoding: TextEncoding,
    pub metadata: Metadata,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextEncoding {
    Utf8,
    Utf16(ByteOrder),
}

/// A whole regular file that is text without NUL characters: UTF-8, or UTF-16 with its byte
/// order mark.
pub fn read_text(path: &str, max: u64) -> Result<Text, FsioError> {
    let (Contents { data, metadata }, check) = read_scanned(path, max, TextCheck::advance)?;
    let not_text = |reason| FsioError::NotText {
        path: path.to_owned(),
        reason,
    };
    // The UTF-8 scan of a UTF-16 file stops at its mark, whose bytes are never UTF-8.
    if let Some(order) = ByteOrder::of_mark(&data) {
        return Ok(Text {
            content: utf16::decode(&data, order).map_err(not_text)?,
            encoding: TextEncoding::Utf16(order),
            metadata,
        });
    }
    check.verdict(&data).map_err(not_text)?;
    // SAFETY: the verdict is Ok only when every byte of `data` was checked to be UTF-8.
    let content = unsafe { String::from_utf8_unchecked(data) };
    Ok(Text {
        content,
        encoding: TextEncoding::Utf8,
        metadata,
    })
}

/// A whole file read in chunks, `scan` called after each with every byte read so far. A read
/// retried because the file changed starts from a new scan state.
fn read_scanned<S: Default>(path: &str, max: u64, scan: impl Fn(&mut S, &[u8])) -> Result<(Contents, S), FsioError> {
    let path = absolute(path)?;
    for _ in 0..READ_ATTEMPTS {
        let (mut file, before) = open_regular(path)?;
        if before.size > max {
            return Err(too_large(path, before.size, max));
        }
        let mut data = Vec::with_capacity(usize::try_from(before.size).unwrap_or(0));
        let mut state = S::default();
        let mut bounded = (&mut file).take(max.saturating_add(1));
        loop {
            let got = (&mut bounded)
                .take(CHUNK)
                .read_to_end(&mut data)
                .map_err(|e| FsioError::io(path, e))?;
            if got == 0 {
                break;
            }
            scan(&mut state, &data);
        }
        let read = data.len() as u64;
        if read > max {
            return Err(too_large(path, read, max));
        }
        let after = metadata_of(&file, path)?;
        // An in-place writer changed it under us: the bytes may mix two versions.
        if after.version() == before.version() {
            return Ok((Contents { data, metadata: after }, state));
        }
    }
    Err(FsioError::mismatch(path, "kept changing while it was read"))
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
