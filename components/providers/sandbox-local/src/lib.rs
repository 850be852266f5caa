//! `sandbox-local`: the sandbox seam on the local machine. It wraps an argv for a policy with
//! the first usable runner of the chain (Linux: bwrap, then Landlock through the host's
//! launcher) and says how much of the policy that runner enforces, in which words it reports a
//! denial, and how it says that it could not start. It executes nothing itself.

mod config;
mod errors;
mod machine;
mod profiles;
mod runners;
mod scope;
mod select;

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:sandbox-local;

            world sandbox-local {
                import seam:host/sandbox-launch@0.1.0;
                import seam:host/state@0.1.0;
                import seam:host/config@0.1.0;
                export seam:sandbox/sandbox@0.1.0;
                export seam:host/config-check@0.1.0;
            }
        "#,
        path: ["../../../wit/host", "../../../wit/sandbox"],
        generate_all,
    });
}

use bindings::exports::seam::sandbox::sandbox::{Confined, Error, Guest, RunnerFailureRule, RunnerReport};
use bindings::seam::host::sandbox_launch as launch;
use bindings::seam::sandbox::types::{self, Policy};

use crate::config::Config;
use crate::profiles::bwrap::Session;
use crate::profiles::{Kind, Protected};
use crate::runners::Runner;
use crate::scope::{Mode, Scope};
use crate::select::Enforcement;

struct SandboxLocal;

impl Guest for SandboxLocal {
    fn confine(argv: Vec<String>, cwd: String, policy: Policy) -> Result<Confined, Error> {
        confine(argv, cwd, policy, Session::New)
    }

    fn confine_terminal(argv: Vec<String>, cwd: String, policy: Policy) -> Result<Confined, Error> {
        confine(argv, cwd, policy, Session::Kept)
    }

    fn runners() -> Vec<RunnerReport> {
        let config = match Config::load() {
            Ok(config) => config,
            // No chain can be judged from settings that do not parse; say why instead.
            Err(error) => {
                return vec![RunnerReport {
                    name: "config".to_owned(),
                    usable: false,
                    enforcement: None,
                    detail: format!("[{}] {}", error.code, error.message),
                    selected: false,
                }];
            }
        };
        select::report(&config, &machine::Host)
            .into_iter()
            .map(|r| RunnerReport {
                name: r.name,
                usable: r.usable,
                enforcement: r.enforcement.map(wit_enforcement),
                detail: r.detail,
                selected: r.selected,
            })
            .collect()
    }
}

/// Wraps `argv` for `policy` with the first usable runner; `session` says whether the command
/// gets a session of its own (see `Session`).
fn confine(argv: Vec<String>, cwd: String, policy: Policy, session: Session) -> Result<Confined, Error> {
    if argv.is_empty() {
        return Err(errors::invalid_argv("argv is empty: there is nothing to confine"));
    }
    let mode = match policy.mode {
        types::Mode::ReadOnly => Mode::ReadOnly,
        types::Mode::WorkspaceWrite => Mode::WorkspaceWrite,
        types::Mode::DangerFullAccess => {
            return Err(errors::invalid_policy(
                "danger-full-access is never confined: spawn the argv itself",
            ));
        }
    };
    let scope = Scope::new(mode, &policy.workspace_root, &policy.writable_roots).map_err(errors::invalid_policy)?;
    if !cwd.starts_with('/') {
        return Err(errors::invalid_argv(format!("the cwd {cwd:?} is not an absolute path")));
    }
    let config = Config::load()?;
    let chosen = select::choose(&config, &machine::Host).map_err(errors::unavailable)?;
    let protected = protected_paths(&scope);
    let (argv, enforcement) = match chosen.runner {
        Runner::Bwrap if !profiles::bwrap::shows(&scope, &cwd) => {
            return Err(errors::cwd_hidden(format!(
                "{cwd} is not in the sandbox: under workspace-write the sandbox has a private /tmp, \
                 which shows only the workspace and the writable roots inside /tmp. Run the \
                 command in one of those, or in a directory outside /tmp."
            )));
        }
        Runner::Bwrap => (
            profiles::bwrap::argv(&chosen.program, &scope, &protected, session, &cwd, &argv),
            chosen.mechanism,
        ),
        Runner::Landlock => {
            let shortfalls = profiles::landlock::shortfalls(&scope, &protected, chosen.mechanism);
            let enforcement = if shortfalls.is_empty() {
                Enforcement::Full
            } else {
                Enforcement::Partial
            };
            (landlock_argv(&scope, argv)?, enforcement)
        }
        Runner::Seatbelt | Runner::WindowsAcl => {
            return Err(errors::unavailable(format!(
                "{} cannot run on this host",
                chosen.runner.name()
            )));
        }
    };
    Ok(Confined {
        argv,
        enforcement: wit_enforcement(enforcement),
        runner: chosen.runner.name().to_owned(),
        ends_leftovers: chosen.runner.ends_leftovers(),
        denial_signatures: chosen
            .runner
            .denial_signatures()
            .iter()
            .map(|s| (*s).to_owned())
            .collect(),
        runner_failure_rules: chosen
            .runner
            .failure_rules()
            .iter()
            .map(|rule| RunnerFailureRule {
                fatal_stderr: rule.fatal.to_owned(),
                exit_codes: rule.exit_codes.to_vec(),
            })
            .collect(),
    })
}

/// The launcher's prefix from the host, then `--` and the argv. A rule the host refuses (a root
/// that does not exist or is not canonical) is the policy's fault, not the machine's.
fn landlock_argv(scope: &Scope, argv: Vec<String>) -> Result<Vec<String>, Error> {
    let rules = profiles::landlock::rules(scope);
    let rules = launch::LandlockRules {
        read: rules.read,
        write: rules.write,
    };
    let mut confined = launch::launcher_argv(&rules).map_err(|e| match e.code.as_str() {
        "SANDBOX_LAUNCH_INVALID" => errors::invalid_policy(e.message),
        _ => errors::unavailable(e.message),
    })?;
    confined.push("--".to_owned());
    confined.extend(argv);
    Ok(confined)
}

/// What must stay read-only (git's metadata, the host's cache); only a writable sandbox can
/// reach it.
fn protected_paths(scope: &Scope) -> Vec<Protected> {
    if scope.mode == Mode::ReadOnly {
        return Vec::new();
    }
    launch::protected_paths(&scope.workspace)
        .into_iter()
        .map(|p| Protected {
            path: p.path,
            kind: match p.kind {
                launch::PathKind::Directory => Kind::Directory,
                launch::PathKind::File => Kind::File,
                launch::PathKind::MissingDirectory => Kind::MissingDirectory,
            },
        })
        .collect()
}

fn wit_enforcement(e: Enforcement) -> types::Enforcement {
    match e {
        Enforcement::Full => types::Enforcement::Full,
        Enforcement::Partial => types::Enforcement::Partial,
    }
}

/// Asked when a world that configures this component loads.
impl bindings::exports::seam::host::config_check::Guest for SandboxLocal {
    fn check() -> Result<(), String> {
        Config::load().map(drop).map_err(|error| error.message)
    }
}

bindings::export!(SandboxLocal with_types_in bindings);
