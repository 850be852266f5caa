//! This provider's settings from the world file (`[config.lsp-stdio]`): the server table and
//! the bounds every connection keeps.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use crate::bindings::exports::seam::lsp::lsp::Error;
use crate::bindings::seam::host::config as host_config;
use crate::errors;

/// What a configured server whose command cannot be found does to the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum MissingServers {
    /// The whole table is refused: nothing is published and every call fails.
    #[default]
    Refuse,
    /// The server is published as unavailable: queries for its extensions fail with
    /// LSP_INVALID_SERVER, the other servers serve.
    Report,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerConfig {
    /// argv, executed directly; argv[0] absolute or a bare name on PATH.
    pub command: Vec<String>,
    /// Final extensions with the dot, owned exclusively.
    pub extensions: Vec<String>,
    /// Answers to workspace/configuration, by section.
    #[serde(default)]
    pub settings: Option<Value>,
    /// `initializationOptions` of the initialize request.
    #[serde(default)]
    pub initialization_options: Option<Value>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Server id → server.
    pub servers: BTreeMap<String, ServerConfig>,
    pub missing_servers: MissingServers,
    /// Position encodings offered to servers, in order of preference (UTF-16 is always
    /// understood, offered or not).
    pub position_encodings: Vec<String>,
    pub max_frame_bytes: u32,
    pub max_document_bytes: u32,
    pub max_stderr_bytes: u64,
    /// Requests a connection may have unanswered (timed-out ones included) before it is replaced.
    pub max_pending_requests: u32,
    pub request_timeout_ms: u32,
    /// Longest wait for a busy (indexing) server to become idle, from when the query started.
    pub ready_timeout_ms: u32,
    /// After a server became idle, an empty answer is asked again for this long: a freshly
    /// started server may answer before it has even begun indexing.
    pub warmup_ms: u32,
    pub shutdown_timeout_ms: u32,
    pub grace_ms: u32,
    /// A server no query has used for this long is ended (0: kept until the host exits).
    pub idle_timeout_ms: u32,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            servers: BTreeMap::new(),
            missing_servers: MissingServers::Refuse,
            position_encodings: vec!["utf-8".into(), "utf-16".into()],
            max_frame_bytes: 16 << 20,
            max_document_bytes: 4 << 20,
            max_stderr_bytes: 64 << 10,
            max_pending_requests: 8,
            request_timeout_ms: 30_000,
            ready_timeout_ms: 120_000,
            warmup_ms: 3_000,
            shutdown_timeout_ms: 2_000,
            grace_ms: 2_000,
            idle_timeout_ms: 600_000,
        }
    }
}

impl Config {
    /// Read on every call: lanes are per call, and the world file may change between them.
    pub fn load() -> Result<Self, Error> {
        Self::parse(&host_config::get())
    }

    pub fn parse(json: &str) -> Result<Self, Error> {
        // Every query reads the config: an object is decoded directly; anything else (and any
        // error) goes through the helper that words errors without line and column noise.
        let direct = match json.trim_start().starts_with('{') {
            true => serde_json::from_str(json).ok(),
            false => None,
        };
        let config: Self = match direct {
            Some(config) => config,
            None => seam_guest::json::from_object(json)
                .map_err(|m| errors::error(errors::INVALID_SERVER, format!("lsp-stdio config: {m}")))?,
        };
        if config.max_frame_bytes == 0 || config.max_document_bytes == 0 || config.max_pending_requests == 0 {
            return Err(errors::error(
                errors::INVALID_SERVER,
                "lsp-stdio config: max_frame_bytes, max_document_bytes and max_pending_requests must be positive",
            ));
        }
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_empty_text_and_errors() {
        let config = Config::parse(r#"{"max_frame_bytes": 9, "servers": {"ra": {"command": ["ra"], "extensions": [".rs"], "initialization_options": {"a": [1]}}}}"#).unwrap();
        assert_eq!(config.max_frame_bytes, 9);
        assert_eq!(
            config.servers["ra"].initialization_options,
            Some(serde_json::json!({"a": [1]}))
        );
        assert_eq!(Config::parse("").unwrap(), Config::default());
        let unknown = Config::parse(r#"{"max_frame_byte": 9}"#).unwrap_err();
        assert_eq!(unknown.code, errors::INVALID_SERVER);
        assert!(
            unknown.message.contains("unknown field") && !unknown.message.contains("line"),
            "{}",
            unknown.message
        );
        assert!(
            Config::parse("[]")
                .unwrap_err()
                .message
                .contains("expected a JSON object")
        );
        assert!(Config::parse(r#"{"max_frame_bytes": 0}"#).is_err());
    }
}
