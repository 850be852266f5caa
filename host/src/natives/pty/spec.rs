//! What a PTY session is started with: everything explicit.

use super::error::PtyError;
use std::path::Path;
use std::time::Duration;

#[derive(Debug, Clone)]
pub struct PtySpec {
    /// argv[0] absolute: a profile-free interactive shell.
    pub argv: Vec<String>,
    /// Absolute, existing.
    pub cwd: String,
    /// The complete environment (nothing is inherited).
    pub env: Vec<(String, String)>,
    pub rows: u16,
    pub cols: u16,
    /// Bytes of output retained for offset reads.
    pub scrollback_bytes: usize,
    /// SIGTERM to SIGKILL delay on close.
    pub grace: Duration,
}

/// The largest terminal a session may have: the emulator behind it keeps a cell per position.
pub const MAX_ROWS: u16 = 500;
pub const MAX_COLS: u16 = 1000;

pub(super) fn check_size(rows: u16, cols: u16) -> Result<(), PtyError> {
    if (1..=MAX_ROWS).contains(&rows) && (1..=MAX_COLS).contains(&cols) {
        return Ok(());
    }
    Err(PtyError::InvalidSpec(format!(
        "a terminal has 1 to {MAX_ROWS} rows and 1 to {MAX_COLS} cols, not {rows} rows and {cols} cols"
    )))
}

impl PtySpec {
    pub(super) fn validate(&self) -> Result<(), PtyError> {
        let invalid = |m: &str| Err(PtyError::InvalidSpec(m.to_string()));
        match self.argv.first() {
            None => return invalid("argv is empty"),
            Some(p) if !Path::new(p).is_absolute() => return invalid("argv[0] must be absolute"),
            Some(_) => {}
        }
        check_size(self.rows, self.cols)?;
        if self.scrollback_bytes == 0 {
            return invalid("scrollback-bytes must be positive");
        }
        if !Path::new(&self.cwd).is_absolute() {
            return invalid("cwd must be absolute");
        }
        match std::fs::metadata(&self.cwd) {
            Ok(m) if m.is_dir() => Ok(()),
            Ok(_) => Err(PtyError::CwdInvalid {
                path: self.cwd.clone(),
                reason: "not a directory".into(),
            }),
            Err(e) => Err(PtyError::CwdInvalid {
                path: self.cwd.clone(),
                reason: e.to_string(),
            }),
        }
    }
}
