//! A bounded byte scrollback addressed by offsets into the session's whole output stream.

use std::collections::VecDeque;

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
}

#[cfg(test)]
mod tests {
    use super::Scrollback;

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
