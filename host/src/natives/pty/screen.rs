//! What the terminal shows: every byte the session prints is also fed to a terminal emulator, so
//! a full-screen program (an editor, a pager, `top`) can be read as the screen a person would
//! see, not as the stream of cursor moves that painted it.

use super::charsets::Charsets;
use super::legacy_modes::LegacyModes;
use std::borrow::Cow;
use std::num::NonZeroU16;

/// The visible screen at one moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    pub rows: u16,
    pub cols: u16,
    /// One entry per row, trailing blanks trimmed.
    pub lines: Vec<String>,
    /// 0-based.
    pub cursor_row: u16,
    pub cursor_col: u16,
    /// A full-screen program has switched to the alternate screen.
    pub alternate: bool,
}

/// The emulator, and the answers it owes the program: a program that asks the terminal where its
/// cursor is, or what kind of terminal it is, waits for the reply.
pub struct Screen {
    parser: vt100::Parser<Answers>,
    charsets: Charsets,
    legacy_modes: LegacyModes,
}

#[derive(Default)]
struct Answers {
    pending: Vec<u8>,
}

impl vt100::Callbacks for Answers {
    fn unhandled_csi(&mut self, screen: &mut vt100::Screen, i1: Option<u8>, _: Option<u8>, params: &[&[u16]], c: char) {
        let first = params.first().and_then(|p| p.first()).copied().unwrap_or(0);
        match (i1, c, first) {
            // Device status report: "OK".
            (None, 'n', 5) => self.pending.extend_from_slice(b"\x1b[0n"),
            // Cursor position report, 1-based.
            (None, 'n', 6) => {
                let (row, col) = screen.cursor_position();
                self.pending
                    .extend_from_slice(format!("\x1b[{};{}R", row + 1, col + 1).as_bytes());
            }
            // Primary device attributes: a VT100 with advanced video, as xterm answers.
            (None, 'c', 0) => self.pending.extend_from_slice(b"\x1b[?1;2c"),
            // Secondary device attributes.
            (Some(b'>'), 'c', 0) => self.pending.extend_from_slice(b"\x1b[>0;276;0c"),
            _ => {}
        }
    }
}

impl Screen {
    pub fn new(rows: u16, cols: u16) -> Self {
        let (rows, cols) = size(rows, cols);
        Self {
            parser: vt100::Parser::new_with_callbacks(rows, cols, 0, Answers::default()),
            charsets: Charsets::default(),
            legacy_modes: LegacyModes::default(),
        }
    }

    /// Feeds output; returns what the terminal answers to queries in it, to be written back.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<u8> {
        let translated = self.charsets.translate(bytes);
        self.legacy_modes.feed(&mut self.parser, &translated);
        std::mem::take(&mut self.parser.callbacks_mut().pending)
    }

    /// `input` as the keyboard sends it in the current mode: in application cursor mode the
    /// arrows, Home and End are `ESC O x` where the normal mode has `ESC [ x`.
    pub(super) fn keys<'a>(&self, input: &'a [u8]) -> Cow<'a, [u8]> {
        const CURSOR_KEYS: &[u8] = b"ABCDHF";
        if !self.parser.screen().application_cursor() || !input.windows(2).any(|w| w == b"\x1b[") {
            return Cow::Borrowed(input);
        }
        let mut keys = input.to_vec();
        for at in 0..keys.len().saturating_sub(2) {
            if keys[at] == 0x1b && keys[at + 1] == b'[' && CURSOR_KEYS.contains(&keys[at + 2]) {
                keys[at + 1] = b'O';
            }
        }
        Cow::Owned(keys)
    }

    pub(super) fn resize(&mut self, rows: u16, cols: u16) {
        let (rows, cols) = size(rows, cols);
        self.parser.set_size(rows, cols);
    }

    pub fn snapshot(&self) -> Snapshot {
        let screen = self.parser.screen();
        let (rows, cols) = screen.size();
        let (cursor_row, cursor_col) = screen.cursor_position();
        Snapshot {
            rows: rows.get(),
            cols: cols.get(),
            lines: screen
                .rows(0, cols.get())
                .map(|row| row.trim_end().to_owned())
                .collect(),
            cursor_row,
            // After a write to the last column the cursor waits there to wrap; it is shown on it.
            cursor_col: cursor_col.min(cols.get() - 1),
            alternate: screen.alternate_screen(),
        }
    }
}

