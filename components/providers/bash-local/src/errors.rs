//! The stable SHELL_* error codes and the translation of subprocess errors into them.

use crate::bindings::exports::seam::shell::shell::Error;
use crate::bindings::seam::subprocess::types::Error as SubprocessError;

const INVALID_REQUEST: &str = "SHELL_INVALID_REQUEST";
const SPAWN_FAILED: &str = "SHELL_SPAWN_FAILED";
const CWD_INVALID: &str = "SHELL_CWD_INVALID";
const UNKNOWN_PROCESS: &str = "SHELL_UNKNOWN_PROCESS";
/// The provider's settings in the world file are malformed.
const CONFIG_INVALID: &str = "SHELL_CONFIG_INVALID";
const IO: &str = "SHELL_IO";

fn error(code: &str, message: impl Into<String>) -> Error {
    Error {
        code: code.to_owned(),
        message: message.into(),
    }
}

pub fn invalid_request(message: impl Into<String>) -> Error {
    error(INVALID_REQUEST, message)
}

pub fn config_invalid(message: impl Into<String>) -> Error {
    error(CONFIG_INVALID, message)
}

/// Same failure, shell vocabulary; the subprocess message is kept as it is.
pub fn from_subprocess(error: SubprocessError) -> Error {
    let code = match error.code.as_str() {
        "SUBPROCESS_CWD_INVALID" => CWD_INVALID,
        // bash itself could not be found or started.
        "SUBPROCESS_NOT_FOUND"
        | "SUBPROCESS_INVALID_COMMAND"
        | "SUBPROCESS_INVALID_SPEC"
        | "SUBPROCESS_SPAWN_FAILED"
        | "SUBPROCESS_UNSUPPORTED" => SPAWN_FAILED,
        "SUBPROCESS_UNKNOWN_PROCESS" => UNKNOWN_PROCESS,
        _ => IO,
    };
    Error {
        code: code.to_owned(),
        message: error.message,
    }
}
