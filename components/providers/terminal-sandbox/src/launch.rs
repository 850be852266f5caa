//! terminal-sandbox confines the shell: the sandbox seam wraps its argv for the session's
//! policy, keeping the PTY as the shell's controlling terminal, so everything typed into the
//! session runs confined. danger-full-access runs the shell as it is.

use crate::bindings::exports::seam::terminal::terminal::Error;
use crate::bindings::seam::sandbox::sandbox;
use crate::bindings::seam::sandbox::types::{Mode, Policy};
use crate::errors;

/// The argv the PTY runs: the shell inside the sandbox.
pub fn shell_argv(argv: Vec<String>, cwd: &str, policy: Option<Policy>) -> Result<Vec<String>, Error> {
    let Some(policy) = policy else {
        return Err(errors::error(
            errors::INVALID_REQUEST,
            "terminal-sandbox confines every shell: the request must carry the session's sandbox policy",
        ));
    };
    if policy.mode == Mode::DangerFullAccess {
        return Ok(argv);
    }
    let confined = sandbox::confine_terminal(&argv, cwd, &policy).map_err(|e| errors::error(&e.code, e.message))?;
    Ok(confined.argv)
}
