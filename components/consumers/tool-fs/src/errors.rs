//! Fs errors as tool results: the code unchanged (callers branch on it), the message extended
//! with what the model can do about it.

use seam_guest::ToolResult;

use crate::bindings::seam::fs::types::{Edit, Error};
use crate::near_match;

/// The tool's own code for a file that is not an image it can return.
pub const IMAGE_UNSUPPORTED: &str = "IMAGE_UNSUPPORTED";
/// The tool's own code for an image cut short or damaged, which a model's API would refuse.
pub const IMAGE_DAMAGED: &str = "IMAGE_DAMAGED";
/// The fs seam's code for an edit whose text is not in the file.
pub const EDIT_NO_MATCH: &str = "FS_EDIT_NO_MATCH";
/// The fs seam's code for an edit that is no change: nothing to replace, or the same text.
pub const EDIT_INVALID: &str = "FS_EDIT_INVALID";
/// The fs seam's code for an edit whose text is in the file more than once.
pub const EDIT_AMBIGUOUS: &str = "FS_EDIT_AMBIGUOUS";
/// The fs seam's code for a failure to read: also a provider whose bytes are not base64.
pub const IO: &str = "FS_IO";
/// The tool's settings in the world file are malformed.
pub const CONFIG_INVALID: &str = "TOOL_CONFIG_INVALID";

/// What to do about an edit's text found more than once.
const MORE_CONTEXT: &str =
    "Include more surrounding lines in old_string so it matches once, or set replace_all to change every occurrence.";

pub fn from_fs(error: Error) -> ToolResult {
    let hint = match error.code.as_str() {
        "FS_NOT_TEXT" => {
            "It is not text in UTF-8 (or in UTF-16 with a byte order mark): a binary file, or text in another \
             encoding. Use read_image for images; for the rest use bash (`file` says what it is, \
             `iconv -f LATIN1 -t UTF-8` converts text, `xxd | head` shows bytes)."
        }
        "FS_TOO_LARGE" => "Read parts of it with bash (head, tail, sed -n '100,200p') or search it with grep.",
        "FS_IS_A_DIRECTORY" => "It is a directory: list it with bash (ls) or find files with glob.",
        "FS_NOT_A_FILE" => "Only regular files can be read and written with these tools.",
        "FS_NOT_OBSERVED" | "FS_EXISTS" | "FS_VERSION_MISMATCH" => {
            "Read the file (read tool), then retry with what it contains now. A file read refuses (not text, or \
             too large) cannot be read first: change it with bash."
        }
        EDIT_NO_MATCH => {
            "old_string must match the file exactly, whitespace and indentation included: read the file and copy the text."
        }
        EDIT_AMBIGUOUS => MORE_CONTEXT,
        _ => "",
    };
    hinted(error, hint)
}

/// [`from_fs`] for `edit` of `change`, with `file` the file's text when it can be read: text
/// not found because it carries `read`'s line numbers says so, other text not found or found
/// more than once is told where it is (see `near_match`), and an empty old_string (which some
/// tools take as "create the file") points to `write`.
pub fn from_edit(
    error: Error,
    change: &Edit,
    max_line_chars: usize,
    file: impl FnOnce() -> Option<String>,
) -> ToolResult {
    let old = &change.old;
    match error.code.as_str() {
        EDIT_NO_MATCH if crate::render::carries_line_numbers(old) => hinted(
            error,
            "old_string starts its lines with the line numbers `read` shows (a number and a tab): leave them out.",
        ),
        EDIT_NO_MATCH => match file().and_then(|file| near_match::hint(&file, old, &change.new, max_line_chars)) {
            Some(near) => hinted(error, &near),
            None => from_fs(error),
        },
        EDIT_AMBIGUOUS => match file().and_then(|file| near_match::places(&file, old)) {
            Some(places) => hinted(error, &format!("{places} {MORE_CONTEXT}")),
            None => from_fs(error),
        },
        EDIT_INVALID if old.is_empty() => hinted(
            error,
            "To create a file or replace all of it, use write. To add text, put the text next to where it goes in \
             old_string, and that text with the addition in new_string.",
        ),
        _ => from_fs(error),
    }
}

/// [`from_fs`] for `write`: a directory in the file's place wants a file's name, not a listing.
pub fn from_write(error: Error) -> ToolResult {
    hinted_for(
        error,
        "FS_IS_A_DIRECTORY",
        "write replaces a file: give the path of a file, e.g. a new name inside this directory.",
    )
}

/// [`from_fs`] for `read_image`, whose files are too large for other reasons than text's.
pub fn from_image_read(error: Error) -> ToolResult {
    hinted_for(
        error,
        "FS_TOO_LARGE",
        "Scale the image down first with bash (e.g. `convert IN -resize 50% OUT`), then read that.",
    )
}

/// [`from_fs`], with `hint` in place of the general one for errors of `code`.
fn hinted_for(error: Error, code: &str, hint: &str) -> ToolResult {
    if error.code == code {
        hinted(error, hint)
    } else {
        from_fs(error)
    }
}

/// The error under its own code, its message followed by the hint on a line of its own.
fn hinted(error: Error, hint: &str) -> ToolResult {
    let message = if hint.is_empty() {
        error.message
    } else {
        format!("{}\n{hint}", error.message)
    };
    ToolResult::error(error.code, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn too_large() -> Error {
        Error {
            code: "FS_TOO_LARGE".into(),
            message: "big.png: 20971520 bytes is more than the limit of 10485760 bytes".into(),
        }
    }

    #[test]
    fn a_hint_fits_the_tool_that_failed() {
        let text = |result: ToolResult| result.content.into_iter().map(|c| format!("{c:?}")).collect::<String>();
        assert!(text(from_fs(too_large())).contains("head, tail"));
        let image = text(from_image_read(too_large()));
        assert!(
            image.contains("Scale the image down") && !image.contains("head, tail"),
            "{image}"
        );
        let directory = || Error {
            code: "FS_IS_A_DIRECTORY".into(),
            message: "/w/src: is a directory".into(),
        };
        assert!(text(from_fs(directory())).contains("list it"));
        let write = text(from_write(directory()));
        assert!(
            write.contains("a new name inside") && !write.contains("list it"),
            "{write}"
        );
        let empty = || Error {
            code: EDIT_INVALID.into(),
            message: "the text to replace is empty".into(),
        };
        let create = Edit {
            old: String::new(),
            new: "x".into(),
            replace_all: false,
        };
        assert!(text(from_edit(empty(), &create, 80, || None)).contains("use write"));
        assert!(!text(from_fs(empty())).contains("use write"));
    }
}
