//! What counts as text: UTF-8, or UTF-16 that starts with its byte order mark, without NUL
//! characters. Anything else is refused, never repaired. Whole files are checked by the host
//! (`fsio.read-text`); streamed chunks here, in the same words.

use crate::bindings::seam::fs::types::Error;
use crate::bindings::seam::host::fsio::TextEncoding;
use crate::errors;

/// The longest prefix of `data` (read at file offset `start` of a file in `encoding`) that is
/// whole characters of text, decoded, and how many bytes of `data` it took. `at_end` says no
/// bytes follow, so a character cut at the end is an error rather than a boundary to stop at.
pub fn complete_prefix(
    data: Vec<u8>,
    start: u64,
    at_end: bool,
    encoding: TextEncoding,
    path: &str,
) -> Result<(String, usize), Error> {
    match encoding {
        TextEncoding::Utf8 => utf8_prefix(data, start, at_end, path),
        TextEncoding::Utf16Le => utf16_prefix(&data, start, at_end, Utf16::Little, path),
        TextEncoding::Utf16Be => utf16_prefix(&data, start, at_end, Utf16::Big, path),
    }
}

fn utf8_prefix(mut data: Vec<u8>, start: u64, at_end: bool, path: &str) -> Result<(String, usize), Error> {
    let at = |index: usize| start + index as u64;
    let valid = match std::str::from_utf8(&data) {
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
    data.truncate(valid);
    let text = String::from_utf8(data).map_err(|_| not_text(path, "not UTF-8"))?;
    Ok((text, valid))
}

#[derive(Clone, Copy)]
enum Utf16 {
    Little,
    Big,
}

impl Utf16 {
    fn name(self) -> &'static str {
        match self {
            Self::Little => "little-endian",
            Self::Big => "big-endian",
        }
    }

    fn unit(self, pair: &[u8]) -> u16 {
        let pair = [pair[0], pair[1]];
        match self {
            Self::Little => u16::from_le_bytes(pair),
            Self::Big => u16::from_be_bytes(pair),
        }
    }
}

fn utf16_prefix(data: &[u8], start: u64, at_end: bool, order: Utf16, path: &str) -> Result<(String, usize), Error> {
    let mut units: Vec<u16> = data.chunks_exact(2).map(|pair| order.unit(pair)).collect();
    // A surrogate pair cut by the end of the chunk is completed by the next one.
    if !at_end && units.last().is_some_and(|unit| (0xD800..0xDC00).contains(unit)) {
        units.pop();
    }
    let mut text = String::with_capacity(units.len());
    let mut taken = 0;
    for decoded in char::decode_utf16(units.iter().copied()) {
        let offset = start + taken as u64;
        match decoded {
            Ok('\0') => return Err(not_text(path, &format!("a NUL character at offset {offset}"))),
            Ok(c) => {
                text.push(c);
                taken += 2 * c.len_utf16();
            }
            Err(_) => {
                let what = format!("invalid UTF-16 ({}) at offset {offset}", order.name());
                return Err(not_text(path, &what));
            }
        }
    }
    if at_end && data.len() % 2 == 1 {
        let offset = start + taken as u64;
        let what = format!(
            "UTF-16 ({}) that ends in half a character at offset {offset}",
            order.name()
        );
        return Err(not_text(path, &what));
    }
    Ok((text, taken))
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

    fn utf8(data: &[u8], start: u64, at_end: bool) -> Result<(String, usize), Error> {
        complete_prefix(data.to_vec(), start, at_end, TextEncoding::Utf8, "/f")
    }

    #[test]
    fn a_cut_character_waits_for_more_bytes_unless_at_the_end() {
        let euro = "a€".as_bytes(); // 'a' then three bytes
        assert_eq!(utf8(&euro[..2], 0, false).ok(), Some(("a".into(), 1)));
        assert_eq!(utf8(euro, 0, false).ok(), Some(("a€".into(), 4)));
        assert_eq!(code(utf8(&euro[..2], 0, true)).as_deref(), Some("FS_NOT_TEXT"));
        assert_eq!(code(utf8(b"\xffab", 0, false)).as_deref(), Some("FS_NOT_TEXT"));
    }

    #[test]
    fn refusals_name_the_file_offset() {
        let nul = utf8(b"ab\0", 100, false).err().map(|e| e.message);
        assert_eq!(nul.as_deref(), Some("/f is not text: a NUL byte at offset 102"));
        let invalid = utf8(b"a\xff", 7, false).err().map(|e| e.message);
        assert_eq!(invalid.as_deref(), Some("/f is not text: invalid UTF-8 at offset 8"));
    }

    #[test]
    fn utf16_chunks_end_on_whole_characters() {
        // 'a', then 😀 as a surrogate pair, little-endian.
        let data = [b'a', 0, 0x3D, 0xD8, 0x00, 0xDE];
        let le = |data: &[u8], at_end| complete_prefix(data.to_vec(), 10, at_end, TextEncoding::Utf16Le, "/f");
        assert_eq!(le(&data[..5], false).ok(), Some(("a".into(), 2)));
        assert_eq!(le(&data, true).ok(), Some(("a😀".into(), 6)));
        let cut = le(&data[..5], true).err().map(|e| e.message);
        assert_eq!(
            cut.as_deref(),
            Some("/f is not text: invalid UTF-16 (little-endian) at offset 12")
        );
        let big = complete_prefix(vec![0, b'h', 0, 0], 0, false, TextEncoding::Utf16Be, "/f");
        assert_eq!(
            big.err().map(|e| e.message).as_deref(),
            Some("/f is not text: a NUL character at offset 2")
        );
        let odd = complete_prefix(vec![0, b'h', 0], 0, true, TextEncoding::Utf16Be, "/f");
        assert_eq!(
            odd.err().map(|e| e.message).as_deref(),
            Some("/f is not text: UTF-16 (big-endian) that ends in half a character at offset 2")
        );
    }
}
