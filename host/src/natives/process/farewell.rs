//! What a process that idles out is told before its tree is ended: bytes written to its stdin
//! (a language server's `shutdown` and `exit`), then end-of-file, then a bounded wait for it to
//! exit on its own. Whatever is left after the wait is terminated as any dropped process is.

use std::sync::Arc;
use std::time::Duration;

use super::handle::Process;
use super::workers;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Farewell {
    pub stdin: Vec<u8>,
    pub wait: Duration,
}

impl Farewell {
    /// Say it to `process`, the last handle to it, on a worker thread (the wait must not hold
    /// up the idle reaper), then let the handle go.
    pub(super) fn say(self, process: Arc<Process>) {
        let job = move || {
            // Never blocks: a process that stopped reading its stdin gets no farewell.
            if process.try_write_stdin(&self.stdin) {
                process.close_stdin();
                process.wait(Some(self.wait));
            }
            drop(process);
        };
        if let Err(err) = workers::run(job) {
            // Without a thread, the process is dropped (terminated) with the failed job.
            tracing::warn!(error = %err, "cannot say an idle process's farewell");
        }
    }
}
