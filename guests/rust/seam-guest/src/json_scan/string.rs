//! JSON string literals read 16 bytes at a time. serde_json decodes byte by byte and copies
//! the run before every escape with its own `memcpy`; in a component each of those is a call
//! out of the guest, and a file's content has a `\n` escape every few dozen bytes, which made
//! decoding `write`'s content cost about as much as publishing it.

use std::borrow::Cow;
use std::mem::MaybeUninit;

const BLOCK: usize = 16;

/// The text of the literal that starts right after an opening quote in `src` (borrowed when it
/// has no escape), and how many bytes it took (the closing quote included). None for what JSON
/// refuses in a string (a raw control character, a malformed escape, a lone surrogate) and for
/// an unterminated literal.
pub fn decode(src: &str) -> Option<(Cow<'_, str>, usize)> {
    let plain = plain_prefix(src.as_bytes());
    if src.as_bytes().get(plain) == Some(&b'"') {
        return Some((Cow::Borrowed(&src[..plain]), plain + 1));
    }
    decode_blocks(src.as_bytes(), plain).map(|(text, used)| (Cow::Owned(text), used))
}

/// How many bytes the literal that starts right after an opening quote in `src` takes (the
/// closing quote included), stepping over escapes without decoding or checking them.
pub fn skip(src: &[u8]) -> Option<usize> {
    let mut at = 0;
    loop {
        at += plain_prefix(src.get(at..)?);
        match *src.get(at)? {
            b'"' => return Some(at + 1),
            // The byte after a backslash never ends the literal; `\uXXXX` continues with plain bytes.
            b'\\' => at += 2,
            _ => return None,
        }
    }
}

/// How many bytes of `src` come before its first quote, backslash or control character.
// In WebAssembly a missing feature is not undefined behaviour (an engine without SIMD refuses
// the component when it is loaded), so these are safe to call.
#[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
fn plain_prefix(src: &[u8]) -> usize {
    let mut at = 0;
    while let Some(block) = src.get(at..at + BLOCK) {
        let found = special_bytes(block.try_into().expect("a whole block"));
        if found != 0 {
            return at + found.trailing_zeros() as usize;
        }
        at += BLOCK;
    }
    at + src[at..].iter().take_while(|&&b| !is_special(b)).count()
}

fn is_special(byte: u8) -> bool {
    matches!(byte, b'"' | b'\\' | 0..0x20)
}

/// `src` decoded into a new string, its first `plain` bytes known to hold no special byte.
fn decode_blocks(src: &[u8], plain: usize) -> Option<(String, usize)> {
    // Never longer than the rest of the input, plus room to store a whole block at the end;
    // written through the spare capacity so nothing is zeroed first. Writing never passes
    // reading (`o <= i`): a block is copied as read, and an escape is never shorter than its character.
    let mut out: Vec<u8> = Vec::with_capacity(src.len() + BLOCK);
    out.extend_from_slice(&src[..plain]);
    let spare = out.spare_capacity_mut();
    let (mut i, mut o) = (plain, 0);
    loop {
        (i, o) = copy_run(src, i, spare, o);
        match *src.get(i)? {
            b'"' => {
                // SAFETY: the `o` bytes of spare capacity after the plain prefix were written above.
                unsafe { out.set_len(plain + o) };
                out.shrink_to_fit();
                // SAFETY: `src` is UTF-8 and was copied whole except for escapes, which begin
                // and end on ASCII bytes, so the runs between them are whole characters; each
                // escape became one whole character.
                return Some((unsafe { String::from_utf8_unchecked(out) }, i + 1));
            }
            b'\\' => {
                let (ch, used) = escape(&src[i + 1..])?;
                for byte in ch.encode_utf8(&mut [0; 4]).bytes() {
                    spare[o].write(byte);
                    o += 1;
                }
                i += 1 + used;
            }
            byte if byte < 0x20 => return None,
            byte => {
                spare[o].write(byte);
                i += 1;
                o += 1;
            }
        }
    }
}

