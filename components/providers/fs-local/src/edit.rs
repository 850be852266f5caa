//! Literal search and replace: no patterns, no escapes, and an ambiguous match is refused
//! rather than guessed at.

use crate::bindings::seam::fs::types::{Edit, Error};
use crate::errors;

/// The edit itself must make sense before any file is read.
pub fn check(edit: &Edit) -> Result<(), Error> {
    if edit.old.is_empty() {
        return Err(errors::error(errors::EDIT_INVALID, "the text to replace is empty"));
    }
    if edit.old == edit.new {
        return Err(errors::error(
            errors::EDIT_INVALID,
            "the replacement is identical to the text it replaces",
        ));
    }
    Ok(())
}

/// The edited text and how many occurrences were replaced.
pub fn apply(text: &str, edit: &Edit, path: &str) -> Result<(String, u32), Error> {
    let found = text.matches(edit.old.as_str()).count();
    match found {
        0 => Err(errors::error(
            errors::EDIT_NO_MATCH,
            match near_match(text, &edit.old) {
                Some(lines) => format!(
                    "the text to replace was not found in {path}; {lines} it when spaces and tabs at the starts and ends of lines are ignored"
                ),
                None => format!("the text to replace was not found in {path}"),
            },
        )),
        1 => Ok((text.replacen(edit.old.as_str(), &edit.new, 1), 1)),
        n if edit.replace_all => Ok((
            text.replace(edit.old.as_str(), &edit.new),
            u32::try_from(n).unwrap_or(u32::MAX),
        )),
        n => Err(errors::error(
            errors::EDIT_AMBIGUOUS,
            format!(
                "the text to replace occurs {n} times in {path}; give more context to make it unique, or replace all"
            ),
        )),
    }
}

/// Where `old` would match if each line's leading and trailing whitespace were ignored, as
/// "line N matches" or "lines N-M match" (1-based): the usual near miss is indentation copied wrong, and
/// pointing at the place spares a read of the whole file. The first such place only.
fn near_match(text: &str, old: &str) -> Option<String> {
    let wanted: Vec<&str> = old.lines().map(str::trim).collect();
    let first = *wanted.first()?;
    if wanted.iter().all(|line| line.is_empty()) {
        return None;
    }
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let start = lines
        .windows(wanted.len())
        .position(|window| window[0] == first && window == wanted.as_slice())?;
    Some(match wanted.len() {
        1 => format!("line {} matches", start + 1),
        n => format!("lines {}-{} match", start + 1, start + n),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(old: &str, new: &str, replace_all: bool) -> Edit {
        Edit {
            old: old.into(),
            new: new.into(),
            replace_all,
        }
    }

    fn code<T>(result: Result<T, Error>) -> Option<String> {
        result.err().map(|e| e.code)
    }

    #[test]
    fn replaces_a_unique_occurrence_literally() {
        let done = apply("let x = a.*b;", &edit("a.*b", "c", false), "/f").ok();
        assert_eq!(done, Some(("let x = c;".into(), 1)));
    }

    #[test]
    fn ambiguity_needs_replace_all() {
        assert_eq!(
            code(apply("aXa", &edit("a", "b", false), "/f")).as_deref(),
            Some("FS_EDIT_AMBIGUOUS")
        );
        assert_eq!(apply("aXa", &edit("a", "b", true), "/f").ok(), Some(("bXb".into(), 2)));
    }

    #[test]
    fn refusals() {
        assert_eq!(
            code(apply("abc", &edit("z", "y", false), "/f")).as_deref(),
            Some("FS_EDIT_NO_MATCH")
        );
        assert_eq!(code(check(&edit("", "y", false))).as_deref(), Some("FS_EDIT_INVALID"));
        assert_eq!(
            code(check(&edit("same", "same", true))).as_deref(),
            Some("FS_EDIT_INVALID")
        );
        assert!(check(&edit("a", "b", false)).is_ok());
    }

    fn message<T>(result: Result<T, Error>) -> String {
        result.err().map(|e| e.message).unwrap_or_default()
    }

    #[test]
    fn a_miss_by_indentation_points_at_the_lines() {
        let text = "fn f() {\n\tif x {\n\t\ty();\n\t}\n}\n";
        let miss = message(apply(text, &edit("    if x {\n        y();  \n", "z", false), "/f"));
        assert!(
            miss.ends_with("; lines 2-3 match it when spaces and tabs at the starts and ends of lines are ignored"),
            "{miss}"
        );
        assert!(message(apply(text, &edit("  y();", "z", false), "/f")).contains("; line 3 matches it when"));
        // Other text, or only blank lines, is a plain miss.
        assert_eq!(
            message(apply(text, &edit("if y {", "z", false), "/f")),
            "the text to replace was not found in /f"
        );
        assert_eq!(
            message(apply(text, &edit(" \n", "z", false), "/f")),
            "the text to replace was not found in /f"
        );
    }
}
