//! UTF-16 text, recognised by its byte order mark alone: without one, UTF-16 cannot be told
//! from binary data. Decoded with the mark kept as U+FEFF at the start, as a UTF-8 file's mark
//! is, so what is shown and what is written back agree on it.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ByteOrder {
    Little,
    Big,
}

impl ByteOrder {
    /// The byte order a UTF-16 byte order mark at the start of `data` says.
    pub fn of_mark(data: &[u8]) -> Option<Self> {
        match data {
            [0xFF, 0xFE, ..] => Some(Self::Little),
            [0xFE, 0xFF, ..] => Some(Self::Big),
            _ => None,
        }
    }

    fn unit(self, pair: [u8; 2]) -> u16 {
        match self {
            Self::Little => u16::from_le_bytes(pair),
            Self::Big => u16::from_be_bytes(pair),
        }
    }
}

impl fmt::Display for ByteOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Little => "little-endian",
            Self::Big => "big-endian",
        })
    }
}

/// `data`, a whole file in `order` (its mark included), as text without NUL characters; or why
/// it is not text, naming the byte offset where it stops being text.
pub fn decode(data: &[u8], order: ByteOrder) -> Result<String, String> {
    let units = data.chunks_exact(2).map(|pair| order.unit([pair[0], pair[1]]));
    // Mostly ASCII: one UTF-8 byte per two bytes read.
    let mut text = String::with_capacity(data.len() / 2);
    let mut offset = 0;
    for decoded in char::decode_utf16(units) {
        match decoded {
            Ok('\0') => return Err(format!("a NUL character at offset {offset}")),
            Ok(c) => {
                text.push(c);
                offset += 2 * c.len_utf16();
            }
            Err(_) => return Err(format!("invalid UTF-16 ({order}) at offset {offset}")),
        }
    }
    if data.len() % 2 == 1 {
        return Err(format!(
            "UTF-16 ({order}) that ends in half a character at offset {offset}"
        ));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(text: &str, order: ByteOrder) -> Vec<u8> {
        "\u{FEFF}"
            .chars()
            .chain(text.chars())
            .collect::<String>()
            .encode_utf16()
            .flat_map(|unit| match order {
                ByteOrder::Little => unit.to_le_bytes(),
                ByteOrder::Big => unit.to_be_bytes(),
            })
            .collect()
    }

    #[test]
    fn both_byte_orders_decode_with_the_mark_kept() {
        for order in [ByteOrder::Little, ByteOrder::Big] {
            let data = encoded("héllo 😀\r\n", order);
            assert_eq!(ByteOrder::of_mark(&data), Some(order));
            assert_eq!(decode(&data, order), Ok("\u{FEFF}héllo 😀\r\n".to_owned()));
        }
        assert_eq!(ByteOrder::of_mark(b"\xEF\xBB\xBFutf-8"), None);
    }

    #[test]
    fn what_is_not_text_is_named_at_its_offset() {
        let little = ByteOrder::Little;
        assert_eq!(
            decode(&encoded("ab\0", little), little),
            Err("a NUL character at offset 6".into())
        );
        // A high surrogate followed by a letter.
        let mut lone = encoded("a", little);
        lone.extend([0x3D, 0xD8, b'b', 0]);
        assert_eq!(
            decode(&lone, little),
            Err("invalid UTF-16 (little-endian) at offset 4".into())
        );
        let mut odd = encoded("ab", ByteOrder::Big);
        odd.push(b'c');
        assert_eq!(
            decode(&odd, ByteOrder::Big),
            Err("UTF-16 (big-endian) that ends in half a character at offset 6".into())
        );
    }
}
