//! A model edits files as `read` shows them, and `read` shows lines without their `\r`. So in a
//! file whose lines end with `\r\n`, a multi-line `old_string` copied from `read` would never
//! match, and a multi-line `new_string` would leave lines ending with `\n` among the `\r\n`
//! ones; a whole file written back would turn every line end into `\n`. An edit's strings, and
//! content written over such a file, are written with the file's own line ends instead.

use std::borrow::Cow;

use crate::bindings::seam::fs::fs;
use crate::bindings::seam::fs::types::{Edit, Target};

/// The file's start is read a chunk at a time until it holds a line end (a first line can be
/// long), up to this many bytes; the line ends in it decide. Chunks start small (most files
/// have a line end early, and a write checks the file it replaces) and double.
const SAMPLE_BYTES: usize = 64 * 1024;
const FIRST_CHUNK_BYTES: u32 = 1024;
const CHUNK_BYTES: u32 = 16 * 1024;

/// True when most line ends in the start of the file at `target` are `\r\n`. A file that
/// cannot be read says false: the edit itself then reports why.
pub fn file_uses_crlf(target: &Target) -> bool {
    let Ok(stream) = fs::stream_text(target) else {
        return false;
    };
    let mut sample = String::new();
    let mut chunk_bytes = FIRST_CHUNK_BYTES;
    while sample.len() < SAMPLE_BYTES && !sample.contains('\n') {
        match stream.read(chunk_bytes) {
            Ok(Some(chunk)) => sample.push_str(&chunk),
            Ok(None) | Err(_) => break,
        }
        chunk_bytes = (chunk_bytes * 2).min(CHUNK_BYTES);
    }
    mostly_crlf(&sample)
}

/// True when more of `text`'s line ends are `\r\n` than a bare `\n`.
fn mostly_crlf(text: &str) -> bool {
    let ends = text.matches('\n').count();
    let crlf = text.matches("\r\n").count();
    crlf > ends - crlf
}

/// `content` to write over the file at `target`: with `\r\n` line ends when the file uses
/// them and the content has only bare line feeds (content with any `\r` is taken as given).
pub fn as_file_ends<'a>(content: &'a str, target: &Target) -> Cow<'a, str> {
    // The file first: most files replaced use bare line feeds, and then the content need not
    // be searched to its end for a `\r` (byte searches: a `str` pattern is slower in a guest).
    let bytes = content.as_bytes();
    if bytes.contains(&b'\n') && file_uses_crlf(target) && !bytes.contains(&b'\r') {
        Cow::Owned(to_crlf(content))
    } else {
        Cow::Borrowed(content)
    }
}

/// `edit` with both strings' line ends written as `\r\n`.
pub fn with_crlf(edit: &Edit) -> Edit {
    Edit {
        old: to_crlf(&edit.old),
        new: to_crlf(&edit.new),
        replace_all: edit.replace_all,
    }
}

/// `text` with every `\n` not already after a `\r` written as `\r\n`.
fn to_crlf(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut after_cr = false;
    for c in text.chars() {
        if c == '\n' && !after_cr {
            out.push('\r');
        }
        after_cr = c == '\r';
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commoner_line_end_decides() {
        assert!(mostly_crlf("a\r\nb\r\n"));
        assert!(mostly_crlf("a\r\nb\r\nc\n"));
        assert!(!mostly_crlf("a\nb\r\nc\n"));
        assert!(!mostly_crlf("a\nb\n"));
        assert!(!mostly_crlf("one line, no end"));
        assert!(!mostly_crlf(""));
    }

    #[test]
    fn bare_line_feeds_gain_a_carriage_return() {
        assert_eq!(to_crlf("a\nb\n"), "a\r\nb\r\n");
        assert_eq!(to_crlf("a\r\nb\nc"), "a\r\nb\r\nc");
        assert_eq!(to_crlf("\n\n"), "\r\n\r\n");
        assert_eq!(to_crlf("no line end"), "no line end");
        assert_eq!(to_crlf("lone \r stays\n"), "lone \r stays\r\n");
    }
}
