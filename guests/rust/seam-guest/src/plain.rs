//! Program output as the text a person would see on the lines it printed: a model reads
//! `ESC[31m`, `\r\n` and a progress bar's hundred carriage returns as noise it pays for. Escape
//! sequences (colors, title codes) are dropped, but for moves along the line and erasing in it;
//! within a line, a carriage return goes back to its start and a backspace one column left, so later
//! text overwrites earlier text as on a screen; line feeds end lines. Full-screen programs,
//! which move the cursor around, are not laid out. Byte offsets in results still count the
//! raw stream.

use crate::line_drawing::special_graphic;

const ESC: char = '\u{1b}';
const BEL: char = '\u{7}';
/// SO and SI: switch to the G1 character set and back to G0.
const SHIFT_OUT: char = '\u{e}';
const SHIFT_IN: char = '\u{f}';

pub fn plain(raw: &str) -> String {
    // Most output is lines of text already: a terminal shows it as it is, and a carriage return
    // right before a line feed (a terminal's own line ends) changes nothing it shows.
    match has_terminal_codes(raw) {
        true => draw(raw),
        false if raw.contains('\r') => raw.replace("\r\n", "\n"),
        false => raw.to_owned(),
    }
}

/// The lines a terminal shows for `raw`, character by character.
fn draw(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut line = Line::default();
    let mut sets = CharacterSets::default();
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ESC => match skip_escape(&mut chars) {
                Some(Edit::Designate { g1, graphics }) => sets.designate(g1, graphics),
                Some(edit) => line.apply(edit),
                None => {}
            },
            SHIFT_OUT => sets.shifted = true,
            SHIFT_IN => sets.shifted = false,
            '\n' => {
                line.flush_into(&mut out);
                out.push('\n');
            }
            '\r' => line.column = 0,
            '\u{8}' => line.column = line.column.saturating_sub(1),
            '\t' => line.put('\t'),
            c if c.is_control() => {}
            c => line.put(sets.draw(c)),
        }
    }
    line.flush_into(&mut out);
    out
}

/// Whether `raw` holds a control character other than a line feed, a tab or a carriage return
/// before a line feed: ESC, another carriage return, a backspace, the charset shifts, a C1
/// control. Without one a terminal shows the lines as they are. A C1 control is U+0080 to
/// U+009F, in UTF-8 0xC2 followed by 0x80 to 0x9F.
fn has_terminal_codes(raw: &str) -> bool {
    let bytes = raw.as_bytes();
    let suspect = |byte: u8| matches!(byte, 0..=0x08 | 0x0b..=0x1f | 0x7f | 0xc2);
    // A first pass that compares many bytes at once: most output has no suspect byte at all.
    if !bytes.iter().any(|&byte| suspect(byte)) {
        return false;
    }
    bytes
        .iter()
        .enumerate()
        .filter(|&(_, &byte)| suspect(byte))
        .any(|(at, &byte)| match byte {
            b'\r' => bytes.get(at + 1) != Some(&b'\n'),
            0xc2 => bytes.get(at + 1).is_some_and(|next| (0x80..=0x9f).contains(next)),
            _ => true,
        })
}

/// Which of G0 and G1 hold the line-drawing set, and which of them is in use.
#[derive(Default)]
struct CharacterSets {
    g0_graphics: bool,
    g1_graphics: bool,
    shifted: bool,
}

impl CharacterSets {
    fn designate(&mut self, g1: bool, graphics: bool) {
        if g1 {
            self.g1_graphics = graphics;
        } else {
            self.g0_graphics = graphics;
        }
    }

    fn draw(&self, c: char) -> char {
        let graphics = if self.shifted {
            self.g1_graphics
        } else {
            self.g0_graphics
        };
        graphics.then(|| special_graphic(c)).flatten().unwrap_or(c)
    }
}

