//! The stable codes of the jobs seam.

use crate::bindings::exports::seam::jobs::jobs::Error;

pub const NOT_FOUND: &str = "JOB_NOT_FOUND";
pub const FOREIGN_JOB: &str = "FOREIGN_JOB";
pub const OWNER_NOT_LIVE: &str = "OWNER_NOT_LIVE";
pub const INVALID_REQUEST: &str = "JOB_INVALID_REQUEST";
pub const ATTACH_FAILED: &str = "JOB_ATTACH_FAILED";
pub const IO: &str = "JOB_IO";

pub fn error(code: &str, message: impl Into<String>) -> Error {
    Error {
        code: code.to_owned(),
        message: message.into(),
    }
}
