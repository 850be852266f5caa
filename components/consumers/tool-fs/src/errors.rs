//! Fs errors as tool results: the code unchanged (callers branch on it), the message extended
//! with what the model can do about it.

use seam_guest::ToolResult;

use crate::bindings::seam::fs::types::Error;

/// The tool's own code for a file that is not an image it can return.
pub const IMAGE_UNSUPPORTED: &str = "IMAGE_UNSUPPORTED";
/// The tool's own code for an image cut short or damaged, which a model's API would refuse.
pub const IMAGE_DAMAGED: &str = "IMAGE_DAMAGED";
/// The fs seam's code for an edit whose text is not in the file.
pub const EDIT_NO_MATCH: &str = "FS_EDIT_NO_MATCH";
/// The tool's settings in the world file are malformed.
pub const CONFIG_INVALID: &str = "TOOL_CONFIG_INVALID";

pub fn from_fs(error: Error) -> ToolResult {
    let hint = match error.code.as_str() {
        "FS_NOT_TEXT" => {
            "It is a binary file: use read_image for images, and bash (file, xxd | head) for other binary files."
        }
        "FS_TOO_LARGE" => "Read parts of it with bash (head, tail, sed -n '100,200p') or search it with grep.",
        "FS_IS_A_DIRECTORY" => "It is a directory: list it with bash (ls) or find files with glob.",
        "FS_NOT_A_FILE" => "Only regular files can be read and written with these tools.",
        "FS_NOT_OBSERVED" | "FS_EXISTS" | "FS_VERSION_MISMATCH" => {
            "Read the file (read tool), then retry with what it contains now."
        }
        EDIT_NO_MATCH => {
            "old_string must match the file exactly, whitespace and indentation included: read the file and copy the text."
        }
        "FS_EDIT_AMBIGUOUS" => {
            "Include more surrounding lines in old_string so it matches once, or set replace_all to change every occurrence."
        }
        _ => "",
    };
    let message = if hint.is_empty() {
        error.message
    } else {
        format!("{}\n{hint}", error.message)
    };
    ToolResult::error(error.code, message)
}
