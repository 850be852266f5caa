//! A collected stream as bounded text: the first bytes the collector kept (the head) and its
//! window of the last bytes (the tail), joined where they overlap.
//!
//! The two may overlap when the stream is shorter than head + tail, so the view is computed
//! from stream offsets. Every byte is accounted for: in the head, in the tail, or dropped.

use crate::natives::whole_text::{cut_start, lossy, without_cut_end};

/// The stream as text: `head` is empty unless bytes were dropped, and then `tail` alone is
/// the whole stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bounded {
    pub head: String,
    pub tail: String,
    pub total_bytes: u64,
    /// Bytes in neither `head` nor `tail`.
    pub dropped_bytes: u64,
    /// Bytes that were not UTF-8 were replaced with U+FFFD.
    pub replaced: bool,
}

/// `head` (the stream's first bytes) and `tail` (its bytes from `tail_start` to its end)
/// joined without overlap; invalid UTF-8 becomes U+FFFD.
pub(super) fn bound(head: &[u8], tail_start: u64, tail: &[u8]) -> Bounded {
    let total_bytes = tail_start + len(tail);
    let head_end = tail_start.min(len(head));
    let head = &head[..to_index(head_end, head.len())];

    if head_end == tail_start {
        let mut whole = Vec::with_capacity(head.len() + tail.len());
        whole.extend_from_slice(head);
        whole.extend_from_slice(tail);
        let (tail, replaced) = lossy(&whole);
        return Bounded {
            head: String::new(),
            tail,
            total_bytes,
            dropped_bytes: 0,
            replaced,
        };
    }

    // A gap: characters cut in half at its edges are dropped with it, not shown as U+FFFD.
    let head = &head[..without_cut_end(head)];
    let tail = &tail[cut_start(tail)..];
    let dropped_bytes = total_bytes - len(head) - len(tail);
    let ((head, head_replaced), (tail, tail_replaced)) = (lossy(head), lossy(tail));
    Bounded {
        head,
        tail,
        total_bytes,
        dropped_bytes,
        replaced: head_replaced || tail_replaced,
    }
}

fn len(bytes: &[u8]) -> u64 {
    u64::try_from(bytes.len()).unwrap_or(u64::MAX)
}

/// `offset` as an index into a buffer of `buffer_len` bytes (offset is at most that length).
fn to_index(offset: u64, buffer_len: usize) -> usize {
    usize::try_from(offset).map_or(buffer_len, |offset| offset.min(buffer_len))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounded(head: &str, tail_start: u64, tail: &str) -> Bounded {
        bound(head.as_bytes(), tail_start, tail.as_bytes())
    }

    #[test]
    fn short_stream_is_all_tail() {
        let view = bounded("hello", 0, "hello");
        assert_eq!(
            view,
            Bounded {
                head: "".into(),
                tail: "hello".into(),
                total_bytes: 5,
                dropped_bytes: 0,
                replaced: false,
            }
        );
    }

    #[test]
    fn overlapping_head_and_tail_join_without_repeating() {
        // 10 bytes, head budget 6, tail budget 6: tail starts at 4, head covers 0..6.
        let view = bounded("012345", 4, "456789");
        assert_eq!(view.head, "");
        assert_eq!(view.tail, "0123456789");
        assert_eq!((view.total_bytes, view.dropped_bytes), (10, 0));
    }

    #[test]
    fn adjacent_head_and_tail_join() {
        let view = bounded("0123", 4, "4567");
        assert_eq!(
            (view.head.as_str(), view.tail.as_str(), view.dropped_bytes),
            ("", "01234567", 0)
        );
    }

    #[test]
    fn gap_is_counted_as_dropped() {
        let view = bounded("0123", 10, "abcd");
        assert_eq!(
            view,
            Bounded {
                head: "0123".into(),
                tail: "abcd".into(),
                total_bytes: 14,
                dropped_bytes: 6,
                replaced: false,
            }
        );
    }

    #[test]
    fn characters_cut_at_the_gap_are_dropped_whole() {
        // "é" is two bytes, "€" three: the head ends inside "é", the tail starts inside "€".
        let view = bound(b"ab\xc3", 20, b"\x82\xacyz");
        assert_eq!((view.head.as_str(), view.tail.as_str()), ("ab", "yz"));
        assert_eq!((view.total_bytes, view.dropped_bytes), (24, 20));
    }

    #[test]
    fn complete_characters_at_the_gap_are_kept() {
        let view = bounded("aé", 10, "€b");
        assert_eq!((view.head.as_str(), view.tail.as_str()), ("aé", "€b"));
        assert_eq!(view.dropped_bytes, 10 - 3);
    }

    #[test]
    fn invalid_bytes_are_replaced() {
        let view = bound(b"", 0, b"a\xffb");
        assert_eq!(view.tail, "a\u{fffd}b");
        assert!(view.replaced);
    }

    #[test]
    fn a_replacement_character_printed_as_text_is_no_replacement() {
        let view = bounded("", 0, "a\u{fffd}b");
        assert_eq!((view.tail.as_str(), view.replaced), ("a\u{fffd}b", false));
        let gap = bound(b"\xffa", 10, "\u{fffd}".as_bytes());
        assert!(gap.replaced, "a byte replaced in the head counts");
    }
}
