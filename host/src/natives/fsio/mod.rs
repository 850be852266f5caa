//! Native file shim beneath fs-local: canonical identity, stat, reads that never block on a
//! fifo or open a device, directory listings, and atomic publication of new content serialized
//! per target. Linux only. Policy (fences, observations, what counts as text) is the
//! provider's; this layer answers for what the kernel does.

mod canonical;
mod error;
mod lines;
mod list;
mod locks;
mod metadata;
mod publish;
mod read;
mod staging;
mod text_check;
mod tree;
mod utf16;

#[cfg(test)]
mod tests;

pub use canonical::{canonicalize, is_within, temp_dir};
pub use error::FsioError;
pub use lines::{Lines, read_lines};
pub use list::{DirEntry, list_dir};
pub use metadata::{Kind, Metadata};
pub use publish::{Expect, Publisher, Written};
pub use read::{Contents, Text, TextEncoding, read, read_range, read_text};
pub use tree::{mkdir, remove};
pub use utf16::ByteOrder;

/// Metadata following symlinks.
pub fn stat(path: &str) -> Result<Metadata, FsioError> {
    let path = canonical::absolute(path)?;
    std::fs::metadata(path)
        .map(|meta| Metadata::of(&meta))
        .map_err(|e| FsioError::io(path, e))
}

/// Metadata of the final component itself, a symlink included.
pub fn lstat(path: &str) -> Result<Metadata, FsioError> {
    let path = canonical::absolute(path)?;
    std::fs::symlink_metadata(path)
        .map(|meta| Metadata::of(&meta))
        .map_err(|e| FsioError::io(path, e))
}
