//! `seam-landlock-launcher [--report] --read P... --write P... -- ARGV...`: confines itself,
//! then execs ARGV; never runs ARGV when the ruleset is not in force.

use seam_landlock_launcher::{FATAL_EXIT, FATAL_PREFIX, Launch, REPORT_PREFIX, abi, drop_capabilities, restrict_self};
use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let problem = launch(std::env::args_os().skip(1).collect());
    eprintln!("{FATAL_PREFIX} {problem}");
    ExitCode::from(FATAL_EXIT)
}

/// Returns only on failure: on success the process becomes the command.
fn launch(args: Vec<OsString>) -> String {
    let launch = match Launch::parse(args) {
        Ok(launch) => launch,
        Err(problem) => return format!("{problem} (usage: seam-landlock-launcher --read P --write P -- ARGV...)"),
    };
    let enforcement = match restrict_self(&launch.rules) {
        Ok(enforcement) => enforcement,
        Err(problem) => return problem,
    };
    if let Err(problem) = drop_capabilities() {
        return problem;
    }
    if launch.report {
        eprintln!("{REPORT_PREFIX} {} (ABI {})", enforcement.as_str(), abi());
    }
    let (program, args) = launch.argv.split_first().expect("Launch::parse requires a command");
    let error = Command::new(program).args(args).exec();
    format!("cannot execute {}: {error}", program.to_string_lossy())
}
