//! `bash-local`: the shell seam on the local machine. Every command runs in a fresh non-login
//! `bash -c` through the subprocess seam; this provider does not confine commands.

mod background;
mod command;
mod config;
mod errors;
mod launch;
mod output;
mod run_result;
mod spec;

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:bash-local;

            world bash-local {
                import seam:subprocess/subprocess@0.1.0;
                import seam:host/config@0.1.0;
                export seam:shell/shell@0.1.0;
                export seam:host/config-check@0.1.0;
            }
        "#,
        // Dependencies first: shell uses seam:sandbox, the subprocess package refers to seam:host.
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

struct BashLocal;

impl Guest for BashLocal {
    type Background = BashBackground;

    fn resolve(request: Request) -> Result<Spec, Error> {
        spec::resolve(request, &Config::load()?)
    }

    fn run(spec: Spec) -> Result<RunResult, Error> {
        let config = Config::load()?;
        spec::check(&spec, &config)?;
        let started = Instant::now();
        let process = launch::spawn(&spec, &config)?;
        let ended = match process.wait(Some(spec.timeout_ms)) {
            Some(outcome) => Ended::now(outcome, Cause::Finished, started),
            None => Ended::now(process.terminate(), Cause::TimedOut, started),
        };
        Ok(ended.with_output(output::read(&process)?))
    }

    fn start(spec: Spec) -> Result<Background, Error> {
        let config = Config::load()?;
        spec::check_command(&spec)?;
        let process = launch::spawn(&spec, &config)?;
        Ok(Background::new(BashBackground::new(process)))
    }

    fn attach(id: u64) -> Result<Background, Error> {
        let process = subprocess::attach(id).map_err(errors::from_subprocess)?;
        Ok(Background::new(BashBackground::new(process)))
    }

    fn confines() -> bool {
        false
    }
}

/// Asked when a world that configures this component loads.
impl bindings::exports::seam::host::config_check::Guest for BashLocal {
    fn check() -> Result<(), String> {
        Config::load().map(drop).map_err(|error| error.message)
    }
}

bindings::export!(BashLocal with_types_in bindings);
