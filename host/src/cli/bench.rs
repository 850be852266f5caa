//! `seam bench`

use super::Cli;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// One JSON object per line: {"name", "value", "baseline", "ratio", "unit", "goal"}.
    #[arg(long)]
    json: bool,
    /// Fewer iterations: finishes in well under 30 seconds.
    #[arg(long)]
    quick: bool,
}

pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    let _ = (cli, args);
    anyhow::bail!("bench: not wired yet")
}
