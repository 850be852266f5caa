//! The host's stat vocabulary in the seam's: kinds map one to one, times in milliseconds, and
//! the version passes through as the opaque string consumers compare.

use crate::bindings::seam::fs::types::{DirEntry, FileKind, Metadata};
use crate::bindings::seam::host::fsio;

impl From<fsio::Kind> for FileKind {
    fn from(kind: fsio::Kind) -> Self {
        match kind {
            fsio::Kind::File => Self::File,
            fsio::Kind::Dir => Self::Dir,
            fsio::Kind::Symlink => Self::Symlink,
            fsio::Kind::Fifo => Self::Fifo,
            fsio::Kind::CharDevice => Self::CharDevice,
            fsio::Kind::BlockDevice => Self::BlockDevice,
            fsio::Kind::Socket => Self::Socket,
            fsio::Kind::Other => Self::Other,
        }
    }
}

impl From<fsio::Metadata> for Metadata {
    fn from(meta: fsio::Metadata) -> Self {
        Self {
            kind: meta.kind.into(),
            size: meta.size,
            mtime_ms: meta.mtime_ns.div_euclid(1_000_000),
            mode: meta.mode,
            version: meta.version,
        }
    }
}

impl From<fsio::DirEntry> for DirEntry {
    fn from(entry: fsio::DirEntry) -> Self {
        Self {
            name: entry.name,
            kind: entry.kind.into(),
        }
    }
}
