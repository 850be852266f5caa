//! The encodings a text file is kept in: UTF-8, or UTF-16 recognised by its byte order mark
//! (whole files are decoded by the host, `fsio.read-text`). A file is written back in the
//! encoding it is in; a new file is UTF-8.

use crate::bindings::seam::host::fsio::{self, TextEncoding};

/// U+FEFF, the byte order mark as text.
const MARK: char = '\u{FEFF}';

/// The encoding a file's first bytes say: UTF-16 by its byte order mark, else UTF-8.
pub fn of_start(data: &[u8]) -> TextEncoding {
    match data {
        [0xFF, 0xFE, ..] => TextEncoding::Utf16Le,
        [0xFE, 0xFF, ..] => TextEncoding::Utf16Be,
        _ => TextEncoding::Utf8,
    }
}

/// The encoding of the file at `path` now; UTF-8 for one that cannot be read (a new file).
pub fn of_file(path: &str) -> TextEncoding {
    fsio::read_range(path, 0, 2).map_or(TextEncoding::Utf8, |start| of_start(&start.data))
}

/// `text` as a file in `encoding` holds it. UTF-16 always starts with its mark: without one it
/// would not be read as text again.
pub fn encode(text: String, encoding: TextEncoding) -> Vec<u8> {
    let unit_bytes: fn(u16) -> [u8; 2] = match encoding {
        TextEncoding::Utf8 => return text.into_bytes(),
        TextEncoding::Utf16Le => u16::to_le_bytes,
        TextEncoding::Utf16Be => u16::to_be_bytes,
    };
    let body = text.strip_prefix(MARK).unwrap_or(&text);
    std::iter::once(0xFEFF)
        .chain(body.encode_utf16())
        .flat_map(unit_bytes)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_is_written_with_exactly_one_mark() {
        let little = encode("\u{FEFF}hé".into(), TextEncoding::Utf16Le);
        assert_eq!(little, [0xFF, 0xFE, b'h', 0, 0xE9, 0]);
        assert_eq!(encode("hé".into(), TextEncoding::Utf16Le), little);
        let big = encode("😀".into(), TextEncoding::Utf16Be);
        assert_eq!(big, [0xFE, 0xFF, 0xD8, 0x3D, 0xDE, 0x00]);
        assert_eq!(of_start(&big), TextEncoding::Utf16Be);
        assert_eq!(of_start(&little), TextEncoding::Utf16Le);
    }

    #[test]
    fn utf8_is_written_as_it_is() {
        assert_eq!(encode("\u{FEFF}a".into(), TextEncoding::Utf8), "\u{FEFF}a".as_bytes());
        assert_eq!(of_start("\u{FEFF}a".as_bytes()), TextEncoding::Utf8);
        assert_eq!(of_start(b""), TextEncoding::Utf8);
    }
}
