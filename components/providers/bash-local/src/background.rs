//! The shell seam's `background` resource: a command with no timeout over a subprocess process.

use std::time::Instant;

use crate::bindings::exports::seam::shell::shell::{Error, GuestBackground, OutputChunk, RunResult};
use crate::bindings::seam::subprocess::subprocess::Process;
use crate::bindings::seam::subprocess::types::{Outcome, Stream};
use crate::errors;
use crate::output;
use crate::run_result::{Cause, Ended};

/// Dropping it drops the process, which terminates the tree unless it was detached.
pub struct BashBackground {
    process: Process,
    /// When this handle was made: durations of an attached command count from the attach.
    started: Instant,
}

impl BashBackground {
    pub fn new(process: Process) -> Self {
        Self {
            process,
            started: Instant::now(),
        }
    }

    /// These methods cannot return an error, so an output that cannot be read is reported
    /// empty; it can still be read with `read-from`.
    fn result(&self, outcome: Outcome, cause: Cause) -> RunResult {
        let ended = Ended::now(outcome, cause, self.started);
        ended.with_output(output::read(&self.process).unwrap_or_else(|_| output::empty()))
    }
}

impl GuestBackground for BashBackground {
    fn id(&self) -> u64 {
        self.process.id()
    }

    /// The command's stdout, with stderr merged into it.
    fn read_from(&self, from_byte: u64, max_bytes: u32) -> Result<OutputChunk, Error> {
        let chunk = self.process.read_text_from(Stream::Stdout, from_byte, max_bytes);
        let chunk = chunk.map_err(errors::from_subprocess)?;
        Ok(OutputChunk {
            text: chunk.text,
            start: chunk.start,
            next: chunk.next,
            lossy: chunk.lossy,
            spill_path: chunk.spill_path,
            spilled_bytes: chunk.spilled_bytes,
            eof: chunk.eof,
            replaced: chunk.replaced,
        })
    }

    fn poll(&self) -> Option<RunResult> {
        self.wait(Some(0))
    }

    fn wait(&self, timeout_ms: Option<u32>) -> Option<RunResult> {
        let outcome = self.process.wait(timeout_ms)?;
        Some(self.result(outcome, Cause::Finished))
    }

    fn terminate(&self) -> RunResult {
        // Terminating a command that already ended reports how it ended, not an abort.
        match self.process.wait(Some(0)) {
            Some(outcome) => self.result(outcome, Cause::Finished),
            None => self.result(self.process.terminate(), Cause::Aborted),
        }
    }

    fn detach(&self) {
        self.process.detach();
    }
}
