//! A window of a text file's lines: the whole file is read and checked as text, and only the
//! lines a reader shows are kept, so a large file is not copied into every component between
//! this shim and the reader.

use std::ops::Range;

use super::error::FsioError;
use super::metadata::Metadata;
use super::read::{Text, read_text};

pub struct Lines {
    /// The window's lines as they are in the file, line ends included.
    pub content: String,
    /// Lines follow the window.
    pub more: bool,
    /// The file's number of lines, known when the window reached the end of the file.
    pub line_count: Option<u64>,
    pub metadata: Metadata,
}

/// `count` lines of the text file at `path` from line `first` (1-based).
pub fn read_lines(path: &str, max: u64, first: u64, count: u32) -> Result<Lines, FsioError> {
    let Text { content, metadata, .. } = read_text(path, max)?;
    let window = window(&content, first, count);
    Ok(Lines {
        content: content[window.bytes].to_owned(),
        more: window.more,
        line_count: window.line_count,
        metadata,
    })
}

#[derive(Debug, PartialEq, Eq)]
pub(super) struct Window {
    pub bytes: Range<usize>,
    pub more: bool,
    pub line_count: Option<u64>,
}

/// Where lines `first..first + count` are in `text`. A line ends at `\n`; a last line without
/// one counts. Only the text up to the window's end is scanned.
pub(super) fn window(text: &str, first: u64, count: u32) -> Window {
    let bytes = text.as_bytes();
    // Just past the line that starts at `from`, or None when no line starts there.
    let line_end = |from: usize| {
        (from < bytes.len()).then(|| memchr::memchr(b'\n', &bytes[from..]).map_or(bytes.len(), |at| from + at + 1))
    };
    let (mut start, mut before) = (0, 0u64);
    while before + 1 < first {
        let Some(end) = line_end(start) else { break };
        start = end;
        before += 1;
    }
    let (mut end, mut taken) = (start, 0u64);
    while taken < u64::from(count) {
        let Some(next) = line_end(end) else { break };
        end = next;
        taken += 1;
    }
    let more = end < bytes.len();
    Window {
        bytes: start..end,
        more,
        line_count: (!more).then_some(before + taken),
    }
}
