//! A dedicated, never-ending thread on which every zygote is forked.
//!
//! Supervisors are created as the zygote's siblings, so their parent *thread* is the thread
//! that forked the zygote. `PR_SET_PDEATHSIG`, which tells supervisors (and the zygote) that
//! the host died, fires when that thread exits, not the process: forking from a caller's
//! thread (e.g. a short-lived pool thread) would tear down running programs when that thread
//! retires. This thread only ends with the host.

use std::io;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Mutex, PoisonError};
use std::thread;

type Job = Box<dyn FnOnce() + Send>;

static ANCHOR: Mutex<Option<Sender<Job>>> = Mutex::new(None);

/// Runs `job` on the anchor thread; its result arrives on the returned channel.
pub(super) fn submit_to_anchor_thread<R: Send + 'static>(
    job: impl FnOnce() -> R + Send + 'static,
) -> io::Result<Receiver<R>> {
    let (reply_tx, reply_rx) = mpsc::sync_channel(1);
    let wrapped: Job = Box::new(move || {
        // The caller may have given up waiting; nothing to do then.
        let _ = reply_tx.send(job());
    });
    anchor()?
        .send(wrapped)
        .map_err(|_| io::Error::other("process anchor thread is gone"))?;
    Ok(reply_rx)
}

/// The result of a job run on the anchor thread (see [`submit_to_anchor_thread`]).
pub(super) fn anchor_result<R>(reply: &Receiver<R>) -> io::Result<R> {
    reply
        .recv()
        .map_err(|_| io::Error::other("process anchor thread dropped the request"))
}

fn anchor() -> io::Result<Sender<Job>> {
    let mut slot = ANCHOR.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(sender) = slot.as_ref() {
        return Ok(sender.clone());
    }
    let (sender, jobs) = mpsc::channel::<Job>();
    thread::Builder::new().name("proc-anchor".to_owned()).spawn(move || {
        for job in jobs {
            job();
        }
    })?;
    *slot = Some(sender.clone());
    Ok(sender)
}
