//! The `[exit code: N]` marker that follows a command's output when it exits non-zero.
//!
//! This module is the single contract for the marker: every component renders it with
//! [`render`] and reads it back with [`parse`], so the two can never drift apart.

const PREFIX: &str = "[exit code: ";
const SUFFIX: &str = "]";

/// The marker line for an exit code, without a line break.
pub fn render(code: i32) -> String {
    format!("{PREFIX}{code}{SUFFIX}")
}

/// The exit code carried by `text`, when its last non-blank line is exactly a marker.
///
/// Only the last line counts: output that prints something marker-like earlier is not a
/// status. Only what [`render`] produces is accepted (no sign, no padding).
pub fn parse(text: &str) -> Option<i32> {
    let line = text.lines().rev().find(|line| !line.trim().is_empty())?.trim();
    let code = line.strip_prefix(PREFIX)?.strip_suffix(SUFFIX)?.parse().ok()?;
    (render(code) == line).then_some(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_the_marker() {
        assert_eq!(render(2), "[exit code: 2]");
        assert_eq!(render(-1), "[exit code: -1]");
    }

    #[test]
    fn parses_what_it_renders() {
        for code in [1, 2, 127, 255, -1, i32::MIN, i32::MAX] {
            assert_eq!(parse(&render(code)), Some(code));
        }
    }

    #[test]
    fn reads_the_last_line_after_output() {
        assert_eq!(parse("building...\nerror: nope\n[exit code: 101]\n"), Some(101));
        assert_eq!(parse("out\r\n[exit code: 3]\r\n\r\n"), Some(3));
    }

    #[test]
    fn ignores_markers_that_are_not_the_last_line() {
        assert_eq!(parse("[exit code: 1]\nmore output"), None);
    }

    #[test]
    fn rejects_text_render_would_not_produce() {
        for text in [
            "",
            "[exit code: ]",
            "[exit code: +1]",
            "[exit code:  1]",
            "[exit code: 1] x",
            "[exit code: 99999999999]",
        ] {
            assert_eq!(parse(text), None, "{text:?}");
        }
    }
}
