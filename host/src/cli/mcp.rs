//! `seam mcp`: serve the world's tools to an MCP client over stdin/stdout, swapping in the
//! world anew whenever its file or a component file it names changes.

use seam_host::live::LiveWorld;
use seam_host::{Runtime, World};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

pub fn run(
    runtime: Arc<Runtime>,
    world: World,
    file: Option<&Path>,
    workspace: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    let live = LiveWorld::new(runtime, world, file, workspace);
    seam_host::mcp::serve_stdio(Arc::new(live))?;
    Ok(ExitCode::SUCCESS)
}
