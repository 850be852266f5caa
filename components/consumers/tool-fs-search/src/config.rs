//! This tool's settings from the world file (its `[config.tool-fs-search]` table).

use serde::Deserialize;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The ripgrep to run: an absolute path or a bare name found on PATH.
    pub rg: String,
    /// Results shown when a call sets no `limit`.
    pub default_limit: u32,
    /// The largest `limit` a call may ask for.
    pub max_limit: u32,
    /// Characters of a matching line shown before it is cut.
    pub max_line_chars: u32,
    /// A search still running after this long is stopped and what it found is shown.
    pub timeout_ms: u32,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            rg: "rg".to_owned(),
            default_limit: 100,
            max_limit: 2000,
            max_line_chars: 500,
            timeout_ms: 30_000,
        }
    }
}

impl Config {
    pub fn parse(json: &str) -> Result<Self, String> {
        seam_guest::json::from_object(json).map_err(|message| format!("tool-fs-search config: {message}"))
    }

    /// The call's limit, defaulted and capped.
    pub fn limit(&self, asked: Option<u32>) -> usize {
        asked.unwrap_or(self.default_limit).clamp(1, self.max_limit) as usize
    }

    /// Whether a call limited as `asked` could ask for more.
    pub fn raisable(&self, asked: Option<u32>) -> bool {
        self.limit(asked) < self.max_limit as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_defaulted_and_capped() {
        let config = Config::default();
        assert_eq!(config.limit(None), 100);
        assert_eq!(config.limit(Some(5)), 5);
        assert_eq!(config.limit(Some(0)), 1);
        assert_eq!(config.limit(Some(1_000_000)), 2000);
        assert!(config.raisable(None) && !config.raisable(Some(2000)));
        assert!(Config::parse(r#"{"rg": "/usr/bin/rg"}"#).is_ok());
        assert!(Config::parse(r#"{"ripgrep": "rg"}"#).is_err());
    }
}
