//! Where an edit's `old_string` is when the edit cannot use it, so the model fixes the edit
//! without reading the whole file again. Text found more than once is told by its lines. Most
//! misses are one of three: the whitespace differs (indentation copied wrong, tabs for spaces,
//! a trailing space), the change was made already (a retried edit), or a line changed since the
//! model read it; the hint says which and shows the file's lines as `read` shows them, to copy
//! `old_string` from.

use std::collections::HashMap;

use crate::render::{self, BYTE_ORDER_MARK, Lines, Window};

/// Lines of the file a hint shows at most.
const MAX_LINES: usize = 40;
/// Bytes of the file a hint shows at most.
const MAX_BYTES: usize = 8 * 1024;
/// Places of a text found more than once listed by line, at most.
const MAX_PLACES: usize = 10;

/// What to tell a model whose `old` is not in `file` (the file's whole text), with `new` the
/// text it meant to put in its place; None when nothing in the file is near it.
pub fn hint(file: &str, old: &str, new: &str, max_line_chars: usize) -> Option<String> {
    let file = file.strip_prefix(BYTE_ORDER_MARK).unwrap_or(file);
    if let Some(line) = escaped_line_breaks(file, old) {
        return Some(format!(
            "old_string holds `\\n` (a backslash and an n) where the file has a line break (the text is at line \
             {line}): send line breaks and tabs in old_string and new_string as themselves, not escaped."
        ));
    }
    let lines: Vec<&str> = file.lines().collect();
    let flat: Vec<String> = lines.iter().map(|line| flattened(line)).collect();
    let wanted: Vec<String> = trimmed_lines(old).map(flattened).collect();
    // In this order: a retried edit's text may still be near what it replaced.
    let (first, what) = if let Some((first, others)) = same_but_whitespace(&flat, &wanted) {
        let places = match others {
            0 => String::new(),
            1 => " (and 1 more place)".to_owned(),
            n => format!(" (and {n} more places)"),
        };
        (first, format!("with other whitespace{places}"))
    } else if let Some(line) = line_holding(file, new) {
        return Some(format!(
            "new_string is in the file already (line {line}): if an earlier edit made this change, nothing is left to do."
        ));
    } else {
        let (first, same, of) = closest(&flat, &wanted)?;
        (first, format!("most like it ({same} of its {of} lines the same)"))
    };
    let count = wanted.len();
    let shown = count.min(MAX_LINES);
    let (where_, them) = if count == 1 {
        (format!("Line {} holds", first + 1), "it")
    } else {
        (format!("Lines {}-{} hold", first + 1, first + count), "them")
    };
    let window = Window {
        offset: first + 1,
        limit: shown,
        max_line_chars,
        max_output_bytes: MAX_BYTES,
    };
    let text = lines[first..first + shown].join("\n");
    let listing = render::numbered(
        &Lines {
            text: &text,
            more: shown < count,
            line_count: None,
            size: 0,
        },
        &window,
    );
    Some(format!(
        "{where_} the text {what}. Copy old_string from {them} exactly, without the line numbers:\n{listing}"
    ))
}

/// Where `old`, found in `file` more than once, is: "It is at lines 2, 7 and 9."; None when
/// it is not there twice.
pub fn places(file: &str, old: &str) -> Option<String> {
    let mut lines = lines_holding(file, old);
    if lines.len() < 2 {
        return None;
    }
    lines.dedup();
    if let [line] = lines[..] {
        return Some(format!("All of them are on line {line}."));
    }
    let mut listed: Vec<String> = lines.iter().take(MAX_PLACES).map(usize::to_string).collect();
    let last = match lines.len() - listed.len() {
        0 => listed.pop().unwrap_or_default(),
        more => format!("{more} more"),
    };
    Some(format!("It is at lines {} and {last}.", listed.join(", ")))
}

/// The line (1-based) where `new` starts in `file`; None when it is not there or holds nothing
/// but whitespace.
fn line_holding(file: &str, new: &str) -> Option<usize> {
    if new.trim().is_empty() {
        return None;
    }
    lines_holding(file, new).first().copied()
}

