//! The stable SUBPROCESS_* error codes and the translation of host process errors into them.

use crate::bindings::seam::host::process as host;
use crate::bindings::seam::host::pty;
use crate::bindings::seam::subprocess::types::Error;

const INVALID_COMMAND: &str = "SUBPROCESS_INVALID_COMMAND";
const NOT_FOUND: &str = "SUBPROCESS_NOT_FOUND";
const CWD_INVALID: &str = "SUBPROCESS_CWD_INVALID";
const SPAWN_FAILED: &str = "SUBPROCESS_SPAWN_FAILED";
/// A spec the host refused as malformed (e.g. `merge` on stdout).
const INVALID_SPEC: &str = "SUBPROCESS_INVALID_SPEC";
const STREAM: &str = "SUBPROCESS_STREAM";
const STDIN_CLOSED: &str = "SUBPROCESS_STDIN_CLOSED";
const UNKNOWN_PROCESS: &str = "SUBPROCESS_UNKNOWN_PROCESS";
const TERMINAL_CLOSED: &str = "SUBPROCESS_TERMINAL_CLOSED";
const IO: &str = "SUBPROCESS_IO";

fn error(code: &str, message: impl Into<String>) -> Error {
    Error {
        code: code.to_owned(),
        message: message.into(),
    }
}

pub fn invalid_command(message: impl Into<String>) -> Error {
    error(INVALID_COMMAND, message)
}

pub fn not_found(message: impl Into<String>) -> Error {
    error(NOT_FOUND, message)
}

pub fn cwd_invalid(message: impl Into<String>) -> Error {
    error(CWD_INVALID, message)
}

/// Same failure, seam vocabulary, for the host's PTY shim.
pub fn from_pty(error: pty::Error) -> Error {
    let code = match error.code.as_str() {
        "PTY_INVALID_SPEC" => INVALID_SPEC,
        "PTY_CWD_INVALID" => CWD_INVALID,
        "PTY_SPAWN_FAILED" => SPAWN_FAILED,
        "PTY_UNKNOWN" => UNKNOWN_PROCESS,
        "PTY_CLOSED" => TERMINAL_CLOSED,
        _ => IO,
    };
    Error {
        code: code.to_owned(),
        message: error.message,
    }
}

/// Same failure, seam vocabulary; the host's message is kept as it is.
pub fn from_host(error: host::Error) -> Error {
    let code = match error.code.as_str() {
        "PROCESS_SPAWN_FAILED" => SPAWN_FAILED,
        "PROCESS_CWD_INVALID" => CWD_INVALID,
        "PROCESS_INVALID_SPEC" => INVALID_SPEC,
        "PROCESS_STREAM_NOT_COLLECTED" | "PROCESS_STREAM_NOT_PIPED" => STREAM,
        "PROCESS_STDIN_CLOSED" => STDIN_CLOSED,
        "PROCESS_UNKNOWN" => UNKNOWN_PROCESS,
        // PROCESS_IO, and any code a newer host adds, is an I/O failure to this seam.
        _ => IO,
    };
    Error {
        code: code.to_owned(),
        message: error.message,
    }
}
