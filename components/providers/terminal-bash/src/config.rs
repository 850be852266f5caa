//! This provider's settings from the world file (`[config.terminal-bash]`, or
//! `[config.terminal-sandbox]`), every one optional.

use serde::Deserialize;

use crate::bindings::exports::seam::terminal::terminal::{Config as WitConfig, Dialect, Error};
use crate::bindings::seam::host::config as host_config;
use crate::errors;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// An absolute path or a bare name found on PATH.
    pub shell_path: String,
    /// What makes the shell interactive and profile-free.
    pub shell_args: Vec<String>,
    pub rows: u16,
    pub cols: u16,
    pub scrollback_bytes: u64,
    pub max_read_bytes: u32,
    pub poll_ms: u32,
    pub readiness_ms: u32,
    pub timeout_ms: u32,
    pub grace_ms: u32,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            shell_path: "bash".to_owned(),
            shell_args: ["--noprofile", "--norc", "-i"].map(String::from).to_vec(),
            rows: 24,
            cols: 80,
            scrollback_bytes: 1 << 20,
            max_read_bytes: 64 * 1024,
            poll_ms: 10,
            readiness_ms: 1_000,
            timeout_ms: 30_000,
            grace_ms: 2_000,
        }
    }
}

/// The largest terminal a session may have (seam:host/pty refuses larger ones): the emulator
/// behind it keeps a cell per position.
const MAX_ROWS: u16 = 500;
const MAX_COLS: u16 = 1000;

pub fn check_size(rows: u16, cols: u16) -> Result<(), Error> {
    if (1..=MAX_ROWS).contains(&rows) && (1..=MAX_COLS).contains(&cols) {
        return Ok(());
    }
    Err(errors::error(
        errors::INVALID_REQUEST,
        format!("a terminal has 1 to {MAX_ROWS} rows and 1 to {MAX_COLS} cols, not {rows} rows and {cols} cols"),
    ))
}

impl Config {
    /// Read on every call: lanes are per call, and the world file may change between them.
    pub fn load() -> Result<Self, Error> {
        let config: Self = seam_guest::json::from_object(&host_config::get())
            .map_err(|m| errors::error(errors::INVALID_REQUEST, format!("terminal settings: {m}")))?;
        if config.poll_ms == 0 || config.max_read_bytes == 0 {
            return Err(errors::error(
                errors::INVALID_REQUEST,
                "terminal settings: poll_ms and max_read_bytes must be positive",
            ));
        }
        check_size(config.rows, config.cols)
            .map_err(|e| errors::error(errors::INVALID_REQUEST, format!("terminal settings: {}", e.message)))?;
        Ok(config)
    }

    pub fn to_wit(&self) -> WitConfig {
        WitConfig {
            shell_path: self.shell_path.clone(),
            shell_args: self.shell_args.clone(),
            dialect: Dialect::Bash,
            rows: self.rows,
            cols: self.cols,
            // Bounded in bytes only: the line count is whatever fits.
            scrollback_lines: u32::MAX,
            scrollback_bytes: self.scrollback_bytes,
            max_read_bytes: self.max_read_bytes,
            poll_ms: self.poll_ms,
            readiness_ms: self.readiness_ms,
            timeout_ms: self.timeout_ms,
            grace_ms: self.grace_ms,
        }
    }
}
