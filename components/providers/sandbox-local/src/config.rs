//! This provider's settings from the world file, every one optional.

use serde::Deserialize;

use crate::bindings::exports::seam::sandbox::sandbox::Error;
use crate::bindings::seam::host::config as host_config;
use crate::errors;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Runner names in preference order; the first usable one confines.
    pub chain: Vec<String>,
    /// How long one functional probe may take before its runner counts as unusable.
    pub probe_timeout_ms: u32,
    /// False takes Landlock out of the chain (e.g. where the launcher cannot be trusted).
    pub landlock: bool,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            chain: vec!["bwrap".to_owned(), "landlock".to_owned()],
            probe_timeout_ms: 5_000,
            landlock: true,
        }
    }
}

impl Config {
    /// Read on every call: lanes are per call, and the world file may change between them.
    pub fn load() -> Result<Self, Error> {
        Self::parse(&host_config::get())
    }

    fn parse(json: &str) -> Result<Self, Error> {
        seam_guest::json::from_object(json)
            .map_err(|message| errors::config_invalid(format!("sandbox-local config: {message}")))
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
        let config = Config::parse(r#"{"chain": ["landlock"], "landlock": false, "probe_timeout_ms": 100}"#).ok();
        let expected = Config {
            chain: vec!["landlock".into()],
            probe_timeout_ms: 100,
            landlock: false,
        };
        assert_eq!(config, Some(expected));
    }

    #[test]
    fn misspelled_or_mistyped_fields_are_refused() {
        for json in [r#"{"chains": []}"#, r#"{"landlock": "no"}"#, "[]"] {
            let error = Config::parse(json).err().map(|error| error.code);
            assert_eq!(error.as_deref(), Some("SANDBOX_CONFIG_INVALID"), "{json}");
        }
    }
}
