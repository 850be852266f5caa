//! A bounded byte scrollback addressed by offsets into the session's whole output stream.

use std::collections::VecDeque;

use crate::natives::whole_text::{EXTRA_BYTES, text_read};

/// What one offset read returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    pub data: Vec<u8>,
    /// Offset of `data[0]`; later than asked when `lossy`.
    pub start: u64,
    pub next: u64,
    /// The asked offset slid out of the scrollback.
    pub lossy: bool,
    /// The output stream ended and every byte up to `next` was returned.
    pub eof: bool,
}

/// What one offset read as text returns: whole characters only (see [`text_read`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextChunk {
    pub text: String,
    /// Offset of the first byte `text` stands for; later than asked when `lossy`.
    pub start: u64,
    pub next: u64,
    pub lossy: bool,
    pub eof: bool,
    /// Bytes that were not UTF-8 were replaced with U+FFFD; otherwise `text` is exactly the
    /// bytes from `start` to `next`.
    pub replaced: bool,
}

pub(super) struct Scrollback {
    bytes: VecDeque<u8>,
    /// Stream offset of `bytes[0]`.
    first: u64,
    capacity: usize,
    ended: bool,
}

impl Scrollback {
    pub(super) fn new(capacity: usize) -> Self {
        Self {
            bytes: VecDeque::new(),
            first: 0,
            capacity,
            ended: false,
        }
    }

    pub(super) fn push(&mut self, data: &[u8]) {
        self.bytes.extend(data);
        let excess = self.bytes.len().saturating_sub(self.capacity);
        if excess > 0 {
            self.bytes.drain(..excess);
            self.first += excess as u64;
        }
    }

    pub(super) fn end_stream(&mut self) {
        self.ended = true;
    }

    pub(super) fn end(&self) -> u64 {
        self.first + self.bytes.len() as u64
    }

    pub(super) fn read(&self, from: u64, max: usize) -> Chunk {
        let lossy = from < self.first;
        let start = from.clamp(self.first, self.end());
        let skip = (start - self.first) as usize;
        let data: Vec<u8> = self.bytes.range(skip..).take(max).copied().collect();
        let next = start + data.len() as u64;
        Chunk {
            eof: self.ended && next == self.end(),
            data,
            start,
            next,
            lossy,
        }
    }

    /// [`read`](Self::read) as text, of at most `max` bytes.
    pub(super) fn read_text(&self, from: u64, max: usize) -> TextChunk {
        let chunk = self.read(from, max.saturating_add(EXTRA_BYTES));
        let read = text_read(&chunk.data, chunk.start, max, chunk.eof);
        TextChunk {
            text: read.text,
            start: read.start,
            next: read.next,
            lossy: chunk.lossy,
            eof: read.eof,
            replaced: read.replaced,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Scrollback;

    #[test]
    fn text_reads_skip_a_cut_start_and_leave_a_cut_end() {
        let mut s = Scrollback::new(64);
        s.push("ab日本".as_bytes());
        let c = s.read_text(3, 4);
        assert_eq!(
            (c.text.as_str(), c.start, c.next, c.lossy, c.eof),
            ("本", 5, 8, false, false)
        );
        let c = s.read_text(0, 4);
        assert_eq!((c.text.as_str(), c.next), ("ab", 2));
        s.push(b"\xff");
        s.end_stream();
        let c = s.read_text(8, 10);
        assert_eq!((c.text.as_str(), c.replaced, c.eof), ("\u{fffd}", true, true));
    }

    #[test]
    fn old_bytes_slide_out_and_reads_report_it() {
        let mut s = Scrollback::new(4);
        s.push(b"abcdef");
        let c = s.read(0, 10);
        assert_eq!(
            (c.data.as_slice(), c.start, c.next, c.lossy, c.eof),
            (&b"cdef"[..], 2, 6, true, false)
        );
        let c = s.read(3, 2);
        assert_eq!((c.data.as_slice(), c.start, c.next, c.lossy), (&b"de"[..], 3, 5, false));
        s.end_stream();
        assert!(s.read(4, 10).eof);
        assert!(!s.read(4, 1).eof);
        assert_eq!(s.read(99, 1).next, 6);
    }
}
