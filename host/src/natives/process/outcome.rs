//! How a process ended.

use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;

/// Exactly one field is set for a normal exit or a death by signal; both are `None` only if the
/// status could not be collected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
}

impl Outcome {
    pub fn success(&self) -> bool {
        self.exit_code == Some(0)
    }

    pub(super) fn from_status(status: ExitStatus) -> Self {
        Self {
            exit_code: status.code(),
            signal: status.signal(),
        }
    }

    pub(super) fn unknown() -> Self {
        Self {
            exit_code: None,
            signal: None,
        }
    }
}
