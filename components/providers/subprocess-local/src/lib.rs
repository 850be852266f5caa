//! `subprocess-local`: the subprocess seam on the local machine, over the host's native process
//! shim. It owns the environment policy and executable resolution; the host owns the processes.

mod env_policy;
mod errors;
mod process;
mod resolve;
mod stdio;
mod terminal;

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:subprocess-local;

            world subprocess-local {
                import seam:host/process@0.1.0;
                import seam:host/pty@0.1.0;
                import seam:host/log@0.1.0;
                export seam:subprocess/subprocess@0.1.0;
            }
        "#,
        // Dependencies first: the subprocess package's own world refers to seam:host.
        path: ["../../../wit/host", "../../../wit/subprocess"],
        generate_all,
    });
}

use bindings::exports::seam::subprocess::subprocess::{Guest, Process, Terminal};
use bindings::seam::host::process as host;
use bindings::seam::host::pty;
use bindings::seam::subprocess::types::{Error, SpawnSpec, TerminalSpec};

use crate::process::LocalProcess;
use crate::terminal::LocalTerminal;

struct SubprocessLocal;

impl Guest for SubprocessLocal {
    type Process = LocalProcess;
    type Terminal = LocalTerminal;

    fn resolve_executable(command: String, env: Vec<(String, String)>) -> Result<String, Error> {
        let env = env_policy::spawn_env(host::environment(), env);
        resolve::executable(&command, &env, first_executable)
    }

    fn spawn(spec: SpawnSpec) -> Result<Process, Error> {
        let (argv, env) = prepare(spec.argv, spec.env, &spec.cwd)?;
        let host_spec = host::SpawnSpec {
            argv,
            cwd: spec.cwd,
            env,
            stdin: spec.stdin.into(),
            stdout: spec.stdout.into(),
            stderr: spec.stderr.into(),
            grace_ms: spec.grace_ms,
            private_tmp: spec.private_tmp,
        };
        let child = host::spawn(&host_spec).map_err(errors::from_host)?;
        Ok(Process::new(LocalProcess::new(child)))
    }

    fn attach(id: u64) -> Result<Process, Error> {
        let child = host::attach(id).map_err(errors::from_host)?;
        Ok(Process::new(LocalProcess::new(child)))
    }

    /// The same environment policy and executable resolution as `spawn`; the host owns the PTY.
    fn spawn_terminal(spec: TerminalSpec) -> Result<Terminal, Error> {
        let (argv, env) = prepare(spec.argv, spec.env, &spec.cwd)?;
        let host_spec = pty::SpawnSpec {
            argv,
            cwd: spec.cwd,
            env,
            rows: spec.rows,
            cols: spec.cols,
            scrollback_bytes: spec.scrollback_bytes,
            grace_ms: spec.grace_ms,
        };
        let session = pty::spawn(&host_spec).map_err(errors::from_pty)?;
        Ok(Terminal::new(LocalTerminal::new(session)))
    }

    fn attach_terminal(id: u64) -> Result<Terminal, Error> {
        let session = pty::attach(id).map_err(errors::from_pty)?;
        Ok(Terminal::new(LocalTerminal::new(session)))
    }
}

/// Environment variables, name and value.
type Env = Vec<(String, String)>;

/// The argv with its program resolved and the final environment of a spawn: the policy
/// applied to the caller's env, the cwd checked.
fn prepare(mut argv: Vec<String>, env: Env, cwd: &str) -> Result<(Vec<String>, Env), Error> {
    let env = env_policy::spawn_env(host::environment(), env);
    let Some(command) = argv.first_mut() else {
        return Err(errors::invalid_command("argv is empty"));
    };
    *command = resolve::executable(command, &env, first_executable)?;
    check_cwd(cwd)?;
    Ok((argv, env))
}

/// The host checks candidates of a PATH search in one call.
fn first_executable(candidates: &[String]) -> Option<usize> {
    host::first_executable(candidates).map(|index| index as usize)
}

/// The host checks again at spawn time; checking here gives the caller a precise error, and a
/// relative cwd would otherwise be judged against the host's own working directory.
fn check_cwd(cwd: &str) -> Result<(), Error> {
    if !cwd.starts_with('/') {
        return Err(errors::cwd_invalid(format!(
            "cwd must be an absolute path, got {cwd:?}"
        )));
    }
    if !host::is_directory(cwd) {
        return Err(errors::cwd_invalid(format!("cwd {cwd} is not an existing directory")));
    }
    Ok(())
}

bindings::export!(SubprocessLocal with_types_in bindings);
