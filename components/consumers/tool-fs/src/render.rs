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

const TRUNCATED_LINE: &str = "… [line truncated]";

pub fn numbered(text: &str, window: &Window) -> String {
    if text.is_empty() {
        return "[empty file]".to_owned();
    }
    let first = window.offset.max(1);
    // Only the lines up to the end of the window are looked at: a large file is not scanned to
    // its end just to count its lines.
    let mut lines = text.lines().skip(first - 1).peekable();
    if lines.peek().is_none() {
        let total = text.lines().count();
        return format!("[the file has {total} lines; offset {first} is past the end]");
    }
    let mut out = String::new();
    let mut next = first;
    while let Some(line) = lines.peek() {
        if next - first == window.limit {
            break;
        }
        // Appended in place and taken back when over the bound: a `format!` per line cost more
        // than reading the lines.
        let start = out.len();
        push_number(&mut out, next);
        out.push('\t');
        out.push_str(&cut(line, window.max_line_chars));
        out.push('\n');
        if out.len() > window.max_output_bytes && next > first {
            out.truncate(start);
            break;
        }
        lines.next();
        next += 1;
    }
    if lines.peek().is_some() {
        out.push_str(&format!(
            "[lines {first}-{}; more follow ({} bytes in all): continue with offset={next}]",
            next - 1,
            text.len()
        ));
    } else {
        out.truncate(out.trim_end_matches('\n').len());
    }
    out
}

/// `{n:>6}`: right-aligned in six columns, wider when it needs to be.
fn push_number(out: &mut String, n: usize) {
    let mut digits = [b' '; 20];
    let (mut at, mut rest) = (digits.len(), n);
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let from = at.min(digits.len() - 6);
    out.extend(digits[from..].iter().map(|&d| char::from(d)));
}

fn cut(line: &str, max_chars: usize) -> std::borrow::Cow<'_, str> {
    // A line of at most `max_chars` bytes has at most that many characters.
    if line.len() <= max_chars {
        return line.into();
    }
    match line.char_indices().nth(max_chars) {
        Some((at, _)) => format!("{}{TRUNCATED_LINE}", &line[..at]).into(),
        None => line.into(),
    }
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

    #[test]
    fn numbers_every_line() {
        assert_eq!(numbered("a\nb\n", &window(1, 100)), "     1\ta\n     2\tb");
        assert_eq!(numbered("a\r\nb", &window(1, 100)), "     1\ta\n     2\tb");
    }

    #[test]
    fn windows_say_how_to_continue() {
        let text = "1\n2\n3\n4\n5\n";
        assert_eq!(
            numbered(text, &window(2, 2)),
            "     2\t2\n     3\t3\n[lines 2-3; more follow (10 bytes in all): continue with offset=4]"
        );
        assert_eq!(numbered(text, &window(5, 2)), "     5\t5");
        assert_eq!(
            numbered(text, &window(9, 2)),
            "[the file has 5 lines; offset 9 is past the end]"
        );
        assert_eq!(numbered("", &window(1, 2)), "[empty file]");
    }

    #[test]
    fn numbers_are_right_aligned_in_six_columns() {
        for n in [0, 7, 42, 99_999, 999_999, 1_000_000, 123_456_789_012] {
            let mut out = String::new();
            push_number(&mut out, n);
            assert_eq!(out, format!("{n:>6}"));
        }
    }

    #[test]
    fn long_lines_are_cut_on_a_character() {
        assert_eq!(
            numbered("ééééééééééééé", &window(1, 1)),
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
            numbered(&text, &bounded),
            "     1\tline\n     2\tline\n[lines 1-2; more follow (500 bytes in all): continue with offset=3]"
        );
    }
}
