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
        if data.len() > nix::libc::PIPE_BUF {
            return false;
        }
        let mut sink = self.sink.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(file) = sink.as_mut() else {
            return false;
        };
        let flags = nix::fcntl::OFlag::O_WRONLY | nix::fcntl::OFlag::O_NONBLOCK;
        nix::fcntl::fcntl(&*file, nix::fcntl::FcntlArg::F_SETFL(flags)).is_ok()
            && file.write(data).is_ok_and(|n| n == data.len())
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

#[cfg(test)]
mod tests {
    use super::*;
    use nix::fcntl::{FcntlArg, OFlag, fcntl};
    use std::io::Read;

    fn pipe() -> (File, StdinPipe) {
        let (read, write) = nix::unistd::pipe().expect("a pipe");
        (File::from(read), StdinPipe::new(Some(File::from(write))))
    }

    fn is_non_blocking(stdin: &StdinPipe) -> bool {
        let sink = stdin.sink.lock().unwrap();
        let flags = fcntl(sink.as_ref().expect("open"), FcntlArg::F_GETFL).expect("flags");
        OFlag::from_bits_truncate(flags).contains(OFlag::O_NONBLOCK)
    }

    #[test]
    fn a_last_message_goes_whole_or_not_at_all() {
        let (mut reader, stdin) = pipe();
        let too_long = vec![b'x'; nix::libc::PIPE_BUF + 1];
        assert!(!stdin.try_write(&too_long), "more than PIPE_BUF is refused");
        assert!(!is_non_blocking(&stdin), "a refused message leaves the pipe as it was");
        assert!(stdin.try_write(b"bye"));
        stdin.close();
        let mut got = Vec::new();
        reader.read_to_end(&mut got).expect("read");
        assert_eq!(got, b"bye");
        assert!(!stdin.try_write(b"again"), "a closed pipe takes nothing");
    }
}