fn size(rows: u16, cols: u16) -> (NonZeroU16, NonZeroU16) {
    (
        NonZeroU16::new(rows).unwrap_or(NonZeroU16::MIN),
        NonZeroU16::new(cols).unwrap_or(NonZeroU16::MIN),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shows_what_cursor_moves_painted() {
        let mut screen = Screen::new(3, 10);
        screen.feed(b"hello\r\nworld\x1b[1;1HJ\x1b[2;3H\x1b[K");
        let shot = screen.snapshot();
        assert_eq!(shot.lines, ["Jello", "wo", ""]);
        assert_eq!((shot.cursor_row, shot.cursor_col), (1, 2));
        assert!(!shot.alternate);
    }

    #[test]
    fn a_full_screen_program_is_seen_on_the_alternate_screen_and_gone_after() {
        let mut screen = Screen::new(2, 8);
        screen.feed(b"$ less\r\n\x1b[?1049h\x1b[H\x1b[2Jpage 1");
        let shot = screen.snapshot();
        assert!(shot.alternate);
        assert_eq!(shot.lines, ["page 1", ""]);
        screen.feed(b"\x1b[?1049l");
        assert_eq!(screen.snapshot().lines[0], "$ less");
    }

    #[test]
    fn the_older_alternate_screen_modes_work_as_the_newer_one_even_split_across_reads() {
        let mut screen = Screen::new(2, 8);
        screen.feed(b"$ pager\x1b[?1048h\x1b[?10");
        screen.feed(b"47h\x1b[Hpage 1");
        let shot = screen.snapshot();
        assert!(shot.alternate);
        assert_eq!(shot.lines, ["page 1", ""]);
        screen.feed(b"\x1b[?1047l\x1b[?1048l");
        let shot = screen.snapshot();
        assert!(!shot.alternate);
        assert_eq!(shot.lines, ["$ pager", ""]);
        assert_eq!((shot.cursor_row, shot.cursor_col), (0, 7));
        // Left, the alternate screen was cleared; entered again, it shows nothing of before.
        screen.feed(b"\x1b[?1047h");
        assert_eq!(screen.snapshot().lines, ["", ""]);
        // Not the older modes: passed through as they are, split or not.
        screen.feed(b"\x1b[?1047l\x1b[?104");
        screen.feed(b"9h");
        assert!(screen.snapshot().alternate);
    }

    #[test]
    fn the_older_modes_among_others_in_one_sequence_work_and_the_others_still_apply() {
        let mut screen = Screen::new(2, 8);
        screen.feed(b"$ top\x1b[?1048;1047;2");
        screen.feed(b"5h\x1b[Htop 1");
        let shot = screen.snapshot();
        assert!(shot.alternate);
        assert_eq!(shot.lines, ["top 1", ""]);
        screen.feed(b"\x1b[?25;1047l");
        assert!(!screen.snapshot().alternate);
        assert!(screen.parser.screen().hide_cursor());
        screen.feed(b"\x1b[?1048l\x1b[?25h");
        let shot = screen.snapshot();
        assert_eq!(shot.lines, ["$ top", ""]);
        assert_eq!((shot.cursor_row, shot.cursor_col), (0, 5));
        assert!(!screen.parser.screen().hide_cursor());
    }

    #[test]
    fn boxes_drawn_in_the_special_graphics_set_are_seen_as_boxes() {
        let mut screen = Screen::new(3, 10);
        screen.feed(b"\x1b(0lqk\r\nx\x1b(Bo\x1b(0x\r\nmqj\x1b(B");
        assert_eq!(screen.snapshot().lines, ["┌─┐", "│o│", "└─┘"]);
    }

    #[test]
    fn a_cursor_waiting_to_wrap_is_on_the_last_column() {
        let mut screen = Screen::new(2, 4);
        screen.feed(b"abcd");
        let shot = screen.snapshot();
        assert_eq!((shot.cursor_row, shot.cursor_col), (0, 3));
    }

    #[test]
    fn cursor_keys_follow_the_mode_the_program_asked_for() {
        let mut screen = Screen::new(2, 10);
        assert_eq!(&screen.keys(b"\x1b[A\x1b[1;5C")[..], b"\x1b[A\x1b[1;5C");
        screen.feed(b"\x1b[?1h\x1b=");
        assert_eq!(
            &screen.keys(b"k\x1b[A\x1b[Dq\x1b[1;5C\x1b[")[..],
            b"k\x1bOA\x1bODq\x1b[1;5C\x1b["
        );
        screen.feed(b"\x1b[?1l");
        assert_eq!(&screen.keys(b"\x1b[B")[..], b"\x1b[B");
    }

    #[test]
    fn answers_cursor_and_attribute_queries() {
        let mut screen = Screen::new(5, 20);
        assert_eq!(screen.feed(b"ab\x1b[6n"), b"\x1b[1;3R");
        assert_eq!(screen.feed(b"\x1b[c"), b"\x1b[?1;2c");
        assert!(screen.feed(b"plain text").is_empty());
    }

    #[test]
    fn resizing_keeps_the_text_that_still_fits() {
        let mut screen = Screen::new(2, 10);
        screen.feed(b"0123456789");
        screen.resize(4, 4);
        let shot = screen.snapshot();
        assert_eq!((shot.rows, shot.cols), (4, 4));
        assert_eq!(shot.lines[0], "0123");
    }
}
