//! How a process ended.

use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;

/// Exactly one of `exit_code` and `signal` is set for a normal exit or a death by signal; both
/// are `None` only if the status could not be collected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    /// Processes of the tree still running when the program ended by itself, which were then
    /// stopped with it (background commands it started). 0 when the tree was stopped on request.
    pub left_running: u32,
}

impl Outcome {
    pub fn success(&self) -> bool {
        self.exit_code == Some(0)
    }

    pub(super) fn from_status(status: ExitStatus, left_running: u32) -> Self {
        Self {
            exit_code: status.code(),
            signal: status.signal(),
            left_running,
        }
    }

    pub(super) fn unknown() -> Self {
        Self {
            exit_code: None,
            signal: None,
            left_running: 0,
        }
    }
}
