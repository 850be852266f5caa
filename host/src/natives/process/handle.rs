//! A handle on one spawned program and its process tree.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use nix::sys::signal::Signal;

use super::collect::{Chunk, CollectBuffer, CollectedText, TextChunk};
use super::error::ProcessError;
use super::outcome::Outcome;
use super::pipe_reader::{PipeRead, PipeReader, PipeText};
use super::spec::Stream;
use super::stdin::StdinPipe;
use super::watcher::ExitLink;

/// A running or finished program. Dropping the last handle of a running one terminates its
/// tree in the background.
pub struct Process {
    pub(super) id: u64,
    pub(super) pid: u32,
    pub(super) exit: Arc<ExitLink>,
    pub(super) stdin: StdinPipe,
    pub(super) stdout: OutputEnd,
    pub(super) stderr: OutputEnd,
}

/// The host's end of one output stream.
pub(super) enum OutputEnd {
    Collected(Arc<CollectBuffer>),
    Piped(PipeReader),
    /// /dev/null, inherited or merged: nothing for the host to read.
    Elsewhere,
}

impl Process {
    /// The table id: unique per [`ProcessTable`](super::ProcessTable), never reused.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The OS pid of the program itself (not of its supervisor).
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Writes to a `Pipe` stdin; blocks while the pipe is full.
    pub fn write_stdin(&self, data: &[u8]) -> Result<(), ProcessError> {
        self.stdin.write(data)
    }

    /// Writes all of `data` to a `Pipe` stdin if it fits now; false (nothing written) if the
    /// pipe has no room for it, is closed, or is not a pipe.
    pub fn try_write_stdin(&self, data: &[u8]) -> bool {
        self.stdin.try_write(data)
    }

    /// Closes a `Pipe` stdin so the program sees end-of-file. Idempotent.
    pub fn close_stdin(&self) {
        self.stdin.close();
    }

    /// Reads a collected stream from offset `from`; see [`Chunk`].
    pub fn read_from(&self, stream: Stream, from: u64, max: usize) -> Result<Chunk, ProcessError> {
        Ok(self.collected(stream)?.read_from(from, max))
    }

    /// Reads a collected stream from offset `from` as text; see [`TextChunk`].
    pub fn read_text_from(&self, stream: Stream, from: u64, max: usize) -> Result<TextChunk, ProcessError> {
        Ok(self.collected(stream)?.read_text_from(from, max))
    }

    /// A collected stream as text: its head and tail window joined (see
    /// [`Bounded`](super::Bounded)).
    pub fn collected_text(&self, stream: Stream) -> Result<CollectedText, ProcessError> {
        Ok(self.collected(stream)?.text())
    }

    /// The first `head_bytes` of a collected stream (empty for other streams).
    pub fn head(&self, stream: Stream) -> Vec<u8> {
        self.collected(stream).map(CollectBuffer::head).unwrap_or_default()
    }

    /// Bytes the host has received so far on a collected or piped stream (0 for others).
    pub fn total_bytes(&self, stream: Stream) -> u64 {
        match self.output(stream) {
            OutputEnd::Collected(collected) => collected.total_bytes(),
            OutputEnd::Piped(piped) => piped.total_bytes(),
            OutputEnd::Elsewhere => 0,
        }
    }

    /// The spill file of a collected stream, if it spills.
    pub fn spill_path(&self, stream: Stream) -> Option<PathBuf> {
        let collected = self.collected(stream).ok()?;
        collected.spill_path().map(PathBuf::from)
    }

    /// Reads a piped stream, waiting at most `timeout` for data.
    pub fn read_pipe(&self, stream: Stream, max: usize, timeout: Duration) -> Result<PipeRead, ProcessError> {
        match self.output(stream) {
            OutputEnd::Piped(piped) => piped.read(max, timeout),
            _ => Err(ProcessError::StreamNotPiped(stream)),
        }
    }

    /// Reads a piped stream as text (see [`PipeText`]), waiting at most `timeout` for data.
    pub fn read_pipe_text(&self, stream: Stream, max: usize, timeout: Duration) -> Result<PipeText, ProcessError> {
        match self.output(stream) {
            OutputEnd::Piped(piped) => piped.read_text(max, timeout),
            _ => Err(ProcessError::StreamNotPiped(stream)),
        }
    }

    /// Waits for the whole tree to be gone and every collected stream to be fully read.
    /// `None` timeout waits forever; returns `None` if still running at the timeout.
    pub fn wait(&self, timeout: Option<Duration>) -> Option<Outcome> {
        self.exit.wait(timeout)
    }

    /// Terminates the tree (SIGTERM, then SIGKILL after the grace) and waits for the outcome.
    /// On a finished process it just returns the outcome.
    pub fn terminate(&self) -> Outcome {
        if let Some(outcome) = self.exit.outcome() {
            return outcome;
        }
        self.exit.signal_supervisor(Signal::SIGTERM);
        self.exit.wait(None).unwrap_or_else(Outcome::unknown)
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.exit.outcome()
    }

    fn output(&self, stream: Stream) -> &OutputEnd {
        match stream {
            Stream::Stdout => &self.stdout,
            Stream::Stderr => &self.stderr,
        }
    }

    fn collected(&self, stream: Stream) -> Result<&CollectBuffer, ProcessError> {
        match self.output(stream) {
            OutputEnd::Collected(collected) => Ok(collected),
            _ => Err(ProcessError::StreamNotCollected(stream)),
        }
    }
}

impl Drop for Process {
    /// The supervisor runs the grace period on its own and the watcher thread reaps it, so the
    /// dropping thread never blocks here.
    fn drop(&mut self) {
        if self.exit.outcome().is_none() {
            self.exit.signal_supervisor(Signal::SIGTERM);
        }
    }
}
