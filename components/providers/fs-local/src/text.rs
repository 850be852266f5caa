//! What counts as text: UTF-8 without NUL bytes. Anything else is refused, never repaired.
//! Whole files are checked by the host (`fsio.read-text`); streamed chunks here.

use crate::bindings::seam::fs::types::Error;
use crate::errors;

/// The longest prefix of `data` (read at file offset `start`) that is whole characters of
/// text. `at_end` says no bytes follow, so a character cut at the end is an error rather than
/// a boundary to stop at.
pub fn complete_prefix(data: &[u8], start: u64, at_end: bool, path: &str) -> Result<usize, Error> {
    let at = |index: usize| start + index as u64;
    // As the host says of a whole file (`fsio.read-text`): the mark's bytes are never UTF-8.
    let utf16 = match data {
        [0xFF, 0xFE, ..] if start == 0 => Some("little-endian"),
        [0xFE, 0xFF, ..] if start == 0 => Some("big-endian"),
        _ => None,
    };
    if let Some(order) = utf16 {
        return Err(not_text(
            path,
            &format!("it is UTF-16 ({order}, by its byte order mark), not UTF-8"),
        ));
    }
    let valid = match std::str::from_utf8(data) {
        Ok(text) => text.len(),
        // Only an incomplete last character (no error length) may continue in the next read.
        Err(e) if e.error_len().is_none() && !at_end => e.valid_up_to(),
        Err(e) => {
            return Err(not_text(
                path,
                &format!("invalid UTF-8 at offset {}", at(e.valid_up_to())),
            ));
        }
    };
    if let Some(nul) = data[..valid].iter().position(|&b| b == 0) {
        return Err(not_text(path, &format!("a NUL byte at offset {}", at(nul))));
    }
    Ok(valid)
}

fn not_text(path: &str, what: &str) -> Error {
    errors::error(errors::NOT_TEXT, format!("{path} is not text: {what}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code<T>(result: Result<T, Error>) -> Option<String> {
        result.err().map(|e| e.code)
    }

    #[test]
    fn a_cut_character_waits_for_more_bytes_unless_at_the_end() {
        let euro = "a€".as_bytes(); // 'a' then three bytes
        assert_eq!(complete_prefix(&euro[..2], 0, false, "/f").ok(), Some(1));
        assert_eq!(complete_prefix(euro, 0, false, "/f").ok(), Some(4));
        assert_eq!(
            code(complete_prefix(&euro[..2], 0, true, "/f")).as_deref(),
            Some("FS_NOT_TEXT")
        );
        assert_eq!(
            code(complete_prefix(b"\xffab", 0, false, "/f")).as_deref(),
            Some("FS_NOT_TEXT")
        );
    }

    #[test]
    fn utf16_text_is_named_by_its_byte_order_mark_at_the_start_only() {
        let little = complete_prefix(b"\xff\xfeh\0", 0, false, "/f").err().map(|e| e.message);
        assert_eq!(
            little.as_deref(),
            Some("/f is not text: it is UTF-16 (little-endian, by its byte order mark), not UTF-8")
        );
        let big = complete_prefix(b"\xfe\xff\0h", 0, false, "/f").err().map(|e| e.message);
        assert!(big.is_some_and(|m| m.contains("UTF-16 (big-endian")));
        let later = complete_prefix(b"\xff\xfe", 9, false, "/f").err().map(|e| e.message);
        assert_eq!(later.as_deref(), Some("/f is not text: invalid UTF-8 at offset 9"));
    }

    #[test]
    fn refusals_name_the_file_offset() {
        let nul = complete_prefix(b"ab\0", 100, false, "/f").err().map(|e| e.message);
        assert_eq!(nul.as_deref(), Some("/f is not text: a NUL byte at offset 102"));
        let invalid = complete_prefix(b"a\xff", 7, false, "/f").err().map(|e| e.message);
        assert_eq!(invalid.as_deref(), Some("/f is not text: invalid UTF-8 at offset 8"));
    }
}
