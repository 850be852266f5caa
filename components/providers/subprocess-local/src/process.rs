//! The seam's `process` resource: one host child, one to one.

use crate::bindings::exports::seam::subprocess::subprocess::GuestProcess;
use crate::bindings::seam::host::process as host;
use crate::bindings::seam::subprocess::types::{
    Chunk, CollectedText, Error, Farewell, Outcome, PipeRead, PipeText, Stream, TextChunk,
};
use crate::errors;

/// Dropping it drops the host child, which terminates the tree unless it was detached.
pub struct LocalProcess {
    child: host::Child,
}

impl LocalProcess {
    pub fn new(child: host::Child) -> Self {
        Self { child }
    }
}

impl GuestProcess for LocalProcess {
    fn id(&self) -> u64 {
        self.child.id()
    }

    fn pid(&self) -> u32 {
        self.child.pid()
    }

    fn write_stdin(&self, data: Vec<u8>) -> Result<(), Error> {
        self.child.write_stdin(&data).map_err(errors::from_host)
    }

    fn write_stdin_text(&self, text: String) -> Result<(), Error> {
        self.child.write_stdin(text.as_bytes()).map_err(errors::from_host)
    }

    fn close_stdin(&self) {
        self.child.close_stdin();
    }

    fn read_from(&self, which: Stream, from_byte: u64, max_bytes: u32) -> Result<Chunk, Error> {
        let chunk = self.child.read_from(which.into(), from_byte, max_bytes);
        chunk.map(Chunk::from).map_err(errors::from_host)
    }

    fn read_text_from(&self, which: Stream, from_byte: u64, max_bytes: u32) -> Result<TextChunk, Error> {
        let chunk = self.child.read_text_from(which.into(), from_byte, max_bytes);
        chunk.map(TextChunk::from).map_err(errors::from_host)
    }

    fn head(&self, which: Stream) -> Result<Vec<u8>, Error> {
        self.child.head(which.into()).map_err(errors::from_host)
    }

    fn collected_text(&self, which: Stream) -> Result<CollectedText, Error> {
        let text = self.child.collected_text(which.into());
        text.map(CollectedText::from).map_err(errors::from_host)
    }

    fn read_pipe(&self, which: Stream, max_bytes: u32, timeout_ms: u32) -> Result<PipeRead, Error> {
        let read = self.child.read_pipe(which.into(), max_bytes, timeout_ms);
        read.map(PipeRead::from).map_err(errors::from_host)
    }

    fn read_pipe_text(&self, which: Stream, max_bytes: u32, timeout_ms: u32) -> Result<PipeText, Error> {
        let read = self.child.read_pipe_text(which.into(), max_bytes, timeout_ms);
        read.map(PipeText::from).map_err(errors::from_host)
    }

    fn wait(&self, timeout_ms: Option<u32>) -> Option<Outcome> {
        self.child.wait(timeout_ms).map(Outcome::from)
    }

    fn terminate(&self) -> Outcome {
        self.child.terminate().into()
    }

    fn detach(&self) {
        self.child.detach();
    }

    fn detach_until_idle(&self, idle_ms: u32, farewell: Option<Farewell>) {
        self.child.detach_until_idle(idle_ms, farewell.map(Into::into).as_ref());
    }
}
