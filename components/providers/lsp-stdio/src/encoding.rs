//! Position encodings: the tool speaks 1-based UTF-16 columns, the server whichever encoding
//! it negotiated (UTF-16 unless it said otherwise).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Encoding {
    Utf8,
    #[default]
    Utf16,
    Utf32,
}

impl Encoding {
    /// The server's `capabilities.positionEncoding`; absent means UTF-16.
    pub fn from_lsp(name: Option<&str>) -> Option<Self> {
        match name {
            None | Some("utf-16") => Some(Self::Utf16),
            Some("utf-8") => Some(Self::Utf8),
            Some("utf-32") => Some(Self::Utf32),
            Some(_) => None,
        }
    }

    fn width(self, c: char) -> u32 {
        match self {
            Self::Utf8 => c.len_utf8() as u32,
            Self::Utf16 => c.len_utf16() as u32,
            Self::Utf32 => 1,
        }
    }
}

/// Convert a column within `line` from one encoding to another. A column inside a character
/// rounds down to its start; one past the end is clamped to the end of the line.
pub fn convert(line: &str, column: u32, from: Encoding, to: Encoding) -> u32 {
    if from == to {
        return column;
    }
    let (mut seen, mut out) = (0u32, 0u32);
    for c in line.chars() {
        let next = seen + from.width(c);
        if next > column {
            break;
        }
        seen = next;
        out += to.width(c);
    }
    out
}

/// Length of `line` in `encoding` units.
pub fn length(line: &str, encoding: Encoding) -> u32 {
    line.chars().map(|c| encoding.width(c)).sum()
}

/// The `index`-th line of `text` (0-based), without its line break.
pub fn line_of(text: &str, index: u32) -> Option<&str> {
    text.split('\n')
        .nth(index as usize)
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_move_between_encodings() {
        let line = "let s = \"é😀\"; x";
        let x16 = line.encode_utf16().count() as u32 - 1;
        let x8 = line.len() as u32 - 1;
        let x32 = line.chars().count() as u32 - 1;
        assert_eq!(convert(line, x16, Encoding::Utf16, Encoding::Utf8), x8);
        assert_eq!(convert(line, x8, Encoding::Utf8, Encoding::Utf16), x16);
        assert_eq!(convert(line, x16, Encoding::Utf16, Encoding::Utf32), x32);
        assert_eq!(convert(line, x32, Encoding::Utf32, Encoding::Utf16), x16);
        assert_eq!(length(line, Encoding::Utf16), x16 + 1);
    }

    #[test]
    fn inside_a_character_rounds_down_and_past_the_end_clamps() {
        // 😀 is two UTF-16 units and four UTF-8 bytes.
        assert_eq!(convert("😀a", 1, Encoding::Utf16, Encoding::Utf8), 0);
        assert_eq!(convert("ab", 9, Encoding::Utf8, Encoding::Utf16), 2);
        assert_eq!(Encoding::from_lsp(None), Some(Encoding::Utf16));
        assert_eq!(Encoding::from_lsp(Some("utf-7")), None);
    }

    #[test]
    fn lines_drop_their_breaks() {
        assert_eq!(line_of("a\r\nb\nc", 1), Some("b"));
        assert_eq!(line_of("a\n", 1), Some(""));
        assert_eq!(line_of("a", 1), None);
    }
}
