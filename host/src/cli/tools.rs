//! `seam tools`

use seam_host::World;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Print the tools as a JSON array (name, description, input_schema, component).
    #[arg(long)]
    pub json: bool,
}

pub fn run(world: &World, args: &Args) -> anyhow::Result<ExitCode> {
    if args.json {
        say!("{}", serde_json::to_string_pretty(world.tools())?)?;
        return Ok(ExitCode::SUCCESS);
    }
    if world.tools().is_empty() {
        eprintln!(
            "seam: {} has no tools: list tool components under `tools = [...]` or [[plugins]]",
            world.origin()
        );
    }
    for tool in world.tools() {
        say!("{}  (from {})", tool.name, tool.component)?;
        for line in tool.description.lines() {
            say!("    {line}")?;
        }
        say!("    arguments: {}", tool.input_schema)?;
        say!()?;
    }
    Ok(ExitCode::SUCCESS)
}
