//! `seam world check`

use super::Cli;
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(cli: &Cli, file: Option<PathBuf>, json: bool) -> anyhow::Result<ExitCode> {
    let world = match super::load(cli, file) {
        Ok(world) => world,
        Err(e) => {
            println!("refused: {e:#}");
            return Ok(ExitCode::FAILURE);
        }
    };
    let graph = world.graph();
    if json {
        println!("{}", serde_json::to_string_pretty(&graph)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "world {} (workspace {}, sandbox {})",
        world.origin(),
        world.workspace().display(),
        world.sandbox_mode().as_str()
    );
    for node in &graph {
        println!("{} [{}]", node.component, node.role);
        let wasi = node
            .imports
            .iter()
            .filter(|(import, _)| import.starts_with("wasi:"))
            .count();
        for (import, served_by) in node.imports.iter().filter(|(import, _)| !import.starts_with("wasi:")) {
            println!("    {import} <- {served_by}");
        }
        if wasi > 0 {
            println!("    wasi:* ({wasi} interfaces) <- host (WASI, nothing granted)");
        }
    }
    let tools: Vec<&str> = world.tools().iter().map(|t| t.name.as_str()).collect();
    println!("tools: {}", tools.join(", "));
    Ok(ExitCode::SUCCESS)
}
