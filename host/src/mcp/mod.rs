//! The world's tools served to an MCP client over stdio (`seam mcp`).
//!
//! Each `tools/call` runs `World::call` on a blocking thread, so calls run in parallel lanes.
//! Progress reported by a tool becomes `notifications/progress` when the client sent a progress
//! token; `notifications/cancelled` cancels the call and terminates the processes it spawned;
//! approval requests reach the human through elicitation when the client supports it. When the
//! client disconnects, the agents it called as are released (terminals and jobs closed).

mod asker;
mod calls;
mod client_gone;
mod convert;
mod lines;
mod opening;
mod progress;
mod server;
mod swaps;

pub use calls::Calls;
pub use convert::ERROR_CODE_META;
pub use server::SeamServer;

use crate::live::{LiveWorld, watch};
use rmcp::ServiceExt;
use std::sync::Arc;
use std::time::Duration;

/// How long in-flight calls get to wind down once the client has gone: their processes are
/// terminated first, so this only bounds a lane stuck in guest code.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);
/// The longest message read from the client. A longer one is dropped unanswered (its id is
/// not known), so this is set well above what a tool takes: a 32 MiB file written
/// back with every byte escaped still fits.
const MAX_MESSAGE_BYTES: usize = 96 << 20;

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("cannot start the async runtime: {0}")]
    Runtime(#[from] std::io::Error),
    #[error("the MCP session did not start: {0}")]
    Initialize(Box<rmcp::service::ServerInitializeError>),
    #[error("the MCP session failed: {0}")]
    Session(#[from] tokio::task::JoinError),
    #[error("cannot watch the world file: {0}")]
    Watch(std::io::Error),
}

/// Serve `world` on stdin/stdout until the client closes the connection, swapping in a new
/// world whenever its files change (or on SIGHUP). Stdout carries only the protocol; logs go
/// to stderr.
pub fn serve_stdio(world: Arc<LiveWorld>) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("seam-mcp")
        .build()?;
    let server = SeamServer::new(world.clone());
    let (calls, agents, live, log_level) = (server.calls(), server.agents(), world.clone(), server.log_level());
    let watching_stdin = calls.clone();
    let served = runtime.block_on(async move {
        // Pipes (how MCP clients start servers) are read on the IO reactor rather than through
        // the blocking pool: one thread hop less per message.
        let (stdin, stdout) = rmcp::transport::stdio_pipes();
        let stdin = client_gone::CancelOnEof::new(stdin, watching_stdin);
        let transport = opening::Opening::new(lines::Lines::new(stdin, stdout, MAX_MESSAGE_BYTES));
        let service = server
            .serve(transport)
            .await
            .map_err(|e| ServeError::Initialize(Box::new(e)))?;
        let report = swaps::reporter(service.peer().clone(), tokio::runtime::Handle::current(), log_level);
        watch::spawn(&world, report).map_err(ServeError::Watch)?;
        service.waiting().await?;
        Ok::<_, ServeError>(())
    });
    // Calls still running when the client left would keep the runtime from shutting down.
    calls.cancel_all();
    // The client's agents are gone with it: their terminals and background jobs end now.
    let agents = std::mem::take(&mut *agents.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
    let current = live.current();
    for agent in &agents {
        current.release_agent(agent);
    }
    runtime.shutdown_timeout(SHUTDOWN_GRACE);
    served
}