/// Copy `src[i..]` to `out[o..]` block by block, decoding one-character escapes (`\n`, `\"`:
/// the commonest special bytes in text) on the way, up to the first other special byte or the
/// last whole block. Returns where reading and writing stopped.
///
/// Kept out of line, with raw cursors and no bounds checks inside the loop: inlined into the
/// scanner, the compiled loop reloaded its cursors and constants from the stack on every block
/// and decoded a 1 MB file's literal in ~285 µs instead of ~215 µs.
#[inline(never)]
#[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
fn copy_run(src: &[u8], i: usize, out: &mut [MaybeUninit<u8>], o: usize) -> (usize, usize) {
    // A block is read at `i` only while its 16 bytes and the one after it (the second byte of
    // an escape that starts at its end) are in `src`. Each step writes no more than it reads,
    // so the room left in `out` stays at least the input left plus a block.
    let Some(last) = src.len().checked_sub(BLOCK + 1) else {
        return (i, o);
    };
    assert!(i <= src.len() && out.len().saturating_sub(o) >= src.len() - i + BLOCK);
    let (start, start_out) = (src.as_ptr(), out.as_mut_ptr().cast::<u8>());
    let (mut i, mut o) = (i, o);
    while i <= last {
        // SAFETY: `i + BLOCK < src.len()`, and `o + BLOCK <= out.len()` by the room kept;
        // `out`, borrowed mutably, cannot overlap `src`.
        let found = unsafe { copy_block(start.add(i), start_out.add(o)) };
        if found == 0 {
            i += BLOCK;
            o += BLOCK;
            continue;
        }
        let taken = found.trailing_zeros() as usize;
        i += taken;
        o += taken;
        // SAFETY: `i` is within the block just read, so `i + 1 <= last + BLOCK < src.len()`.
        let (byte, after) = unsafe { (*start.add(i), *start.add(i + 1)) };
        let short = SHORT_ESCAPES[usize::from(after)];
        if byte != b'\\' || short == 0 {
            break;
        }
        // SAFETY: by the room kept, `o < out.len()`.
        unsafe { *start_out.add(o) = short };
        i += 2;
        o += 1;
    }
    (i, o)
}

/// The byte a one-character escape stands for, by the byte after the backslash; 0 for every
/// other byte (`u` included).
const SHORT_ESCAPES: [u8; 256] = {
    let mut table = [0; 256];
    let pairs = [
        (b'"', b'"'),
        (b'\\', b'\\'),
        (b'/', b'/'),
        (b'b', 0x08),
        (b'f', 0x0c),
        (b'n', b'\n'),
        (b'r', b'\r'),
        (b't', b'\t'),
    ];
    let mut at = 0;
    while at < pairs.len() {
        table[pairs[at].0 as usize] = pairs[at].1;
        at += 1;
    }
    table
};

/// Copy the 16 bytes at `from` to `to` and say which of them are special, as
/// [`special_bytes`] does.
///
/// # Safety
/// Both must be valid for 16 bytes, and not overlap.
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
unsafe fn copy_block(from: *const u8, to: *mut u8) -> u32 {
    use core::arch::wasm32::{v128, v128_load, v128_store};
    // SAFETY: the caller's; WebAssembly loads and stores need no alignment.
    let bytes = unsafe { v128_load(from.cast::<v128>()) };
    unsafe { v128_store(to.cast::<v128>(), bytes) };
    special_lanes(bytes)
}

/// Bit n set for a quote, a backslash or a control character at n.
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
fn special_bytes(block: &[u8; BLOCK]) -> u32 {
    use core::arch::wasm32::{v128, v128_load};
    // SAFETY: the block is 16 bytes; WebAssembly loads need no alignment.
    special_lanes(unsafe { v128_load(block.as_ptr().cast::<v128>()) })
}

#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
fn special_lanes(bytes: core::arch::wasm32::v128) -> u32 {
    use core::arch::wasm32::{i8x16_bitmask, u8x16_eq, u8x16_lt, u8x16_splat, v128_or};
    let quote = u8x16_eq(bytes, u8x16_splat(b'"'));
    let backslash = u8x16_eq(bytes, u8x16_splat(b'\\'));
    let control = u8x16_lt(bytes, u8x16_splat(0x20));
    u32::from(i8x16_bitmask(v128_or(v128_or(quote, backslash), control)))
}

/// # Safety
/// Both must be valid for 16 bytes, and not overlap.
#[cfg(not(target_arch = "wasm32"))]
unsafe fn copy_block(from: *const u8, to: *mut u8) -> u32 {
    // SAFETY: the caller's.
    let block = unsafe { &*from.cast::<[u8; BLOCK]>() };
    unsafe { std::ptr::copy_nonoverlapping(from, to, BLOCK) };
    special_bytes(block)
}

