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
    /// Run the selected groups N times and print each row from its median round (by ratio, else by
    /// value): steadier verdicts on a busy machine. Rows print once all rounds are done.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=99))]
    rounds: u32,
}

/// Wide enough for the longest row name, so every row's columns line up under the header.
const NAME_WIDTH: usize = 40;

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
            "{:<NAME_WIDTH$} {:>12} {:>12} {:>8} {:>10}  {:<8} goal",
            "benchmark",
            "seam",
            "baseline",
            "ratio",
            "overhead",
            "unit"
        )?;
    }
    let runtime = super::runtime()?;
    if args.rounds == 1 {
        // Rows print as they are measured; once stdout fails the rest are measured unprinted.
        let mut printed = Ok(());
        bench::run(&runtime, &options, |row: Row| {
            if printed.is_ok() {
                printed = print_row(&row, args.json);
            }
        })?;
        printed?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut rounds = Vec::new();
    for round in 1..=args.rounds {
        eprintln!("seam bench: round {round} of {}", args.rounds);
        let mut rows = Vec::new();
        bench::run(&runtime, &options, |row| rows.push(row))?;
        rounds.push(rows);
    }
    for row in bench::median_rows(rounds) {
        print_row(&row, args.json)?;
    }
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
        "{:<NAME_WIDTH$} {:>12.3} {:>12} {:>8} {:>10}  {:<8} {}",
        row.name,
        row.value,
        opt(row.baseline),
        opt(row.ratio),
        overhead.unwrap_or_else(|| "-".into()),
        row.unit,
        row.goal
    )
}
