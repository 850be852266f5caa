//! The policy service: resolve a call's policy, change and replay the session's standing mode.

use crate::bindings::exports::seam::sandbox::policy::{Effective, Error, Guest, ModeEvent, Source};
use crate::bindings::seam::host::config;
use crate::bindings::seam::sandbox::types::{Mode, Policy};
use crate::{SandboxPolicy, events, modes};
use serde::Deserialize;

/// `[config.sandbox-policy]`: `default_mode` overrides the world's `sandbox` default.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Config {
    default_mode: Option<String>,
}

fn deployment_default(settings: &config::WorldSettings) -> Result<Mode, Error> {
    let config: Config = seam_guest::json::from_object(&config::get()).map_err(|message| Error {
        code: "SANDBOX_POLICY_CONFIG_INVALID".into(),
        message,
    })?;
    let text = config.default_mode.unwrap_or_else(|| settings.sandbox_mode.clone());
    modes::parse(&text).ok_or_else(|| Error {
        code: "SANDBOX_POLICY_CONFIG_INVALID".into(),
        message: format!("unknown sandbox mode {text:?}"),
    })
}

/// Whether the settings are valid, as a world that configures this component loads.
pub fn check_config() -> Result<(), String> {
    deployment_default(&config::settings())
        .map(drop)
        .map_err(|error| error.message)
}

impl Guest for SandboxPolicy {
    fn resolve(session: String, cwd: Option<String>, approved: Option<Mode>) -> Result<Effective, Error> {
        let settings = config::settings();
        let (mode, source) = match approved {
            Some(mode) => (mode, Source::Approved),
            None => match events::load(&session)?.last() {
                Some(event) => (event.mode, Source::SessionEvent),
                None => (deployment_default(&settings)?, Source::DeploymentDefault),
            },
        };
        let root = cwd.unwrap_or_else(|| settings.workspace.clone());
        // The host canonicalized the session cwd already; a lexical normalization suffices.
        let workspace_root = seam_guest::paths::normalized(&root).ok_or_else(|| Error {
            code: "SANDBOX_POLICY_INVALID_ROOT".into(),
            message: format!("the workspace root {root:?} is not an absolute path"),
        })?;
        Ok(Effective {
            policy: Policy {
                mode,
                workspace_root,
                writable_roots: vec![settings.temp_dir],
            },
            source,
        })
    }

    fn set_mode(session: String, mode: Mode) -> Result<(), Error> {
        let at_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
            .unwrap_or_default();
        events::append(&session, ModeEvent { mode, at_ms })
    }

    fn events(session: String) -> Result<Vec<ModeEvent>, Error> {
        events::load(&session)
    }

    fn describe(effective: Effective) -> String {
        let policy = &effective.policy;
        let what = match policy.mode {
            Mode::ReadOnly => "commands may read files but change nothing in the filesystem".to_string(),
            Mode::WorkspaceWrite => format!(
                "commands may change files only inside the workspace {} and the temp dir ({}); \
                 the temp dir may be private to each command, so keep nothing there that a later \
                 command needs",
                policy.workspace_root,
                policy.writable_roots.join(", ")
            ),
            Mode::DangerFullAccess => "commands run unconfined".to_string(),
        };
        format!(
            "Sandbox: {} mode: {what}. Workspace root: {}.",
            modes::name(policy.mode),
            policy.workspace_root
        )
    }
}
