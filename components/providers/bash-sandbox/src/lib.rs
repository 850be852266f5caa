//! `bash-sandbox`: the shell seam with every command confined. The argv `bash -c <command>` is
//! wrapped by the sandbox seam for the call's policy (danger-full-access runs it directly) and
//! the confined run is settled with the runner's own rules: denied by policy, runner failure,
//! or an ordinary result.
//!
//! Everything but the launch and the settling is bash-local's, shared by path so the two
//! executors cannot drift apart.

#[path = "../../bash-local/src/background.rs"]
mod background;
#[path = "../../bash-local/src/command.rs"]
mod command;
#[path = "../../bash-local/src/config.rs"]
mod config;
#[path = "../../bash-local/src/errors.rs"]
mod errors;
mod launch;
#[path = "../../bash-local/src/output.rs"]
mod output;
#[path = "../../bash-local/src/run_result.rs"]
mod run_result;
mod settle;
#[path = "../../bash-local/src/spec.rs"]
mod spec;

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:bash-sandbox;

            world bash-sandbox {
                import seam:subprocess/subprocess@0.1.0;
                import seam:sandbox/sandbox@0.1.0;
                import seam:host/config@0.1.0;
                export seam:shell/shell@0.1.0;
                export seam:host/config-check@0.1.0;
            }
        "#,
        path: [
            "../../../wit/sandbox",
            "../../../wit/host",
            "../../../wit/subprocess",
            "../../../wit/shell",
        ],
        generate_all,
    });
}

use std::time::Instant;

use bindings::exports::seam::shell::shell::{Background, Error, Guest, Request, RunResult, Spec};
use bindings::seam::subprocess::subprocess;

use crate::background::BashBackground;
use crate::config::Config;
use crate::run_result::{Cause, Ended};

struct BashSandbox;

impl Guest for BashSandbox {
    type Background = BashBackground;

    fn resolve(request: Request) -> Result<Spec, Error> {
        spec::resolve(request, &Config::load()?)
    }

    fn run(spec: Spec) -> Result<RunResult, Error> {
        let config = Config::load()?;
        spec::check(&spec, &config)?;
        let started = Instant::now();
        let launched = launch::spawn(&spec, &config)?;
        let process = &launched.process;
        let ended = match process.wait(Some(spec.timeout_ms)) {
            Some(outcome) => Ended::now(outcome, Cause::Finished, started),
            None => Ended::now(process.terminate(), Cause::TimedOut, started),
        };
        let result = ended.with_output(output::read(process)?);
        match &launched.confined {
            Some(confined) => settle::settle(confined, result),
            None => Ok(result),
        }
    }

    fn start(spec: Spec) -> Result<Background, Error> {
        let config = Config::load()?;
        spec::check_command(&spec)?;
        let launched = launch::spawn(&spec, &config)?;
        Ok(Background::new(BashBackground::new(launched.process)))
    }

    fn attach(id: u64) -> Result<Background, Error> {
        let process = subprocess::attach(id).map_err(errors::from_subprocess)?;
        Ok(Background::new(BashBackground::new(process)))
    }

    fn confines() -> bool {
        true
    }
}

/// Asked when a world that configures this component loads.
impl bindings::exports::seam::host::config_check::Guest for BashSandbox {
    fn check() -> Result<(), String> {
        Config::load().map(drop).map_err(|error| error.message)
    }
}

bindings::export!(BashSandbox with_types_in bindings);
