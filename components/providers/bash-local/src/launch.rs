//! Starting `bash -c <command>` for a spec through the subprocess seam, unconfined.

use crate::bindings::exports::seam::shell::shell::{Error, Spec};
use crate::bindings::seam::subprocess::subprocess::{self, Process};
use crate::command;
use crate::config::Config;
use crate::errors;

/// `spawn` resolves a bare argv[0] itself, with the same environment and the same errors as
/// `resolve-executable`: asking first would cost a crossing and a PATH search per command.
pub fn spawn(spec: &Spec, config: &Config) -> Result<Process, Error> {
    let env = command::command_env(&spec.env);
    let argv = command::bash_argv(config.bash.clone(), spec);
    subprocess::spawn(&command::spawn_spec(spec, argv, env)).map_err(errors::from_subprocess)
}
