//! The policy of a call that carries none: the world's default mode and workspace (from
//! seam:host/config `settings`), unless this provider's own config sets a mode.

use serde::Deserialize;

use crate::bindings::seam::fs::types::Error;
use crate::bindings::seam::host::config as host_config;
use crate::bindings::seam::sandbox::types::{Mode, Policy};

pub const CONFIG_INVALID: &str = "FS_CONFIG_INVALID";

#[derive(Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// `read-only`, `workspace-write` or `danger-full-access`; default: the world's `sandbox`.
    pub mode: Option<String>,
    /// Writable besides the workspace under workspace-write; default: the platform temp dir.
    pub writable_roots: Option<Vec<String>>,
}

pub fn parse_mode(text: &str) -> Option<Mode> {
    match text {
        "read-only" => Some(Mode::ReadOnly),
        "workspace-write" => Some(Mode::WorkspaceWrite),
        "danger-full-access" => Some(Mode::DangerFullAccess),
        _ => None,
    }
}

pub fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::ReadOnly => "read-only",
        Mode::WorkspaceWrite => "workspace-write",
        Mode::DangerFullAccess => "danger-full-access",
    }
}

/// Read on every call: lanes are per call, and the world file may change between them.
pub fn default_policy() -> Result<Policy, Error> {
    let config: Config = seam_guest::json::from_object(&host_config::get())
        .map_err(|message| invalid(format!("fs-sandbox config: {message}")))?;
    let settings = host_config::settings();
    let mode_text = config.mode.unwrap_or(settings.sandbox_mode);
    let mode = parse_mode(&mode_text).ok_or_else(|| invalid(format!("unknown sandbox mode {mode_text:?}")))?;
    Ok(Policy {
        mode,
        workspace_root: settings.workspace,
        writable_roots: config.writable_roots.unwrap_or_else(|| vec![settings.temp_dir]),
    })
}

fn invalid(message: String) -> Error {
    Error {
        code: CONFIG_INVALID.to_owned(),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_fields_are_optional_and_checked() {
        assert_eq!(seam_guest::json::from_object::<Config>("{}"), Ok(Config::default()));
        let set: Result<Config, _> = seam_guest::json::from_object(r#"{"mode": "read-only", "writable_roots": []}"#);
        assert_eq!(
            set,
            Ok(Config {
                mode: Some("read-only".into()),
                writable_roots: Some(vec![])
            })
        );
        assert!(seam_guest::json::from_object::<Config>(r#"{"mod": "read-only"}"#).is_err());
    }

    #[test]
    fn modes_round_trip() {
        for mode in [Mode::ReadOnly, Mode::WorkspaceWrite, Mode::DangerFullAccess] {
            assert_eq!(parse_mode(mode_name(mode)), Some(mode));
        }
        assert_eq!(parse_mode("full"), None);
    }
}
