//! The seam's `text-stream`: a file read in chunks, every chunk checked against the version
//! seen at open so a stream never mixes two versions of a file.

use std::cell::Cell;

use crate::bindings::exports::seam::fs::fs::GuestTextStream;
use crate::bindings::seam::fs::types::Error;
use crate::bindings::seam::host::fsio::{self, TextEncoding};
use crate::{encoding, errors, text};

/// Smallest chunk that can always hold one whole character (UTF-8, or a UTF-16 surrogate pair).
const MIN_CHUNK: u32 = 4;

pub struct LocalTextStream {
    path: String,
    version: String,
    encoding: TextEncoding,
    /// Byte offset of the next chunk: always on a character boundary.
    offset: Cell<u64>,
}

impl LocalTextStream {
    /// Opened by reading the byte order mark's place: that checks the file is a regular one and
    /// gives its version and encoding.
    pub fn open(path: String) -> Result<Self, Error> {
        let opened = fsio::read_range(&path, 0, 2).map_err(errors::from_host)?;
        Ok(Self {
            path,
            version: opened.metadata.version,
            encoding: encoding::of_start(&opened.data),
            offset: Cell::new(0),
        })
    }
}

impl GuestTextStream for LocalTextStream {
    fn version(&self) -> String {
        self.version.clone()
    }

    fn read(&self, max_bytes: u32) -> Result<Option<String>, Error> {
        let max_bytes = max_bytes.max(MIN_CHUNK);
        let chunk = fsio::read_range(&self.path, self.offset.get(), max_bytes).map_err(errors::from_host)?;
        if chunk.metadata.version != self.version {
            return Err(errors::error(
                errors::VERSION_MISMATCH,
                format!("{} changed while it was being read", self.path),
            ));
        }
        if chunk.data.is_empty() {
            return Ok(None);
        }
        let at_end = chunk.data.len() < max_bytes as usize;
        let (text, taken) = text::complete_prefix(chunk.data, self.offset.get(), at_end, self.encoding, &self.path)?;
        self.offset.set(self.offset.get() + taken as u64);
        Ok(Some(text))
    }
}
