//! `seam bench`

use super::Cli;
use seam_host::bench::{self, Row};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// One JSON object per line: {"name", "value", "baseline", "ratio", "unit", "goal"}.
    #[arg(long)]
    json: bool,
    /// Fewer iterations: finishes in well under 30 seconds.
    #[arg(long)]
    quick: bool,
    /// Run only these groups (comma-separated or repeated).
    #[arg(long, value_delimiter = ',', value_parser = clap::builder::PossibleValuesParser::new(bench::GROUPS))]
    only: Vec<String>,
}

pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    let options = bench::Options {
        quick: args.quick,
        only: args.only.clone(),
        seam_exe: std::env::current_exe()?,
        workspace: match &cli.workspace {
            Some(dir) => dir.clone(),
            None => std::env::current_dir()?,
        },
    };
    if !args.json {
        say!(
            "{:<32} {:>12} {:>12} {:>8} {:>10}  {:<8} goal",
            "benchmark",
            "seam",
            "baseline",
            "ratio",
            "overhead",
            "unit"
        )?;
    }
    // Rows print as they are measured; once stdout fails the rest are measured unprinted.
    let mut printed = Ok(());
    bench::run(&super::runtime()?, &options, |row: Row| {
        if printed.is_ok() {
            printed = print_row(&row, args.json);
        }
    })?;
    printed?;
    Ok(ExitCode::SUCCESS)
}

fn print_row(row: &Row, json: bool) -> std::io::Result<()> {
    if json {
        return say!("{}", serde_json::to_string(row).unwrap_or_default());
    }
    let opt = |v: Option<f64>| v.map(|v| format!("{v:.3}")).unwrap_or_else(|| "-".into());
    // Goals are ratios (≤ 1.2×) or added costs (≤ +10 ms): both columns, so neither is misread.
    let overhead = row.baseline.map(|baseline| format!("{:+.3}", row.value - baseline));
    say!(
        "{:<32} {:>12.3} {:>12} {:>8} {:>10}  {:<8} {}",
        row.name,
        row.value,
        opt(row.baseline),
        opt(row.ratio),
        overhead.unwrap_or_else(|| "-".into()),
        row.unit,
        row.goal
    )
}
