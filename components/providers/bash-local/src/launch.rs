//! Starting `bash -c <command>` for a spec through the subprocess seam, unconfined.

use crate::bindings::exports::seam::shell::shell::{Error, Spec};
use crate::bindings::seam::subprocess::subprocess::{self, Process};
use crate::command;
use crate::config::Config;
use crate::errors;

pub fn spawn(spec: &Spec, config: &Config) -> Result<Process, Error> {
    let env = command::command_env(&spec.env);
    let bash = subprocess::resolve_executable(&config.bash, &env).map_err(errors::from_subprocess)?;
    let argv = command::bash_argv(bash, spec);
    subprocess::spawn(&command::spawn_spec(spec, argv, env)).map_err(errors::from_subprocess)
}
