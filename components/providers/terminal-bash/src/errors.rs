//! The stable codes of the terminal seam and the translation of subprocess errors into them.

use crate::bindings::exports::seam::terminal::terminal::Error;
use crate::bindings::seam::subprocess::types::Error as SubprocessError;

pub const FOREIGN_SESSION: &str = "FOREIGN_SESSION";
pub const OWNER_NOT_LIVE: &str = "OWNER_NOT_LIVE";
pub const BUSY: &str = "TERMINAL_BUSY";
pub const NOT_FOUND: &str = "TERMINAL_NOT_FOUND";
pub const CLOSED: &str = "TERMINAL_CLOSED";
pub const INVALID_REQUEST: &str = "TERMINAL_INVALID_REQUEST";
pub const CWD_INVALID: &str = "TERMINAL_CWD_INVALID";
pub const SPAWN_FAILED: &str = "TERMINAL_SPAWN_FAILED";
pub const IO: &str = "TERMINAL_IO";

pub fn error(code: &str, message: impl Into<String>) -> Error {
    Error {
        code: code.to_owned(),
        message: message.into(),
    }
}

/// Same failure, terminal vocabulary; the message is kept as it is.
pub fn from_subprocess(e: SubprocessError) -> Error {
    let code = match e.code.as_str() {
        "SUBPROCESS_CWD_INVALID" => CWD_INVALID,
        "SUBPROCESS_INVALID_COMMAND" | "SUBPROCESS_NOT_FOUND" | "SUBPROCESS_INVALID_SPEC" => INVALID_REQUEST,
        "SUBPROCESS_SPAWN_FAILED" => SPAWN_FAILED,
        "SUBPROCESS_TERMINAL_CLOSED" | "SUBPROCESS_UNKNOWN_PROCESS" => CLOSED,
        _ => IO,
    };
    error(code, e.message)
}
