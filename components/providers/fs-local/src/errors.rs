//! The stable FS_* error codes and the translation of host fsio errors into them.

use crate::bindings::seam::fs::types::Error;
use crate::bindings::seam::host::fsio;

pub const INVALID_PATH: &str = "FS_INVALID_PATH";
pub const NOT_FOUND: &str = "FS_NOT_FOUND";
pub const EXISTS: &str = "FS_EXISTS";
pub const VERSION_MISMATCH: &str = "FS_VERSION_MISMATCH";
pub const NOT_TEXT: &str = "FS_NOT_TEXT";
pub const TOO_LARGE: &str = "FS_TOO_LARGE";
pub const NOT_A_FILE: &str = "FS_NOT_A_FILE";
pub const IS_A_DIRECTORY: &str = "FS_IS_A_DIRECTORY";
pub const NOT_A_DIRECTORY: &str = "FS_NOT_A_DIRECTORY";
pub const EDIT_INVALID: &str = "FS_EDIT_INVALID";
pub const EDIT_NO_MATCH: &str = "FS_EDIT_NO_MATCH";
pub const EDIT_AMBIGUOUS: &str = "FS_EDIT_AMBIGUOUS";
pub const PERMISSION_DENIED: &str = "FS_PERMISSION_DENIED";
pub const IO: &str = "FS_IO";

pub fn error(code: &str, message: impl Into<String>) -> Error {
    Error {
        code: code.to_owned(),
        message: message.into(),
    }
}

/// Same failure, seam vocabulary; the host's message (which names the path) is kept.
pub fn from_host(error: fsio::Error) -> Error {
    let code = match error.code.as_str() {
        "FSIO_INVALID_PATH" => INVALID_PATH,
        "FSIO_NOT_FOUND" => NOT_FOUND,
        "FSIO_EXISTS" => EXISTS,
        "FSIO_VERSION_MISMATCH" => VERSION_MISMATCH,
        "FSIO_NOT_TEXT" => NOT_TEXT,
        "FSIO_TOO_LARGE" => TOO_LARGE,
        "FSIO_NOT_A_FILE" => NOT_A_FILE,
        "FSIO_IS_A_DIRECTORY" => IS_A_DIRECTORY,
        "FSIO_NOT_A_DIRECTORY" => NOT_A_DIRECTORY,
        "FSIO_PERMISSION_DENIED" => PERMISSION_DENIED,
        // FSIO_IO, FSIO_NOT_EMPTY, and any code a newer host adds.
        _ => IO,
    };
    Error {
        code: code.to_owned(),
        message: error.message,
    }
}
