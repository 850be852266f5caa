//! terminal-bash starts the shell as it is: it does not confine. A policy the caller passes is
//! not enforced here (as with bash-local); a world that confines its terminals serves the seam
//! with terminal-sandbox.

use crate::bindings::exports::seam::terminal::terminal::Error;
use crate::bindings::seam::sandbox::types::Policy;

/// The argv the PTY runs: the shell's own.
pub fn shell_argv(argv: Vec<String>, _cwd: &str, _policy: Option<Policy>) -> Result<Vec<String>, Error> {
    Ok(argv)
}
