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
            format!("the text to replace was not found in {path}"),
        )),
        1 => Ok((text.replacen(edit.old.as_str(), &edit.new, 1), 1)),
        n if edit.replace_all => Ok((
            text.replace(edit.old.as_str(), &edit.new),
            u32::try_from(n).unwrap_or(u32::MAX),
        )),
        n => Err(errors::error(
            errors::EDIT_AMBIGUOUS,
            format!("the text to replace occurs {n} times in {path}"),
        )),
    }
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
}
