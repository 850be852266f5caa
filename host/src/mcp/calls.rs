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
    running: Mutex<Running>,
}

#[derive(Default)]
struct Running {
    /// Each call with its request's token, which its approval questions wait on too.
    calls: HashMap<u64, (CallContext, CancellationToken)>,
    /// The client has gone: a call admitted from here on (read before the end of its input,
    /// started after) is cancelled before it starts, as the calls running then were.
    closed: bool,
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
        {
            let mut running = self.lock();
            if running.closed {
                return Ended::Cancelled;
            }
            running.calls.insert(id, (call.clone(), cancelled.clone()));
        }
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
        self.lock().calls.remove(&id);
        ended
    }

    /// Cancel everything still running (the client has gone).
    pub fn cancel_all(&self) {
        let mut running = self.lock();
        running.closed = true;
        for (call, request) in running.calls.values() {
            // The request's token ends a question put to the client, who will never answer it.
            request.cancel();
            call.cancel();
        }
    }

    fn lock(&self) -> MutexGuard<'_, Running> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
