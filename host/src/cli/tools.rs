//! `seam tools`

use seam_host::World;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Print the tools as a JSON array (name, description, input_schema, component).
    #[arg(long)]
    json: bool,
}

pub fn run(world: &World, args: &Args) -> anyhow::Result<ExitCode> {
    if args.json {
        println!("{}", serde_json::to_string_pretty(world.tools())?);
        return Ok(ExitCode::SUCCESS);
    }
    for tool in world.tools() {
        println!("{}  (from {})", tool.name, tool.component);
        for line in tool.description.lines() {
            println!("    {line}");
        }
        println!("    arguments: {}", tool.input_schema);
        println!();
    }
    Ok(ExitCode::SUCCESS)
}
