//! Standard base64 (RFC 4648, with padding): image bytes in tool results, a file's bytes
//! across the fs seam, and the `bytes` fields tools like ripgrep use for data that is not UTF-8.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Each byte's sextet, or `INVALID`.
const SEXTETS: [u8; 256] = {
    let mut table = [INVALID; 256];
    let mut at = 0;
    while at < ALPHABET.len() {
        table[ALPHABET[at] as usize] = at as u8;
        at += 1;
    }
    table
};
const INVALID: u8 = 0xff;

pub fn encode(data: &[u8]) -> String {
    let mut out = Vec::with_capacity(data.len().div_ceil(3) * 4);
    let sextet = |group: u32, index: u32| ALPHABET[(group >> (18 - 6 * index)) as usize & 0x3f];
    let whole = data.chunks_exact(3);
    let rest = whole.remainder();
    for chunk in whole {
        let group = u32::from_be_bytes([0, chunk[0], chunk[1], chunk[2]]);
        out.extend_from_slice(&[sextet(group, 0), sextet(group, 1), sextet(group, 2), sextet(group, 3)]);
    }
    if !rest.is_empty() {
        let group = u32::from_be_bytes([0, rest[0], *rest.get(1).unwrap_or(&0), 0]);
        let third = if rest.len() == 2 { sextet(group, 2) } else { b'=' };
        out.extend_from_slice(&[sextet(group, 0), sextet(group, 1), third, b'=']);
    }
    String::from_utf8(out).expect("the base64 alphabet is ASCII")
}

/// None when `text` is not padded standard base64.
pub fn decode(text: &str) -> Option<Vec<u8>> {
    let text = text.as_bytes();
    if !text.len().is_multiple_of(4) {
        return None;
    }
    let padding = text.iter().rev().take(2).take_while(|&&c| c == b'=').count();
    let (groups, last) = text.split_at(text.len().saturating_sub(4));
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    for group in groups.chunks_exact(4) {
        let value = sextets(group)?;
        out.extend_from_slice(&value.to_be_bytes()[1..]);
    }
    if !last.is_empty() {
        let mut group = [b'A'; 4];
        group[..4 - padding].copy_from_slice(&last[..4 - padding]);
        let value = sextets(&group)?;
        out.extend_from_slice(&value.to_be_bytes()[1..4 - padding]);
    }
    Some(out)
}

/// The 24 bits four base64 characters stand for.
fn sextets(group: &[u8]) -> Option<u32> {
    group.iter().try_fold(0u32, |value, &c| match SEXTETS[usize::from(c)] {
        INVALID => None,
        sextet => Some((value << 6) | u32::from(sextet)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_the_rfc_vectors() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in vectors {
            assert_eq!(encode(plain.as_bytes()), encoded);
            assert_eq!(decode(encoded).as_deref(), Some(plain.as_bytes()));
        }
    }

    #[test]
    fn round_trips_every_byte() {
        let data: Vec<u8> = (0..=255).collect();
        assert_eq!(decode(&encode(&data)), Some(data));
    }

    #[test]
    fn refuses_malformed_text() {
        for bad in ["Zg=", "Z===", "Zg==Zg==", "Zm9!", "Zm 9"] {
            assert_eq!(decode(bad), None, "{bad}");
        }
    }
}
