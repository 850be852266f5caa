//! Output read as text in whole characters: where a character cut by a read starts and ends,
//! for offset reads (a reader paging through a stream by byte offsets never sees a character
//! cut in two), pipe reads and a collected stream's head and tail. Bulk output then crosses
//! the seams as one string instead of a list of bytes.

/// Bytes a text read takes past its limit: up to 3 that complete a character the limit would
/// cut, and 3 before it that a start inside a character skips.
pub const EXTRA_BYTES: usize = 6;

/// A text read of a stream, placed in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextRead {
    pub text: String,
    /// Offset of the first byte `text` stands for.
    pub start: u64,
    /// Offset to read from next.
    pub next: u64,
    /// Every byte to the stream's end is in `text`.
    pub eof: bool,
    /// Bytes that were not UTF-8 were replaced with U+FFFD; otherwise `text` is exactly the
    /// bytes from `start` to `next`, and positions in it are byte offsets.
    pub replaced: bool,
}

/// The whole characters among the first `limit` of the bytes `data` a read took from offset
/// `start`, asking for [`EXTRA_BYTES`] more than `limit`; `reached_end`: they are all the
/// stream has left.
pub fn text_read(data: &[u8], start: u64, limit: usize, reached_end: bool) -> TextRead {
    let (skipped, kept) = whole_characters(data, limit);
    let (text, replaced) = lossy(&data[skipped..skipped + kept]);
    let start = start + skipped as u64;
    TextRead {
        text,
        start,
        next: start + kept as u64,
        eof: reached_end && skipped + kept == data.len(),
        replaced,
    }
}

/// `bytes` as text, and whether any were not UTF-8 (and were replaced with U+FFFD).
pub fn lossy(bytes: &[u8]) -> (String, bool) {
    match String::from_utf8_lossy(bytes) {
        std::borrow::Cow::Borrowed(valid) => (valid.to_owned(), false),
        std::borrow::Cow::Owned(replaced) => (replaced, true),
    }
}

/// How many bytes at the start of `data` are the rest of a character that began before it: at
/// most 3, as UTF-8 sequences are at most 4 bytes.
pub fn cut_start(data: &[u8]) -> usize {
    data.iter().take(3).take_while(|&&byte| is_continuation(byte)).count()
}

fn is_continuation(byte: u8) -> bool {
    byte & 0b1100_0000 == 0b1000_0000
}

/// The length of the longest prefix of `data` that does not end inside a character: a
/// truncated UTF-8 sequence at the end may still be completed by the next read.
pub fn without_cut_end(data: &[u8]) -> usize {
    // The last character starts at most 3 bytes before the end; continuation bytes are 10xxxxxx.
    for back in 1..=data.len().min(4) {
        let first = data[data.len() - back];
        if !is_continuation(first) {
            return if width(first) > back {
                data.len() - back
            } else {
                data.len()
            };
        }
    }
    data.len()
}

/// The length of the UTF-8 sequence `lead` starts (1 for a byte that starts none).
fn width(lead: u8) -> usize {
    match lead {
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    }
}

/// Where the whole characters of the first `limit` bytes of `data` lie, as (bytes to skip,
/// bytes to keep): a read that starts inside a character skips its continuation bytes, and one
/// that ends inside a character leaves it to the next read. When the limit is narrower than the
/// first character, that character is kept whole if `data` holds it, else as it is: a reader
/// always moves on.
fn whole_characters(data: &[u8], limit: usize) -> (usize, usize) {
    let skipped = cut_start(data);
    let rest = &data[skipped..];
    let kept = without_cut_end(&rest[..rest.len().min(limit)]);
    if kept > 0 {
        return (skipped, kept);
    }
    let first = rest.first().map_or(0, |&lead| width(lead));
    if first > 0 && rest.len() >= first && rest[1..first].iter().all(|&byte| is_continuation(byte)) {
        return (skipped, first);
    }
    (0, data.len().min(limit.max(1)))
}

#[cfg(test)]
mod tests {
    use super::{text_read, whole_characters, without_cut_end};

    #[test]
    fn a_cut_character_is_held_back_and_a_whole_one_is_not() {
        let text = "aé€😀".as_bytes(); // 1 + 2 + 3 + 4 bytes
        assert_eq!(without_cut_end(text), text.len());
        for cut in [2, 4, 5, 7, 8, 9] {
            let whole = without_cut_end(&text[..cut]);
            assert!(std::str::from_utf8(&text[..whole]).is_ok(), "cut at {cut}");
            assert!(cut - whole < 4 && whole < cut, "cut at {cut} kept {whole}");
        }
        assert_eq!(without_cut_end(b"ab\xff"), 3, "an invalid byte is not waited for");
        assert_eq!(without_cut_end(b""), 0);
    }

    #[test]
    fn reads_keep_to_whole_characters() {
        let text = "日本語".as_bytes();
        assert_eq!(whole_characters(text, 4), (0, 3), "a cut end waits for the next read");
        assert_eq!(whole_characters(&text[3..], 99), (0, 6));
        assert_eq!(whole_characters(&text[4..], 99), (2, 3), "a cut start is skipped");
        assert_eq!(
            whole_characters(&text[4..], 3),
            (2, 3),
            "the limit counts from the skip"
        );
        assert_eq!(whole_characters(b"ascii", 99), (0, 5));
        assert_eq!(whole_characters(b"ascii", 2), (0, 2));
        assert_eq!(
            whole_characters(text, 1),
            (0, 3),
            "a limit narrower than the first character keeps it whole"
        );
        assert_eq!(
            whole_characters(&text[..2], 1),
            (0, 1),
            "one cut character with no more to read moves on"
        );
        assert_eq!(
            whole_characters(b"a\xff", 99),
            (0, 2),
            "an invalid byte is no cut character"
        );
    }

    #[test]
    fn text_is_the_kept_bytes_and_says_when_it_replaced_some() {
        let read = text_read(&"日本語".as_bytes()[1..], 1, 5, false);
        assert_eq!(
            (read.text.as_str(), read.start, read.next, read.replaced),
            ("本", 3, 6, false)
        );
        let read = text_read(b"a\xffb", 0, 99, true);
        assert_eq!(
            (read.text.as_str(), read.next, read.eof, read.replaced),
            ("a\u{fffd}b", 3, true, true)
        );
    }
}
