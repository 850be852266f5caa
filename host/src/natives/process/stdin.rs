//! The program's stdin when the host writes it: on demand (`Pipe`) or all at once (`Bytes`).

use std::fs::File;
use std::io::{self, Write};
use std::sync::{Mutex, PoisonError};

use super::error::ProcessError;
use super::workers;

/// A stdin pipe written through [`Process::write_stdin`](super::Process::write_stdin).
pub(super) struct StdinPipe {
    sink: Mutex<Option<File>>,
}

impl StdinPipe {
    /// `None` for stdin that is not host-written: writes then fail with `PROCESS_STDIN_CLOSED`.
    pub(super) fn new(sink: Option<File>) -> Self {
        Self { sink: Mutex::new(sink) }
    }

    /// Blocks while the pipe is full, like any pipe writer.
    pub(super) fn write(&self, data: &[u8]) -> Result<(), ProcessError> {
        let mut sink = self.sink.lock().unwrap_or_else(PoisonError::into_inner);
        let file = sink.as_mut().ok_or(ProcessError::StdinClosed)?;
        file.write_all(data).map_err(|err| match err.kind() {
            // The program closed its stdin (or exited).
            io::ErrorKind::BrokenPipe => ProcessError::StdinClosed,
            _ => ProcessError::Io {
                context: "writing to stdin",
                source: err,
            },
        })
    }

    /// `write` without blocking, for data of at most `PIPE_BUF` bytes, which a pipe takes whole or
    /// not at all. The pipe stays non-blocking: this is for a last message before closing it.
    pub(super) fn try_write(&self, data: &[u8]) -> bool {
        let mut sink = self.sink.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(file) = sink.as_mut() else {
            return false;
        };
        let flags = nix::fcntl::OFlag::O_WRONLY | nix::fcntl::OFlag::O_NONBLOCK;
        if nix::fcntl::fcntl(&*file, nix::fcntl::FcntlArg::F_SETFL(flags)).is_err() {
            return false;
        }
        data.len() <= nix::libc::PIPE_BUF && file.write(data).is_ok_and(|n| n == data.len())
    }

    /// Closes the pipe so the program sees end-of-file. Idempotent.
    pub(super) fn close(&self) {
        self.sink.lock().unwrap_or_else(PoisonError::into_inner).take();
    }
}

/// Writes `bytes` to the program's stdin from a worker thread, then closes it.
pub(super) fn feed_in_background(mut sink: File, bytes: Vec<u8>) -> io::Result<()> {
    workers::run(move || {
        if let Err(err) = sink.write_all(&bytes)
            && err.kind() != io::ErrorKind::BrokenPipe
        {
            tracing::warn!(error = %err, "writing stdin bytes failed");
        }
    })
}
