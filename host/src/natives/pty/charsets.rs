//! The DEC special graphics character set (`seam_guest::line_drawing`), which the emulator lacks:
//! curses programs in a non-UTF-8 locale draw boxes by switching to it (`ESC ( 0`, or `ESC ) 0`
//! then SO) and printing ASCII letters. Output is rewritten before the emulator sees it: letters
//! printed while the set is active become the Unicode box characters. Escape sequences are
//! followed just far enough to leave their bytes alone.

use seam_guest::line_drawing::special_graphic;
use std::borrow::Cow;

/// Where in the output stream the last byte left off; kept across chunks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Place {
    #[default]
    Text,
    Escape,
    /// `ESC (` or `ESC )`: the next byte names the set of G0 or G1.
    Designate {
        g1: bool,
    },
    /// Any other escape with intermediates (`ESC # 8`, `ESC ( B` of G2/G3 …): ends at its final byte.
    EscapeTail,
    Csi,
    /// OSC, DCS, and other strings: end at BEL or ST (`ESC \`).
    String,
    StringEscape,
}

#[derive(Debug, Default)]
pub(super) struct Charsets {
    place: Place,
    g0_graphics: bool,
    g1_graphics: bool,
    /// SO selected G1; SI selects G0 again.
    shifted: bool,
}

impl Charsets {
    fn graphics(&self) -> bool {
        if self.shifted {
            self.g1_graphics
        } else {
            self.g0_graphics
        }
    }

    /// The output with the special graphics set drawn; untouched (borrowed) when the set was not
    /// in use, which is almost always.
    pub(super) fn translate<'a>(&mut self, bytes: &'a [u8]) -> Cow<'a, [u8]> {
        let mut out: Option<Vec<u8>> = None;
        let mut at = 0;
        while at < bytes.len() {
            // Plain text in the ASCII set is most of any output: skip to what could change a set.
            if self.place == Place::Text && !self.graphics() {
                let skipped = bytes[at..]
                    .iter()
                    .position(|b| matches!(b, 0x1b | 0x0e | 0x0f))
                    .unwrap_or(bytes.len() - at);
                if let Some(out) = out.as_mut() {
                    out.extend_from_slice(&bytes[at..at + skipped]);
                }
                at += skipped;
                if at == bytes.len() {
                    break;
                }
            }
            let byte = bytes[at];
            let drawn = (self.place == Place::Text && self.graphics())
                .then(|| special_graphic(char::from(byte)))
                .flatten();
            self.step(byte);
            if let Some(drawn) = drawn {
                let out = out.get_or_insert_with(|| bytes[..at].to_vec());
                let mut buf = [0; 4];
                out.extend_from_slice(drawn.encode_utf8(&mut buf).as_bytes());
            } else if let Some(out) = out.as_mut() {
                out.push(byte);
            }
            at += 1;
        }
        out.map_or(Cow::Borrowed(bytes), Cow::Owned)
    }

    fn step(&mut self, byte: u8) {
        const ESC: u8 = 0x1b;
        const CAN: u8 = 0x18;
        const SUB: u8 = 0x1a;
        self.place = match (self.place, byte) {
            // CAN and SUB abort a sequence; ESC starts a new one anywhere but inside a string.
            (Place::String | Place::StringEscape, ESC) => Place::StringEscape,
            (_, CAN | SUB) => Place::Text,
            (_, ESC) => Place::Escape,
            (Place::Text, 0x0e) => {
                self.shifted = true;
                Place::Text
            }
            (Place::Text, 0x0f) => {
                self.shifted = false;
                Place::Text
            }
            (Place::Text, _) => Place::Text,
            (Place::Escape, b'[') => Place::Csi,
            (Place::Escape, b']' | b'P' | b'X' | b'^' | b'_') => Place::String,
            (Place::Escape, b'(' | b')') => Place::Designate { g1: byte == b')' },
            (Place::Escape, 0x20..=0x2f) => Place::EscapeTail,
            (Place::Escape, b'c') => {
                *self = Self::default();
                Place::Text
            }
            (Place::Escape, _) => Place::Text,
            (Place::Designate { g1 }, 0x30..=0x7e) => {
                let graphics = byte == b'0';
                if g1 {
                    self.g1_graphics = graphics;
                } else {
                    self.g0_graphics = graphics;
                }
                Place::Text
            }
            (Place::Designate { .. } | Place::EscapeTail, 0x20..=0x2f) => Place::EscapeTail,
            (Place::Designate { .. } | Place::EscapeTail, _) => Place::Text,
            (Place::Csi, 0x40..=0x7e) => Place::Text,
            (Place::Csi, _) => Place::Csi,
            (Place::String, 0x07) => Place::Text,
            (Place::String, _) => Place::String,
            (Place::StringEscape, b'\\') => Place::Text,
            (Place::StringEscape, _) => Place::String,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drawn(charsets: &mut Charsets, bytes: &[u8]) -> String {
        String::from_utf8(charsets.translate(bytes).into_owned()).unwrap()
    }

    #[test]
    fn letters_in_the_graphics_set_are_box_characters() {
        let mut charsets = Charsets::default();
        assert_eq!(drawn(&mut charsets, b"\x1b(0lqqk\x1b(B lq"), "\x1b(0┌──┐\x1b(B lq");
        assert!(matches!(charsets.translate(b"plain lqqk"), Cow::Borrowed(_)));
    }

    #[test]
    fn shift_out_selects_the_graphics_set_of_g1() {
        let mut charsets = Charsets::default();
        assert_eq!(drawn(&mut charsets, b"\x1b)0x\x0ex\x0fx"), "\x1b)0x\x0e│\x0fx");
    }

    #[test]
    fn escape_sequences_keep_their_letters_also_across_chunks() {
        let mut charsets = Charsets::default();
        assert_eq!(
            drawn(&mut charsets, b"\x1b(0q\x1b[1;2Hq\x1b["),
            "\x1b(0─\x1b[1;2H─\x1b["
        );
        assert_eq!(
            drawn(&mut charsets, b"?25lq\x1b]0;title\x07q"),
            "?25l─\x1b]0;title\x07─"
        );
        assert_eq!(drawn(&mut charsets, b"\x1b("), "\x1b(");
        assert_eq!(drawn(&mut charsets, b"Bq"), "Bq");
    }

    #[test]
    fn a_terminal_reset_leaves_the_graphics_set() {
        let mut charsets = Charsets::default();
        assert_eq!(drawn(&mut charsets, b"\x1b(0q\x1bcq"), "\x1b(0─\x1bcq");
    }
}
