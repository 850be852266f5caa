//! The `bash` tool's arguments and the shell request they make.

use std::num::NonZeroU64;

use serde::Deserialize;

use crate::bindings::seam::sandbox::types::Policy;
use crate::bindings::seam::shell::shell::Request;

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct BashArgs {
    pub command: String,
    /// No time at all is refused with the other malformed arguments, as the schema says.
    pub timeout_ms: Option<NonZeroU64>,
    pub workdir: Option<String>,
    /// For people watching, not for the shell.
    pub description: Option<String>,
    /// Escalation: the wider sandbox mode asked for this one call (only when the shell confines).
    pub sandbox_permissions: Option<String>,
    /// Escalation: why the wider mode is needed; comes paired with `sandbox_permissions`.
    pub justification: Option<String>,
    /// Start the command as a background job and return its id at once.
    #[serde(default)]
    pub run_in_background: bool,
}

impl BashArgs {
    /// The shell request, run in `workdir` placed in the session (its cwd when none is given).
    pub fn request(&self, session_cwd: &str, home: impl FnOnce() -> Option<String>, policy: Option<Policy>) -> Request {
        Request {
            command: self.command.clone(),
            cwd: seam_guest::paths::in_session(self.workdir.as_deref(), session_cwd, home),
            // Past u32 is past any shell's cap anyway: the shell clamps it like any long timeout.
            timeout_ms: self.timeout_ms.map(|ms| u32::try_from(ms.get()).unwrap_or(u32::MAX)),
            env: Vec::new(),
            sandbox: policy,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_make_a_request_carrying_the_policy() {
        use crate::bindings::seam::sandbox::types::Mode;
        let policy = Policy {
            mode: Mode::ReadOnly,
            workspace_root: "/work".into(),
            writable_roots: vec![],
        };
        let args: Result<BashArgs, _> =
            seam_guest::args::parse(r#"{"command": "ls", "timeout_ms": 500, "workdir": "~/src"}"#);
        let request = args.map(|args| args.request("/work", || Some("/home/ada".into()), Some(policy)));
        let request = request.map(|r| {
            (
                r.command,
                r.cwd,
                r.timeout_ms,
                r.env.len(),
                r.sandbox.map(|p| p.workspace_root),
            )
        });
        assert_eq!(
            request,
            Ok(("ls".into(), "/home/ada/src".into(), Some(500), 0, Some("/work".into())))
        );
    }

    #[test]
    fn a_timeout_past_u32_is_capped_not_refused() {
        let args: Result<BashArgs, _> = seam_guest::args::parse(r#"{"command": "ls", "timeout_ms": 99999999999}"#);
        let timeout = args.map(|args| args.request("/work", || None, None).timeout_ms);
        assert_eq!(timeout, Ok(Some(u32::MAX)));
    }

    #[test]
    fn wrong_arguments_are_refused() {
        for arguments in [
            "{}",
            r#"{"command": ["ls"]}"#,
            r#"{"command": "ls", "timeout_ms": "5"}"#,
            r#"{"command": "ls", "timeout_ms": -5}"#,
            r#"{"command": "ls", "timeout_ms": 0}"#,
            r#"{"command": "ls", "cwd": "/"}"#,
            "not json",
        ] {
            let refused = seam_guest::args::parse::<BashArgs>(arguments).err();
            assert_eq!(
                refused.map(|error| error.code()),
                Some("INVALID_ARGUMENTS"),
                "{arguments}"
            );
        }
    }
}
