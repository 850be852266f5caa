//! Telling the client about world swaps: `notifications/tools/list_changed` when the tool set
//! changed, a logging notification (and a line on stderr) when a new world was refused.

use crate::live::{ReloadError, Swapped};
use rmcp::RoleServer;
use rmcp::service::Peer;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use tokio::runtime::Handle;

/// The watcher's report: runs on the watcher thread, sends on the server's runtime.
/// `log_level` is the least severe level the client asked for (see `SeamServer::log_level`).
pub(super) fn reporter(
    peer: Peer<RoleServer>,
    runtime: Handle,
    log_level: Arc<AtomicU8>,
) -> impl Fn(Result<Swapped, ReloadError>) + Send {
    move |outcome| match outcome {
        Ok(swapped) => {
            tracing::info!(cleared = ?swapped.cleared, "a new world is serving");
            if swapped.tools_changed {
                let peer = peer.clone();
                runtime.spawn(async move {
                    if let Err(e) = peer.notify_tool_list_changed().await {
                        tracing::warn!("cannot announce the new tool list: {e}");
                    }
                });
            }
        }
        Err(error) => {
            let message = format!("the changed world was refused; the previous world keeps serving: {error}");
            tracing::error!(code = error.code(), "{message}");
            #[allow(deprecated)]
            if log_level.load(Ordering::Relaxed) > rmcp::model::LoggingLevel::Error as u8 {
                return;
            }
            let peer = peer.clone();
            runtime.spawn(async move {
                #[allow(deprecated)] // Logging is deprecated by a future protocol revision, still current here.
                let param = rmcp::model::LoggingMessageNotificationParam::new(
                    rmcp::model::LoggingLevel::Error,
                    serde_json::json!({ "code": error.code(), "message": message }),
                )
                .with_logger("seam");
                #[allow(deprecated)]
                let sent = peer.notify_logging_message(param).await;
                if let Err(e) = sent {
                    tracing::warn!("cannot report the refused world to the client: {e}");
                }
            });
        }
    }
}
