//! The `bash` tool's arguments and the shell request they make.

use serde::Deserialize;

use crate::bindings::seam::sandbox::types::Policy;
use crate::bindings::seam::shell::shell::Request;

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct BashArgs {
    pub command: String,
    pub timeout_ms: Option<u32>,
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
    pub fn request(&self, session_cwd: &str, policy: Option<Policy>) -> Request {
        Request {
            command: self.command.clone(),
            cwd: workdir(self.workdir.as_deref(), session_cwd),
            timeout_ms: self.timeout_ms,
            env: Vec::new(),
            sandbox: policy,
        }
    }
}

/// An absolute workdir as given, a relative one under the session's cwd, none (or empty) the
/// session's cwd itself.
fn workdir(workdir: Option<&str>, session_cwd: &str) -> String {
    match workdir {
        None | Some("") => session_cwd.to_owned(),
        Some(dir) if dir.starts_with('/') => dir.to_owned(),
        Some(dir) => format!("{}/{dir}", session_cwd.trim_end_matches('/')),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workdir_defaults_to_the_session_cwd() {
        assert_eq!(workdir(None, "/work"), "/work");
        assert_eq!(workdir(Some(""), "/work"), "/work");
    }

    #[test]
    fn relative_workdirs_resolve_against_the_session_cwd() {
        assert_eq!(workdir(Some("src/bin"), "/work"), "/work/src/bin");
        assert_eq!(workdir(Some("src"), "/work/"), "/work/src");
        assert_eq!(workdir(Some("src"), "/"), "/src");
    }

    #[test]
    fn absolute_workdirs_are_kept() {
        assert_eq!(workdir(Some("/tmp"), "/work"), "/tmp");
    }

    #[test]
    fn arguments_make_a_request_carrying_the_policy() {
        use crate::bindings::seam::sandbox::types::Mode;
        let policy = Policy {
            mode: Mode::ReadOnly,
            workspace_root: "/work".into(),
            writable_roots: vec![],
        };
        let args: Result<BashArgs, _> =
            seam_guest::args::parse(r#"{"command": "ls", "timeout_ms": 500, "workdir": "src"}"#);
        let request = args.map(|args| args.request("/work", Some(policy)));
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
            Ok(("ls".into(), "/work/src".into(), Some(500), 0, Some("/work".into())))
        );
    }

    #[test]
    fn wrong_arguments_are_refused() {
        for arguments in [
            "{}",
            r#"{"command": ["ls"]}"#,
            r#"{"command": "ls", "timeout_ms": "5"}"#,
            r#"{"command": "ls", "timeout_ms": -5}"#,
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
