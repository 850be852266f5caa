//! A call's progress as `notifications/progress` to the client that asked for it.

use crate::lane::{Progress, ProgressSink};
use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::{Peer, RoleServer};
use std::sync::Arc;
use tokio::runtime::Handle;

/// A sink for the lane thread. It waits until the notification is handed to the transport, so
/// notifications keep their order and all precede the call's response.
pub(super) fn sink(peer: Peer<RoleServer>, token: ProgressToken, runtime: Handle) -> ProgressSink {
    Arc::new(move |progress: Progress| {
        let mut params = ProgressNotificationParam::new(token.clone(), progress.done);
        if let Some(total) = progress.total {
            params = params.with_total(total);
        }
        if let Some(message) = progress.message {
            params = params.with_message(message);
        }
        if let Err(e) = runtime.block_on(peer.notify_progress(params)) {
            // The client has gone or the transport failed; the call itself carries on.
            tracing::debug!("progress notification not sent: {e}");
        }
    })
}
