//! Lanes retired off the caller's path.
//!
//! Dropping a lane frees its instances, which resets every linear memory the call dirtied
//! (a `memset` of the pages kept resident, an `madvise` of the rest): after a call that moved a
//! 10 MB file that is milliseconds the caller would otherwise wait for after its answer exists.
//! Host resources are not part of that: they end inline, with the call, as callers expect (a
//! process the call left running is signalled before the answer returns).

use crate::lane::Lane;
use std::sync::mpsc::{SyncSender, TrySendError, sync_channel};
use wasmtime::Store;

/// Lanes waiting to be dropped; past this the caller drops its own, so a burst of calls
/// cannot pile up instance slots that are no longer used.
const BACKLOG: usize = 4;
/// Lanes whose memories grew less than this drop inline: their reset costs microseconds, and
/// their slots are free again the moment the call returns (a small pool may need them next).
const RETIRE_ABOVE: usize = 1 << 20;

pub struct Retirement {
    queue: Option<SyncSender<Store<Lane>>>,
}

impl Retirement {
    /// A thread that drops retired lanes; without one (it could not start) lanes drop inline.
    pub fn start() -> Self {
        let (sender, receiver) = sync_channel::<Store<Lane>>(BACKLOG);
        let started = std::thread::Builder::new()
            .name("seam-retire".into())
            .spawn(move || receiver.into_iter().for_each(drop))
            .is_ok();
        Self {
            queue: started.then_some(sender),
        }
    }

    /// Ends `store`'s host resources now and its instances now or, after a call that moved
    /// bulk data, soon.
    pub fn retire(&self, mut store: Store<Lane>) {
        if store.data().grown() < RETIRE_ABOVE {
            return;
        }
        drop(std::mem::take(&mut store.data_mut().table));
        if let Some(queue) = &self.queue
            && let Err(TrySendError::Full(store) | TrySendError::Disconnected(store)) = queue.try_send(store)
        {
            drop(store);
        }
    }
}
