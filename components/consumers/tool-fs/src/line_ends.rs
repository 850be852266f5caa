//! A model edits files as `read` shows them, and `read` shows lines without their `\r`. So in a
//! file whose lines end with `\r\n`, a multi-line `old_string` copied from `read` would never
//! match, and a multi-line `new_string` would leave lines ending with `\n` among the `\r\n`
//! ones; a whole file written back would turn every line end into `\n`. An edit's strings, and
//! content written over such a file, are written with the file's own line ends instead. A file
//! whose line ends are mixed is matched line end by line end (`as_found`).

use std::borrow::Cow;

use crate::bindings::seam::fs::fs;
use crate::bindings::seam::fs::types::{Edit, Target};

/// The file's start is read a chunk at a time until it holds a line end (a first line can be
/// long), up to this many bytes; the line ends in it decide. Chunks start small (most files
/// have a line end early, and a write checks the file it replaces) and double.
const SAMPLE_BYTES: usize = 64 * 1024;
const FIRST_CHUNK_BYTES: u32 = 1024;
const CHUNK_BYTES: u32 = 16 * 1024;

/// The start of the file at `target`, read until it holds a line end or `SAMPLE_BYTES`; empty
/// when the file cannot be read (the edit or write itself then reports why).
pub fn file_start(target: &Target) -> String {
    let mut sample = String::new();
    let Ok(stream) = fs::stream_text(target) else {
        return sample;
    };
    let mut chunk_bytes = FIRST_CHUNK_BYTES;
    while sample.len() < SAMPLE_BYTES && !sample.contains('\n') {
        match stream.read(chunk_bytes) {
            Ok(Some(chunk)) => sample.push_str(&chunk),
            Ok(None) | Err(_) => break,
        }
        chunk_bytes = (chunk_bytes * 2).min(CHUNK_BYTES);
    }
    sample
}

/// True when most line ends in the start of the file at `target` are `\r\n`.
pub fn file_uses_crlf(target: &Target) -> bool {
    mostly_crlf(&file_start(target))
}

/// True when more of `text`'s line ends are `\r\n` than a bare `\n`.
fn mostly_crlf(text: &str) -> bool {
    let ends = text.matches('\n').count();
    let crlf = text.matches("\r\n").count();
    crlf > ends - crlf
}

/// `content` to write over the file that starts with `start`: with `\r\n` line ends when the
/// file uses them and the content has only bare line feeds (content with any `\r` is taken as
/// given).
pub fn as_file_ends<'a>(content: &'a str, start: &str) -> Cow<'a, str> {
    // The file first: most files replaced use bare line feeds, and then the content need not
    // be searched to its end for a `\r` (byte searches: a `str` pattern is slower in a guest).
    let bytes = content.as_bytes();
    if mostly_crlf(start) && bytes.contains(&b'\n') && !bytes.contains(&b'\r') {
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

/// The texts in `file` that `old` stands for when each of its line breaks may be `\n` or
/// `\r\n` there: distinct, in the order first found. Empty when `old` is not in the file.
pub fn as_found<'f>(file: &'f str, old: &str) -> Vec<&'f str> {
    if old.is_empty() {
        return Vec::new();
    }
    let old = old.replace("\r\n", "\n");
    let mut lines = old.split('\n');
    let first = lines.next().unwrap_or_default();
    let rest: Vec<&str> = lines.collect();
    let mut found: Vec<&str> = Vec::new();
    let mut from = 0;
    while let Some(at) = file[from..].find(first).map(|offset| from + offset) {
        let after = at + first.len();
        match rest_at(&file[after..], &rest) {
            Some(len) => {
                let text = &file[at..after + len];
                if !found.contains(&text) {
                    found.push(text);
                }
                from = after + len;
            }
            None => from = at + file[at..].chars().next().map_or(1, char::len_utf8),
        }
        if from >= file.len() {
            break;
        }
    }
    found
}

/// How many bytes at the start of `text` are a line break and the next of `lines`, for each of
/// them in turn; None when they are not there.
fn rest_at(text: &str, lines: &[&str]) -> Option<usize> {
    let mut len = 0;
    for line in lines {
        let here = &text[len..];
        len += if here.starts_with("\r\n") {
            2
        } else if here.starts_with('\n') {
            1
        } else {
            return None;
        };
        len += line.len();
        text[len - line.len()..].starts_with(line).then_some(())?;
    }
    Some(len)
}

/// `new` with the line ends of the text it replaces: `\r\n` when most of that text's are.
pub fn new_as_found(new: &str, found: &str) -> String {
    if mostly_crlf(found) {
        to_crlf(new)
    } else {
        new.to_owned()
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
    fn mixed_line_ends_are_matched_one_by_one() {
        let file = "a\r\nb\nc\r\nd\n";
        assert_eq!(as_found(file, "b\nc\nd"), ["b\nc\r\nd"]);
        assert_eq!(as_found(file, "a\r\nb\n"), ["a\r\nb\n"]);
        assert_eq!(as_found(file, "\nc"), ["\nc"]);
        assert!(as_found(file, "b\nd").is_empty());
        assert!(as_found(file, "x\ny").is_empty());
        let twice = "x\r\ny\nx\ny\nx\r\ny";
        assert_eq!(as_found(twice, "x\ny"), ["x\r\ny", "x\ny"], "each text once");
        assert_eq!(as_found("é\r\né", "é\né"), ["é\r\né"]);
        assert_eq!(new_as_found("1\n2", "x\r\ny"), "1\r\n2");
        assert_eq!(new_as_found("1\n2", "x\ny"), "1\n2");
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
