//! This tool's settings from the world file (its `[config.tool-fs]` table), every one optional.

use serde::Deserialize;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Largest file `read` loads; a larger one is refused (read parts of it with bash).
    pub max_file_bytes: u64,
    /// Lines `read` shows when the call gives no `limit`.
    pub default_limit: u32,
    /// Characters of one line shown before it is cut.
    pub max_line_chars: u32,
    /// Bytes of text one `read` returns; the listing stops at the line that would pass it.
    pub max_output_bytes: u32,
    /// Largest image `read_image` returns.
    pub max_image_bytes: u64,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            max_file_bytes: 32 * 1024 * 1024,
            default_limit: 2000,
            max_line_chars: 2000,
            max_output_bytes: 256 * 1024,
            max_image_bytes: 10 * 1024 * 1024,
        }
    }
}

impl Config {
    pub fn parse(json: &str) -> Result<Self, String> {
        seam_guest::json::from_object(json).map_err(|message| format!("tool-fs config: {message}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_overrides() {
        assert_eq!(Config::parse("{}"), Ok(Config::default()));
        let set = Config::parse(r#"{"default_limit": 10}"#).map(|c| c.default_limit);
        assert_eq!(set, Ok(10));
        assert!(Config::parse(r#"{"limit": 10}"#).is_err());
    }
}