/// True when the output addresses the cursor to a row of the screen: a program painting the
/// screen (`top`, a curses menu), whose text `plain` cannot lay out as lines; the terminal's
/// screen shows it. Relative moves (a REPL redrawing its input line, a two-line progress display
/// going up) are not painting: their output still reads as lines.
pub fn paints_screen(raw: &str) -> bool {
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ESC && matches!(skip_escape(&mut chars), Some(Edit::Row)) {
            return true;
        }
    }
    false
}

/// The line being printed: its characters and the column the next one goes to.
#[derive(Default)]
struct Line {
    cells: Vec<char>,
    column: usize,
}

/// The escape sequences that change what a line shows: `ESC [ n K` erases to its end, from its
/// start to the cursor, or all of it; `ESC [ n D`, `C` and `G` move the cursor left, right and
/// to a column. A move to a row of the screen leaves the line as it is, as far as `plain` can
/// tell.
enum Edit {
    EraseToEnd,
    EraseToCursor,
    EraseAll,
    Left(usize),
    Right(usize),
    Column(usize),
    Row,
    /// `ESC ( x` or `ESC ) x`: G0 or G1 becomes the line-drawing set (`x` = `0`) or another.
    Designate {
        g1: bool,
        graphics: bool,
    },
}

impl Line {
    fn put(&mut self, c: char) {
        if self.cells.len() < self.column {
            self.cells.resize(self.column, ' ');
        }
        match self.cells.get_mut(self.column) {
            Some(cell) => *cell = c,
            None => self.cells.push(c),
        }
        self.column += 1;
    }

    fn apply(&mut self, edit: Edit) {
        match edit {
            Edit::EraseToEnd => self.cells.truncate(self.column),
            Edit::EraseToCursor => {
                let end = (self.column + 1).min(self.cells.len());
                self.cells[..end].fill(' ');
            }
            Edit::EraseAll => self.cells.clear(),
            Edit::Left(n) => self.column = self.column.saturating_sub(n),
            Edit::Right(n) => self.column += n,
            Edit::Column(n) => self.column = n.saturating_sub(1),
            Edit::Row | Edit::Designate { .. } => {}
        }
    }

    fn flush_into(&mut self, out: &mut String) {
        out.extend(self.cells.drain(..));
        self.column = 0;
    }
}

