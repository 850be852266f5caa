//! A bounded window over the most recent bytes of a stream.

use std::collections::VecDeque;

pub(super) struct TailWindow {
    bytes: VecDeque<u8>,
    capacity: usize,
}

impl TailWindow {
    pub(super) fn new(capacity: usize) -> Self {
        Self {
            bytes: VecDeque::new(),
            capacity,
        }
    }

    pub(super) fn capacity(&self) -> usize {
        self.capacity
    }

    pub(super) fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Appends `data`, dropping the oldest bytes beyond the capacity.
    pub(super) fn push(&mut self, data: &[u8]) {
        let kept = &data[data.len().saturating_sub(self.capacity)..];
        let overflow = (self.bytes.len() + kept.len()).saturating_sub(self.capacity);
        self.bytes.drain(..overflow);
        self.bytes.extend(kept);
    }

    /// Copies up to `max` bytes starting `offset` bytes into the window.
    pub(super) fn copy_out(&self, offset: usize, max: usize) -> Vec<u8> {
        let start = offset.min(self.bytes.len());
        let end = start.saturating_add(max).min(self.bytes.len());
        let (front, back) = self.bytes.as_slices();
        let mut out = Vec::with_capacity(end - start);
        if start < front.len() {
            out.extend_from_slice(&front[start..end.min(front.len())]);
        }
        if end > front.len() {
            let back_start = start.saturating_sub(front.len());
            out.extend_from_slice(&back[back_start..end - front.len()]);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::TailWindow;

    fn contents(window: &TailWindow) -> Vec<u8> {
        window.copy_out(0, usize::MAX)
    }

    #[test]
    fn keeps_only_the_last_capacity_bytes() {
        let mut window = TailWindow::new(5);
        window.push(b"abc");
        window.push(b"defg");
        assert_eq!(contents(&window), b"cdefg");
        window.push(b"0123456789");
        assert_eq!(contents(&window), b"56789");
    }

    #[test]
    fn copies_ranges_across_the_ring_seam() {
        let mut window = TailWindow::new(6);
        for chunk in [&b"abcd"[..], b"ef", b"gh", b"ij"] {
            window.push(chunk);
        }
        assert_eq!(contents(&window), b"efghij");
        assert_eq!(window.copy_out(1, 3), b"fgh");
        assert_eq!(window.copy_out(4, 10), b"ij");
        assert_eq!(window.copy_out(9, 10), b"");
    }

    #[test]
    fn zero_capacity_keeps_nothing() {
        let mut window = TailWindow::new(0);
        window.push(b"abc");
        assert_eq!(window.len(), 0);
    }
}