#[cfg(not(target_arch = "wasm32"))]
fn special_bytes(block: &[u8; BLOCK]) -> u32 {
    block
        .iter()
        .enumerate()
        .filter(|(_, byte)| is_special(**byte))
        .fold(0, |found, (n, _)| found | 1 << n)
}

/// The character an escape stands for (`rest` follows the backslash) and the bytes it used.
fn escape(rest: &[u8]) -> Option<(char, usize)> {
    let ch = match *rest.first()? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => return unicode(&rest[1..]),
        _ => return None,
    };
    Some((ch, 1))
}

/// The four hex digits after `\u`, or a surrogate pair: two such escapes in a row.
fn unicode(rest: &[u8]) -> Option<(char, usize)> {
    let first = hex4(rest)?;
    if !(0xD800..=0xDBFF).contains(&first) {
        return Some((char::from_u32(first)?, 5));
    }
    let low = rest.get(4..6).filter(|s| *s == b"\\u").and_then(|_| hex4(&rest[6..]))?;
    if !(0xDC00..=0xDFFF).contains(&low) {
        return None;
    }
    let code = 0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00);
    Some((char::from_u32(code)?, 11))
}

fn hex4(digits: &[u8]) -> Option<u32> {
    let digits = digits.get(..4)?;
    digits
        .iter()
        .try_fold(0, |value, &d| Some(value << 4 | char::from(d).to_digit(16)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What serde_json makes of the same literal.
    fn serde(body: &str) -> Option<String> {
        serde_json::from_str::<String>(&format!("\"{body}\"")).ok()
    }

    fn body(body: &str) -> Option<String> {
        let with_end = format!("{body}\" rest");
        let decoded = decode(&with_end).map(|(text, used)| {
            assert_eq!(&with_end[used..], " rest", "{body:?}");
            // Only text with escapes is copied.
            assert_eq!(matches!(text, Cow::Borrowed(_)), !body.contains('\\'), "{body:?}");
            text.into_owned()
        });
        // Skipping takes what decoding takes, and also steps over what decoding refuses.
        let skipped = skip(with_end.as_bytes()).map(|used| &with_end[used..]);
        if decoded.is_some() {
            assert_eq!(skipped, Some(" rest"), "{body:?}");
        }
        decoded
    }

    #[test]
    fn decodes_as_serde_json_does() {
        for literal in [
            "",
            "plain",
            "exactly 16 bytes",
            "a plain literal longer than two blocks of sixteen bytes",
            "a\\nb",
            "\\n",
            "line one\\nline two\\n\\ttabbed \\\"quoted\\\" \\\\ back\\/slash\\b\\f\\r",
            "é€ unicode 😀 then \\u00e9\\u20AC\\ud83d\\ude00 and \\u0000 nul",
            "0123456789abcdef\\\\0123456789abcdef\\\\\\\\\\n",
            "\\u0041\\u0042CDEFGHIJKLMNOP\\u0051",
        ] {
            assert_eq!(body(literal), serde(literal), "{literal:?}");
        }
    }

    #[test]
    fn long_content_with_frequent_escapes() {
        let text: String = (0..5000).map(|n| format!("line {n}: \"é\" \\ tab\t end\n")).collect();
        let literal = serde_json::to_string(&text).expect("encodes");
        assert_eq!(body(&literal[1..literal.len() - 1]), Some(text));
    }

    #[test]
    fn escapes_at_every_place_around_block_edges() {
        for length in 0..3 * BLOCK + 2 {
            for at in 0..=length {
                for escape in ["\\n", "\\\\", "\\u00e9", "\\\""] {
                    let literal = format!("{}{escape}{}", "a".repeat(at), "b".repeat(length - at));
                    assert_eq!(body(&literal), serde(&literal), "{literal:?}");
                }
            }
        }
    }

    #[test]
    fn refuses_what_json_refuses() {
        for literal in [
            "\\ud800",
            "\\ud800x",
            "\\ud800\\u0041",
            "\\udc00",
            "\\ud83d\\ud83d",
            "\\x",
            "\\u12",
            "\\u12g4",
            "tab\tinside",
            "a 16-byte run \u{1}",
        ] {
            assert_eq!(body(literal), None, "{literal:?}");
            assert_eq!(serde(literal), None, "{literal:?}");
        }
        assert_eq!(decode("unterminated"), None);
        assert_eq!(skip(b"unterminated"), None);
        assert_eq!(skip(b"ends in a backslash\\"), None);
    }
}
