//! Stable error codes (see wit/lsp/lsp.wit) and conversions from the seams below.

use crate::bindings::exports::seam::lsp::lsp::Error;
use crate::bindings::seam::fs::types::Error as FsError;

pub const DUPLICATE_ID: &str = "LSP_DUPLICATE_ID";
pub const EXTENSION_TAKEN: &str = "LSP_EXTENSION_TAKEN";
pub const INVALID_SERVER: &str = "LSP_INVALID_SERVER";
pub const NO_SERVER: &str = "LSP_NO_SERVER";
pub const NOT_FOUND: &str = "LSP_NOT_FOUND";
pub const OUTSIDE_WORKSPACE: &str = "LSP_OUTSIDE_WORKSPACE";
pub const INVALID_POSITION: &str = "LSP_INVALID_POSITION";
pub const SERVER_FAILED: &str = "LSP_SERVER_FAILED";
pub const TIMEOUT: &str = "LSP_TIMEOUT";
pub const TOO_LARGE: &str = "LSP_TOO_LARGE";
pub const CANCELLED: &str = "LSP_CANCELLED";

pub fn error(code: &str, message: impl Into<String>) -> Error {
    Error {
        code: code.to_owned(),
        message: message.into(),
    }
}

/// Reading the document: a missing file is the seam's own LSP_NOT_FOUND, the rest passes
/// through unchanged.
pub fn from_fs(e: FsError) -> Error {
    match e.code.as_str() {
        "FS_NOT_FOUND" => error(NOT_FOUND, e.message),
        _ => Error {
            code: e.code,
            message: e.message,
        },
    }
}