/// The lines (1-based) where each place that holds `text` in `file` starts, places not
/// overlapping, line ends compared as `read` shows them.
fn lines_holding(file: &str, text: &str) -> Vec<usize> {
    let (file, text) = (file.replace("\r\n", "\n"), text.replace("\r\n", "\n"));
    if text.is_empty() {
        return Vec::new();
    }
    let mut line = 1;
    let mut from = 0;
    file.match_indices(&text)
        .map(|(at, _)| {
            line += file[from..at].matches('\n').count();
            from = at;
            line
        })
        .collect()
}

/// The line where `old` is in `file` when its escapes `\n` and `\t` (a backslash and a letter,
/// JSON escaped twice) stand for line breaks and tabs, and it has no line break of its own.
fn escaped_line_breaks(file: &str, old: &str) -> Option<usize> {
    if !old.contains("\\n") || old.contains('\n') {
        return None;
    }
    lines_holding(file, &old.replace("\\n", "\n").replace("\\t", "\t"))
        .first()
        .copied()
}

/// A line with each run of whitespace as one space and none at either end.
fn flattened(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The lines of `text` without the blank lines at its start and its end.
fn trimmed_lines(text: &str) -> impl Iterator<Item = &str> {
    let lines: Vec<&str> = text.lines().collect();
    let blank = |line: &&str| line.trim().is_empty();
    let start = lines.iter().position(|line| !blank(line)).unwrap_or(lines.len());
    let end = lines
        .iter()
        .rposition(|line| !blank(line))
        .map_or(start, |last| last + 1);
    lines.into_iter().take(end).skip(start)
}

/// Where the flattened `wanted` lines are in the flattened file lines: the first line's index
/// and how many other places hold them. Its first line may end a line of the file and its last
/// start one, as an `old_string` may begin and end inside lines.
fn same_but_whitespace(file: &[String], wanted: &[String]) -> Option<(usize, usize)> {
    let (head, tail) = (wanted.first()?, wanted.last()?);
    if wanted.len() > file.len() || head.is_empty() {
        return None;
    }
    let at = |start: usize| {
        let lines = &file[start..start + wanted.len()];
        if wanted.len() == 1 {
            return lines[0].contains(head.as_str());
        }
        let middle = 1..wanted.len() - 1;
        lines[0].ends_with(head.as_str())
            && lines[middle.clone()] == wanted[middle]
            && lines[wanted.len() - 1].starts_with(tail.as_str())
    };
    let mut found = (0..=file.len() - wanted.len()).filter(|&start| at(start));
    let first = found.next()?;
    Some((first, found.count()))
}

/// The place in the file where most of the `wanted` lines that are not blank stand, in their
/// order and flattened alike: its first line's index, how many are the same there, and of how
/// many. None when under half of them are; a text of one line has no near place.
fn closest(file: &[String], wanted: &[String]) -> Option<(usize, usize, usize)> {
    let mut at: HashMap<&str, Vec<usize>> = HashMap::new();
    for (index, line) in wanted.iter().enumerate().filter(|(_, line)| !line.is_empty()) {
        at.entry(line.as_str()).or_default().push(index);
    }
    let of: usize = at.values().map(Vec::len).sum();
    if of < 2 {
        return None;
    }
    // Each file line the same as a wanted line votes for the place that would put them together.
    let mut votes: HashMap<usize, usize> = HashMap::new();
    for (line, text) in file.iter().enumerate() {
        for &index in at.get(text.as_str()).into_iter().flatten() {
            if line >= index && line - index + wanted.len() <= file.len() {
                *votes.entry(line - index).or_default() += 1;
            }
        }
    }
    let (first, same) = votes
        .into_iter()
        .max_by_key(|&(first, same)| (same, std::cmp::Reverse(first)))?;
    (same * 2 >= of).then_some((first, same, of))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "fn main() {\n    let x = 1;\n    println!(\"{}\", x);\n}\n";

    fn hint_for(file: &str, old: &str, new: &str) -> String {
        hint(file, old, new, 2000).unwrap_or_default()
    }

    #[test]
    fn other_whitespace_shows_the_lines_as_read_shows_them() {
        let shown = hint_for(FILE, "let  x = 1;\n\tprintln!(\"{}\", x);", "");
        assert_eq!(
            shown,
            "Lines 2-3 hold the text with other whitespace. Copy old_string from them exactly, without the line \
             numbers:\n     2\t    let x = 1;\n     3\t    println!(\"{}\", x);"
        );
        let one = hint_for(FILE, "x = 1; ", "y");
        assert!(one.starts_with("Line 2 holds the text with other whitespace."), "{one}");
        let twice = hint_for("a  b\nc\na b\n", "a b ", "z");
        assert!(twice.contains("(and 1 more place)"), "{twice}");
        let crlf = hint_for("a\r\n  b\r\nc\r\n", "a\nb\n", "z");
        assert!(
            crlf.starts_with("Lines 1-2 hold") && crlf.ends_with("     2\t  b"),
            "{crlf}"
        );
    }

    #[test]
    fn a_changed_line_shows_the_place_most_like_the_text() {
        let file = "one\ntwo\nthree\nfour\nfive\n";
        let shown = hint_for(file, "two\nTHREE\nfour\n", "z");
        assert_eq!(
            shown,
            "Lines 2-4 hold the text most like it (2 of its 3 lines the same). Copy old_string from them exactly, \
             without the line numbers:\n     2\ttwo\n     3\tthree\n     4\tfour"
        );
        assert_eq!(hint(file, "two\nX\nY\n", "z", 2000), None, "one of three is not near");
        assert_eq!(hint(file, "owt", "z", 2000), None, "one line has no near place");
        assert_eq!(hint(file, "\n\n", "z", 2000), None);
    }

    #[test]
    fn a_change_made_already_is_recognised() {
        let shown = hint_for(FILE, "let x = 0;", "println!(\"{}\", x);");
        assert!(
            shown.starts_with("new_string is in the file already (line 3)"),
            "{shown}"
        );
        let retried = hint_for(
            FILE,
            "let x = 0;\nprintln!(\"{}\", x);",
            "let x = 1;\n    println!(\"{}\", x);",
        );
        assert!(
            retried.starts_with("new_string is in the file already (line 2)"),
            "{retried}"
        );
        let spaced = hint_for(FILE, "let  x = 1;", "fn main() {");
        assert!(
            spaced.starts_with("Line 2 holds the text with other whitespace"),
            "{spaced}"
        );
        assert!(hint_for("a\r\nb\r\n", "q", "a\nb").contains("(line 1)"));
        assert_eq!(hint("a\n", "q", "  ", 2000), None, "blank text is everywhere");
    }

    #[test]
    fn line_breaks_sent_escaped_are_recognised() {
        let shown = hint_for(FILE, r"{\n    let x = 1;", "z");
        assert!(
            shown.starts_with(
                "old_string holds `\\n` (a backslash and an n) where the file has a line break (the text is at line 1)"
            ),
            "{shown}"
        );
        assert!(hint_for("a\n\tb\n", r"a\n\tb", "z").contains("at line 1"), "tabs too");
        assert_eq!(hint(FILE, r"a\nb", "z", 80), None);
    }

    #[test]
    fn text_found_more_than_once_is_told_by_its_lines() {
        assert_eq!(
            places("a\nx a\r\n\na a\n", "a").as_deref(),
            Some("It is at lines 1, 2 and 4.")
        );
        assert_eq!(places("a a\n", "a").as_deref(), Some("All of them are on line 1."));
        assert_eq!(
            places("ab\r\nab\nab", "b\na").as_deref(),
            Some("It is at lines 1 and 2.")
        );
        let many = "x\n".repeat(12);
        assert_eq!(
            places(&many, "x").as_deref(),
            Some("It is at lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 2 more.")
        );
        assert_eq!(places("a b", "a"), None);
    }

    #[test]
    fn long_texts_are_shown_in_part() {
        let file: String = (1..=100).map(|n| format!("line {n}\n")).collect();
        let old: String = (1..=60).map(|n| format!("line  {n}\n")).collect();
        let shown = hint_for(&file, &old, "z");
        assert!(shown.starts_with("Lines 1-60 hold"), "{shown}");
        assert!(shown.contains("    40\tline 40\n[lines 1-40; more follow"), "{shown}");
        assert!(!shown.contains("line 41"), "{shown}");
    }
}