/// Step over the escape sequence whose ESC was just read (ECMA-48): CSI up to its final byte;
/// OSC, DCS, SOS, PM and APC strings up to BEL or ST; otherwise intermediates and one final.
/// A sequence that edits the line is returned, to be applied.
fn skip_escape(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Option<Edit> {
    match chars.next() {
        Some('[') => {
            let mut parameters = String::new();
            for c in chars.by_ref() {
                if ('\u{40}'..='\u{7e}').contains(&c) {
                    let count = || parameters.parse::<usize>().map_or(1, |n| n.max(1));
                    return match (c, parameters.as_str()) {
                        ('K', "" | "0") => Some(Edit::EraseToEnd),
                        ('K', "1") => Some(Edit::EraseToCursor),
                        ('K', "2") => Some(Edit::EraseAll),
                        ('D', _) => Some(Edit::Left(count())),
                        ('C', _) => Some(Edit::Right(count())),
                        ('G', _) => Some(Edit::Column(count())),
                        // Cursor position (two spellings), line position.
                        ('H' | 'f' | 'd', _) => Some(Edit::Row),
                        _ => None,
                    };
                }
                parameters.push(c);
            }
        }
        Some(']' | 'P' | 'X' | '^' | '_') => {
            while let Some(c) = chars.next() {
                if c == BEL || (c == ESC && chars.next_if_eq(&'\\').is_some()) {
                    break;
                }
            }
        }
        Some(c) if ('\u{20}'..='\u{2f}').contains(&c) => {
            let intermediate = |c: &char| ('\u{20}'..='\u{2f}').contains(c);
            let designates = matches!(c, '(' | ')') && chars.peek().is_some_and(|next| !intermediate(next));
            while chars.next_if(intermediate).is_some() {}
            let last = chars.next();
            if designates {
                return Some(Edit::Designate {
                    g1: c == ')',
                    graphics: last == Some('0'),
                });
            }
        }
        _ => {}
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{draw, paints_screen, plain};

    #[test]
    fn colors_titles_and_charset_codes_are_dropped() {
        assert_eq!(plain("\u{1b}[31mred\u{1b}[0m plain\r\n"), "red plain\n");
        assert_eq!(plain("\u{1b}]0;title\u{7}$ ls\r\n"), "$ ls\n");
        assert_eq!(plain("\u{1b}]8;;http://x\u{1b}\\link\u{1b}]8;;\u{1b}\\"), "link");
        assert_eq!(plain("\u{1b}(Bb\u{1b}=c\u{1b}[?2004hd"), "bcd");
        assert_eq!(plain("\u{1b}#8e\u{1b}%Gf"), "ef");
        assert_eq!(plain("a\u{7}b\u{0}c"), "abc");
    }

    #[test]
    fn carriage_returns_and_backspaces_overwrite_as_on_a_screen() {
        assert_eq!(plain("10%\r50%\r100%\ndone\n"), "100%\ndone\n");
        assert_eq!(plain("loading...\rok\n"), "okading...\n");
        assert_eq!(plain("loading...\rok\u{1b}[K\n"), "ok\n");
        assert_eq!(plain("abcdef\u{1b}[3D\u{1b}[1K\n"), "    ef\n");
        assert_eq!(plain("abcdef\u{1b}[4DX\u{1b}[2CY\u{1b}[1GZ\n"), "ZbXdeY\n");
        assert_eq!(plain("old line\u{1b}[2K\rnew\n"), "new\n");
        assert_eq!(plain("ab\u{1b}[2Kc\n"), "  c\n");
        assert_eq!(plain("ab\u{8}c\n"), "ac\n");
        assert_eq!(plain("\u{8}\u{8}x"), "x");
        assert_eq!(plain("a\tb\r\n\r\n"), "a\tb\n\n");
    }

    #[test]
    fn moves_to_a_row_are_painting_relative_moves_are_not() {
        assert!(paints_screen("\u{1b}[H\u{1b}[2Jtop - 10:00"));
        assert!(paints_screen("a\u{1b}[5;1Hb"));
        assert!(!paints_screen("A: 50%\nB: 50%\u{1b}[2A\rA: 60%"));
        assert!(!paints_screen("> 1+\u{1b}[1G\u{1b}[0J> 1+1\u{1b}[6G"));
        assert!(!paints_screen("\u{1b}[31mred\u{1b}[0m 10%\r50%\u{1b}[K\n"));
        assert!(!paints_screen("\u{1b}]0;H\u{7}plain H"));
    }

    #[test]
    fn letters_in_the_line_drawing_set_are_box_characters() {
        assert_eq!(plain("\u{1b}(0lqk\u{1b}(B lq\r\n"), "┌─┐ lq\n");
        assert_eq!(plain("\u{1b})0x\u{e}x\u{f}x"), "x│x");
    }

    #[test]
    fn text_without_controls_is_unchanged() {
        let text = "é😀 — £5 at 20°C, tabs\tand lines\nno end";
        assert_eq!(plain(text), text);
        assert_eq!(plain(""), "");
        // As drawing it would show it.
        assert_eq!(draw(text), text);
        // A terminal's line ends are line ends.
        let lines = "a\r\nb\r\n\r\nc";
        assert_eq!(plain(lines), "a\nb\n\nc");
        assert_eq!(draw(lines), plain(lines));
        assert_eq!(plain("a\r\nxb\rc\r\n"), "a\ncb\n");
    }

    #[test]
    fn c1_controls_and_delete_are_left_out() {
        assert_eq!(plain("a\u{85}b\u{9b}c\u{7f}d £"), "abcd £");
    }

    #[test]
    fn a_sequence_cut_by_the_end_of_the_text_is_dropped() {
        assert_eq!(plain("ok\u{1b}[3"), "ok");
        assert_eq!(plain("ok\u{1b}]0;ti"), "ok");
        assert_eq!(plain("ok\u{1b}"), "ok");
    }
}
