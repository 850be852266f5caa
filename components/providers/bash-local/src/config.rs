//! This provider's settings from the world file, every one optional.

use std::sync::OnceLock;

use serde::Deserialize;

use crate::bindings::exports::seam::shell::shell::Error;
use crate::bindings::seam::host::config as host_config;
use crate::errors;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Longer requested timeouts are clamped to this.
    pub max_timeout_ms: u32,
    /// The timeout of a request that sets none.
    pub default_timeout_ms: u32,
    /// Most bytes of output kept in memory and shown: half from its start, half from its end.
    pub max_output_bytes: u64,
    /// Bytes of output spilled to a file for later reading; 0 disables the spill.
    pub max_spill_bytes: u64,
    /// SIGTERM to SIGKILL delay when a command is terminated.
    pub grace_ms: u32,
    /// The bash to run: an absolute path or a bare name found on PATH.
    pub bash: String,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            max_timeout_ms: 600_000,
            default_timeout_ms: 120_000,
            max_output_bytes: 64 * 1024,
            max_spill_bytes: 64 * 1024 * 1024,
            grace_ms: 2_000,
            bash: "bash".to_owned(),
        }
    }
}

impl Config {
    /// Read once per instance (a call's `resolve` and `run` share it): an instance lives for
    /// one call's lane, and the world file may change between calls.
    pub fn load() -> Result<Self, Error> {
        static LOADED: OnceLock<Config> = OnceLock::new();
        if let Some(config) = LOADED.get() {
            return Ok(config.clone());
        }
        let config = Self::parse(&host_config::get())?;
        Ok(LOADED.get_or_init(|| config).clone())
    }

    fn parse(json: &str) -> Result<Self, Error> {
        let config: Self = seam_guest::json::from_object(json)
            .map_err(|message| errors::config_invalid(format!("bash-local config: {message}")))?;
        // Each of these at 0 would fail or empty every command, which no one means.
        let zero = [
            ("max_output_bytes", config.max_output_bytes),
            ("max_timeout_ms", u64::from(config.max_timeout_ms)),
            ("default_timeout_ms", u64::from(config.default_timeout_ms)),
        ]
        .into_iter()
        .find(|(_, value)| *value == 0);
        match zero {
            Some((name, _)) => Err(errors::config_invalid(format!(
                "bash-local config: {name} must be at least 1"
            ))),
            None => Ok(config),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_config_takes_every_default() {
        assert_eq!(Config::parse("{}").ok(), Some(Config::default()));
    }

    #[test]
    fn set_fields_override_defaults() {
        let config = Config::parse(r#"{"max_output_bytes": 1024, "bash": "/bin/bash"}"#).ok();
        let expected = Config {
            max_output_bytes: 1024,
            bash: "/bin/bash".into(),
            ..Config::default()
        };
        assert_eq!(config, Some(expected));
    }

    #[test]
    fn misspelled_or_mistyped_fields_are_refused() {
        for json in [
            r#"{"max_output": 1}"#,
            r#"{"grace_ms": -1}"#,
            r#"{"max_output_bytes": 0}"#,
            r#"{"default_timeout_ms": 0}"#,
            "[]",
            "{",
        ] {
            let error = Config::parse(json).err().map(|error| error.code);
            assert_eq!(error.as_deref(), Some("SHELL_CONFIG_INVALID"), "{json}");
        }
    }
}
