//! `seam __landlock [--report] --read P... --write P... -- ARGV...`: the Landlock launcher,
//! hidden from --help. The sandbox provider's landlock runner spawns it; it confines itself
//! and execs ARGV, and never runs ARGV when the ruleset is not in force.

use seam_host::natives::sandbox_launch::landlock::{self, FATAL_EXIT, FATAL_PREFIX, Launch, REPORT_PREFIX};
use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::process::{Command, ExitCode};

/// Run the launcher when the command line asks for it; None for every other command. Checked
/// before clap, so that a malformed launch still ends with the launcher's fatal line and exit
/// code (the runner failure rule) rather than a usage message.
pub fn intercept() -> Option<ExitCode> {
    let mut args = std::env::args_os().skip(1);
    if args.next()? != landlock::SUBCOMMAND {
        return None;
    }
    let problem = launch(args.collect());
    eprintln!("{FATAL_PREFIX} {problem}");
    Some(ExitCode::from(FATAL_EXIT))
}

/// Returns only on failure: on success the process becomes the command.
fn launch(args: Vec<OsString>) -> String {
    let launch = match Launch::parse(args) {
        Ok(launch) => launch,
        Err(problem) => return format!("{problem} (usage: seam __landlock --read P --write P -- ARGV...)"),
    };
    let enforcement = match landlock::restrict_self(&launch.rules) {
        Ok(enforcement) => enforcement,
        Err(problem) => return problem,
    };
    if let Err(problem) = landlock::drop_capabilities() {
        return problem;
    }
    if launch.report {
        eprintln!("{REPORT_PREFIX} {} (ABI {})", enforcement.as_str(), landlock::abi());
    }
    let (program, args) = launch.argv.split_first().expect("Launch::parse requires a command");
    let error = Command::new(program).args(args).exec();
    format!("cannot execute {}: {error}", program.to_string_lossy())
}
