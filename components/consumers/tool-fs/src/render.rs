//! A text file as the model reads it: a window of numbered lines (`cat -n` style), long lines
//! cut, the whole bounded in bytes, and a last line saying how to read on.

/// Which lines to show and the bounds on what is shown.
pub struct Window {
    /// First line, 1-based.
    pub offset: usize,
    pub limit: usize,
    pub max_line_chars: usize,
    pub max_output_bytes: usize,
}

/// The lines of a window as the fs seam's `read-lines` gives them, and what follows them.
pub struct Lines<'a> {
    /// The window's lines, line ends included.
    pub text: &'a str,
    pub more: bool,
    /// The file's number of lines, known when the window reached the end of the file.
    pub line_count: Option<u64>,
    /// The whole file's size in bytes as stat gives it (0 for most of /proc, whatever it holds).
    pub size: u64,
}

use seam_guest::text::{cut_line, push_decimal};

/// U+FEFF at the start of a file: a UTF-8 byte order mark.
pub const BYTE_ORDER_MARK: char = '\u{feff}';

/// Columns of a line number, as `cat -n` shows it.
const NUMBER_WIDTH: usize = 6;

/// Whether every line of `text` that is not blank starts as a line of [`numbered`] does: a
/// number and a tab, copied from `read` along with the text.
pub fn carries_line_numbers(text: &str) -> bool {
    let mut lines = text.lines().filter(|line| !line.trim().is_empty()).peekable();
    lines.peek().is_some()
        && lines.all(|line| {
            line.trim_start_matches(' ')
                .split_once('\t')
                .is_some_and(|(number, _)| !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()))
        })
}

pub fn numbered(lines: &Lines<'_>, window: &Window) -> String {
    if lines.line_count == Some(0) {
        return "[empty file]".to_owned();
    }
    let first = window.offset.max(1);
    let mut rows = lines.text.lines().take(window.limit).peekable();
    if rows.peek().is_none() {
        let total = match lines.line_count.unwrap_or_default() {
            1 => "1 line".to_owned(),
            n => format!("{n} lines"),
        };
        return format!("[the file has {total}; offset {first} is past the end]");
    }
    let mut out = String::new();
    let mut next = first;
    while let Some(line) = rows.peek() {
        // Appended in place and taken back when over the bound: a `format!` per line cost more
        // than reading the lines.
        let start = out.len();
        push_decimal(&mut out, next as u64, NUMBER_WIDTH);
        out.push('\t');
        // A byte order mark is no text of the line: shown, it would be copied into an
        // `old_string` invisibly. `write` keeps the file's own.
        let line = if next == 1 {
            line.strip_prefix(BYTE_ORDER_MARK).unwrap_or(line)
        } else {
            line
        };
        out.push_str(&cut_line(line, window.max_line_chars));
        out.push('\n');
        if out.len() > window.max_output_bytes && next > first {
            out.truncate(start);
            break;
        }
        rows.next();
        next += 1;
    }
    if rows.peek().is_some() || lines.more {
        let size = match lines.size {
            0 => String::new(),
            size => format!(" ({size} bytes in all)"),
        };
        out.push_str(&format!(
            "[lines {first}-{}; more follow{size}: continue with offset={next}]",
            next - 1
        ));
    } else {
        out.truncate(out.trim_end_matches('\n').len());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(offset: usize, limit: usize) -> Window {
        Window {
            offset,
            limit,
            max_line_chars: 10,
            max_output_bytes: 1 << 20,
        }
    }

    /// A window that reached the end of a file of `size` bytes and `line_count` lines.
    fn last(text: &str, line_count: u64, size: u64) -> Lines<'_> {
        Lines {
            text,
            more: false,
            line_count: Some(line_count),
            size,
        }
    }

    /// A window with lines after it.
    fn more(text: &str, size: u64) -> Lines<'_> {
        Lines {
            text,
            more: true,
            line_count: None,
            size,
        }
    }

    #[test]
    fn a_byte_order_mark_is_not_shown_as_text_of_the_first_line() {
        let text = "\u{feff}one\n\u{feff}two\n";
        assert_eq!(
            numbered(&last(text, 2, 12), &window(1, 10)),
            "     1\tone\n     2\t\u{feff}two"
        );
        assert_eq!(
            numbered(&last("\u{feff}two\n", 2, 12), &window(2, 10)),
            "     2\t\u{feff}two"
        );
    }

    #[test]
    fn numbers_every_line() {
        assert_eq!(numbered(&last("a\nb\n", 2, 4), &window(1, 100)), "     1\ta\n     2\tb");
        assert_eq!(numbered(&last("a\r\nb", 2, 4), &window(1, 100)), "     1\ta\n     2\tb");
    }

    #[test]
    fn text_copied_with_its_line_numbers_is_recognised() {
        let shown = numbered(&last("fn f() {\n\n\tx();\n}\n", 4, 17), &window(1, 100));
        assert!(carries_line_numbers(&shown), "{shown}");
        assert!(carries_line_numbers("12\tx();"));
        for text in ["fn f() {\n\tx();", "\tx();", "a\tb", "\n  \n", "", "12 x();"] {
            assert!(!carries_line_numbers(text), "{text:?}");
        }
    }

    #[test]
    fn windows_say_how_to_continue() {
        assert_eq!(
            numbered(&more("2\n3\n", 10), &window(2, 2)),
            "     2\t2\n     3\t3\n[lines 2-3; more follow (10 bytes in all): continue with offset=4]"
        );
        assert_eq!(numbered(&last("5\n", 5, 10), &window(5, 2)), "     5\t5");
        assert_eq!(
            numbered(&last("", 5, 10), &window(9, 2)),
            "[the file has 5 lines; offset 9 is past the end]"
        );
        assert_eq!(
            numbered(&last("", 1, 3), &window(4, 2)),
            "[the file has 1 line; offset 4 is past the end]"
        );
        assert_eq!(numbered(&last("", 0, 0), &window(1, 2)), "[empty file]");
    }

    #[test]
    fn a_file_stat_calls_empty_is_shown_by_what_it_holds() {
        // /proc/cpuinfo: size 0, lines all the same.
        assert_eq!(numbered(&last("a\nb\n", 2, 0), &window(1, 5)), "     1\ta\n     2\tb");
        assert_eq!(
            numbered(&more("a\nb\n", 0), &window(1, 2)),
            "     1\ta\n     2\tb\n[lines 1-2; more follow: continue with offset=3]"
        );
    }

    #[test]
    fn more_lines_after_the_window_are_announced() {
        assert_eq!(
            numbered(&more("a\nb\n", 100), &window(7, 2)),
            "     7\ta\n     8\tb\n[lines 7-8; more follow (100 bytes in all): continue with offset=9]"
        );
    }

    #[test]
    fn long_lines_are_cut_on_a_character() {
        assert_eq!(
            numbered(&last("ééééééééééééé", 1, 26), &window(1, 1)),
            "     1\téééééééééé… [line truncated]"
        );
    }

    #[test]
    fn output_is_bounded_in_bytes() {
        let text = "line\n".repeat(100);
        let bounded = Window {
            max_output_bytes: 30,
            ..window(1, 100)
        };
        assert_eq!(
            numbered(&last(&text, 100, 500), &bounded),
            "     1\tline\n     2\tline\n[lines 1-2; more follow (500 bytes in all): continue with offset=3]"
        );
    }
}
