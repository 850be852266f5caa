//! Small text renderings tools repeat for every line they show, written without the formatting
//! machinery: in a component a `format!` per line of a large result adds up.

use std::borrow::Cow;

/// What a cut line ends with.
pub const TRUNCATED_LINE: &str = "… [line truncated]";

/// `line` cut after `max_chars` characters, marked as cut.
pub fn cut_line(line: &str, max_chars: usize) -> Cow<'_, str> {
    // A line of at most `max_chars` bytes has at most that many characters.
    if line.len() <= max_chars {
        return line.into();
    }
    match line.char_indices().nth(max_chars) {
        Some((at, _)) => format!("{}{TRUNCATED_LINE}", &line[..at]).into(),
        None => line.into(),
    }
}

/// `n` in decimal, right-aligned in `width` columns (wider when it needs to be): `{n:>width$}`.
pub fn push_decimal(out: &mut String, mut n: u64, width: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let digits = &digits[at..];
    out.extend(std::iter::repeat_n(' ', width.saturating_sub(digits.len())));
    out.push_str(std::str::from_utf8(digits).expect("ASCII digits"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_as_format_writes_them() {
        for n in [0, 7, 10, 12345, 1234567, u64::MAX] {
            for width in [0, 6] {
                let mut out = String::from("x");
                push_decimal(&mut out, n, width);
                assert_eq!(out, format!("x{n:>width$}"));
            }
        }
    }

    #[test]
    fn long_lines_are_cut_by_characters() {
        assert_eq!(cut_line("abcdef", 3), "abc… [line truncated]");
        assert_eq!(cut_line("ééé", 3), "ééé");
        assert_eq!(cut_line("éééé", 3), "ééé… [line truncated]");
        assert_eq!(cut_line("abc", 3), "abc");
    }
}
