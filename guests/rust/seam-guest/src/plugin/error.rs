//! A failed call as a value: a stable code to branch on and a message for the model.

use std::fmt;

use super::bindings::seam::{fs, shell};
use crate::{ArgsError, ToolResult};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    pub code: String,
    pub message: String,
}

impl ToolError {
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            code: code.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for ToolError {}

impl From<ToolError> for ToolResult {
    fn from(error: ToolError) -> Self {
        ToolResult::error(error.code, error.message)
    }
}

impl From<ArgsError> for ToolError {
    fn from(error: ArgsError) -> Self {
        Self::new(error.code(), error.to_string())
    }
}

/// Seam errors keep their code (FS_NOT_FOUND, SHELL_SPAWN_FAILED, ...), so callers branch on
/// the provider's verdict, not on this plugin's wording.
impl From<fs::types::Error> for ToolError {
    fn from(error: fs::types::Error) -> Self {
        Self::new(error.code, error.message)
    }
}

impl From<shell::shell::Error> for ToolError {
    fn from(error: shell::shell::Error) -> Self {
        Self::new(error.code, error.message)
    }
}
