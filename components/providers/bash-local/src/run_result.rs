//! The result of a command that ended: how and when it ended, and what it wrote.

use std::time::Instant;

use crate::bindings::exports::seam::shell::shell::{Output, RunResult};
use crate::bindings::seam::subprocess::types::Outcome;

/// Why the command is no longer running.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// It ended by itself (any exit code or signal).
    Finished,
    /// It ran past its timeout and was terminated.
    TimedOut,
    /// A caller terminated it.
    Aborted,
}

/// The facts known the moment a command ended, before its output is read.
pub struct Ended {
    outcome: Outcome,
    cause: Cause,
    duration_ms: u64,
}

impl Ended {
    pub fn now(outcome: Outcome, cause: Cause, started: Instant) -> Self {
        let duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        Self {
            outcome,
            cause,
            duration_ms,
        }
    }

    pub fn with_output(self, output: Output) -> RunResult {
        RunResult {
            exit_code: self.outcome.exit_code,
            signal: self.outcome.signal,
            timed_out: self.cause == Cause::TimedOut,
            aborted: self.cause == Cause::Aborted,
            // A confining executor settles denials afterwards, with its runner's own signatures.
            denied: false,
            output,
            duration_ms: self.duration_ms,
            left_running: self.outcome.left_running,
        }
    }
}
