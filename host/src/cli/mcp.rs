//! `seam mcp`: serve the world's tools to an MCP client over stdin/stdout.

use seam_host::World;
use std::process::ExitCode;
use std::sync::Arc;

pub fn run(world: World) -> anyhow::Result<ExitCode> {
    seam_host::mcp::serve_stdio(Arc::new(world))?;
    Ok(ExitCode::SUCCESS)
}
