//! Starting `bash -c <command>` confined by the call's sandbox policy.

use crate::bindings::exports::seam::shell::shell::{Error, Spec};
use crate::bindings::seam::host::config as host_config;
use crate::bindings::seam::sandbox::sandbox::{self, Confined};
use crate::bindings::seam::sandbox::types::{Mode, Policy};
use crate::bindings::seam::subprocess::subprocess::{self, Process};
use crate::command;
use crate::config::Config;
use crate::errors;

pub struct Launched {
    pub process: Process,
    /// How the argv was confined; none under danger-full-access.
    pub confined: Option<Confined>,
}

pub fn spawn(spec: &Spec, config: &Config) -> Result<Launched, Error> {
    let env = command::command_env(&spec.env);
    let bash = subprocess::resolve_executable(&config.bash, &env).map_err(errors::from_subprocess)?;
    let argv = command::bash_argv(bash, spec);
    let policy = spec.sandbox.clone().map_or_else(world_default, Ok)?;
    let (argv, confined) = match policy.mode {
        // Never confined: the raw argv is spawned as asked.
        Mode::DangerFullAccess => (argv, None),
        _ => {
            let confined = sandbox::confine(&argv, &spec.cwd, &policy).map_err(|e| Error {
                code: e.code,
                message: e.message,
            })?;
            (confined.argv.clone(), Some(confined))
        }
    };
    let process = subprocess::spawn(&command::spawn_spec(spec, argv, env)).map_err(errors::from_subprocess)?;
    Ok(Launched { process, confined })
}

/// A call that carries no policy runs under the world's default mode and workspace.
fn world_default() -> Result<Policy, Error> {
    let settings = host_config::settings();
    let mode = match settings.sandbox_mode.as_str() {
        "read-only" => Mode::ReadOnly,
        "workspace-write" => Mode::WorkspaceWrite,
        "danger-full-access" => Mode::DangerFullAccess,
        other => {
            return Err(Error {
                code: "SHELL_CONFIG_INVALID".into(),
                message: format!("the world's sandbox mode {other:?} is unknown"),
            });
        }
    };
    Ok(Policy {
        mode,
        workspace_root: settings.workspace,
        writable_roots: vec![settings.temp_dir],
    })
}
