//! Values whose drop is slow, dropped by a thread of their own after the caller has its answer:
//! lanes whose memories a call dirtied, and descriptors whose close frees a replaced file.

use std::sync::mpsc::{SyncSender, TrySendError, sync_channel};

pub struct OffPath<T: Send + 'static> {
    queue: Option<SyncSender<T>>,
}

impl<T: Send + 'static> OffPath<T> {
    /// A thread named `name` that drops what it is given. At most `backlog` values wait for it;
    /// past that callers drop their own, so a burst cannot pile up what the drops would free.
    /// Without a thread (it could not start) every value drops inline.
    pub fn start(name: &str, backlog: usize) -> Self {
        let (sender, receiver) = sync_channel::<T>(backlog);
        let started = std::thread::Builder::new()
            .name(name.into())
            .spawn(move || receiver.into_iter().for_each(drop))
            .is_ok();
        Self {
            queue: started.then_some(sender),
        }
    }

    /// Drop `value` on the thread, or here when the backlog is full.
    pub fn drop_later(&self, value: T) {
        if let Some(queue) = &self.queue
            && let Err(TrySendError::Full(value) | TrySendError::Disconnected(value)) = queue.try_send(value)
        {
            drop(value);
        }
    }
}
