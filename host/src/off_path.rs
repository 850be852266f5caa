//! Work done by a thread of its own after the caller has its answer: drops that are slow
//! (lanes whose memories a call dirtied, descriptors whose close frees a replaced file) and the
//! spare lanes the next calls will find ready.

use std::sync::mpsc::{SyncSender, TrySendError, sync_channel};

pub struct OffPath<T: Send + 'static> {
    queue: Option<SyncSender<T>>,
}

impl<T: Send + 'static> OffPath<T> {
    /// A thread named `name` that drops what it is given.
    pub fn start(name: &str, backlog: usize) -> Self {
        Self::start_with(name, backlog, drop)
    }

    /// A thread named `name` that hands what it is given to `settle`. At most `backlog` values
    /// wait for it; past that callers drop their own (unsettled), so a burst cannot pile up what
    /// the thread would free. Without a thread (it could not start) every value drops inline.
    pub fn start_with(name: &str, backlog: usize, settle: fn(T)) -> Self {
        let (sender, receiver) = sync_channel::<T>(backlog);
        let started = std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                never_preempt_callers();
                receiver.into_iter().for_each(settle);
            })
            .is_ok();
        Self {
            queue: started.then_some(sender),
        }
    }

    /// Hand `value` to the thread, or drop it here when the backlog is full.
    pub fn drop_later(&self, value: T) {
        if let Some(queue) = &self.queue
            && let Err(TrySendError::Full(value) | TrySendError::Disconnected(value)) = queue.try_send(value)
        {
            drop(value);
        }
    }
}

/// Makes the calling thread a batch thread: woken, it waits for a free CPU or the next tick
/// instead of preempting the thread that woke it, which is a caller about to answer.
fn never_preempt_callers() {
    let param = libc::sched_param { sched_priority: 0 };
    // SAFETY: sched_setscheduler reads the param we pass; 0 names the calling thread.
    // Failure leaves the thread a normal one, which only costs the caller some latency.
    unsafe { libc::sched_setscheduler(0, libc::SCHED_BATCH, &param) };
}

#[cfg(test)]
mod tests {
    use super::OffPath;
    use std::sync::mpsc::{Sender, channel};
    use std::time::Duration;

    #[test]
    fn settles_on_a_batch_thread() {
        fn report_policy(reply: Sender<i32>) {
            // SAFETY: sched_getscheduler takes no pointers; 0 names the calling thread.
            let _ = reply.send(unsafe { libc::sched_getscheduler(0) });
        }
        let off_path = OffPath::start_with("test-off-path", 1, report_policy);
        let (reply, policy) = channel();
        off_path.drop_later(reply);
        let policy = policy
            .recv_timeout(Duration::from_secs(5))
            .expect("the thread settled it");
        assert_eq!(policy, libc::SCHED_BATCH);
    }
}
