//! Calls in flight: each runs on a blocking thread of its own, and a cancellation from the
//! client (or the end of the session) cancels its lane and terminates its processes.

use crate::{CallContext, ToolResult, World};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use tokio_util::sync::CancellationToken;

#[derive(Default)]
pub struct Calls {
    next: AtomicU64,
    /// Each call with its request's token, which its approval questions wait on too.
    running: Mutex<HashMap<u64, (CallContext, CancellationToken)>>,
}

/// How a call ended, seen from the protocol side.
pub(super) enum Ended {
    Finished(ToolResult),
    /// The client cancelled: its lane is being torn down and nobody waits for a result.
    Cancelled,
    /// `World::call` panicked (a host bug); the message is the panic's.
    Panicked(String),
}

impl Calls {
    /// Run one call; `cancelled` fires when the client cancels the request.
    pub(super) async fn run(
        &self,
        world: Arc<World>,
        tool: String,
        arguments: String,
        call: CallContext,
        cancelled: CancellationToken,
    ) -> Ended {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        self.lock().insert(id, (call.clone(), cancelled.clone()));
        let control = call.clone();
        // Lanes block (waiting for processes, for a human): never on the async workers.
        let mut lane = tokio::task::spawn_blocking(move || world.call(&tool, &arguments, call));
        let ended = tokio::select! {
            joined = &mut lane => match joined {
                Ok(result) => Ended::Finished(result),
                Err(e) => Ended::Panicked(e.to_string()),
            },
            () = cancelled.cancelled() => {
                // The lane returns once its processes are gone; its result is dropped with it.
                control.cancel();
                Ended::Cancelled
            }
        };
        self.lock().remove(&id);
        ended
    }

    /// Cancel everything still running (the client has gone).
    pub fn cancel_all(&self) {
        for (call, request) in self.lock().values() {
            // The request's token ends a question put to the client, who will never answer it.
            request.cancel();
            call.cancel();
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<u64, (CallContext, CancellationToken)>> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
