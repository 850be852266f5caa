//! Piped output streams, read on demand by the caller with a timeout.

use std::fs::File;
use std::io::{self, Read};
use std::os::fd::AsFd;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};

use super::error::ProcessError;

/// Largest single read, whatever `max` the caller passes (a pipe rarely holds more anyway).
const MAX_READ: usize = 1024 * 1024;

/// What [`Process::read_pipe`](super::Process::read_pipe) returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PipeRead {
    pub data: Vec<u8>,
    /// The write side is closed and everything was read.
    pub eof: bool,
}

pub(super) struct PipeReader {
    state: Mutex<PipeState>,
}

struct PipeState {
    source: File,
    ended: bool,
    total: u64,
}

impl PipeReader {
    pub(super) fn new(source: File) -> Self {
        Self {
            state: Mutex::new(PipeState {
                source,
                ended: false,
                total: 0,
            }),
        }
    }

    pub(super) fn total_bytes(&self) -> u64 {
        self.state.lock().unwrap_or_else(PoisonError::into_inner).total
    }

    /// Waits up to `timeout` for data, then returns whatever one read yields (possibly nothing).
    pub(super) fn read(&self, max: usize, timeout: Duration) -> Result<PipeRead, ProcessError> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if state.ended {
            return Ok(PipeRead {
                data: Vec::new(),
                eof: true,
            });
        }
        if max == 0 || !wait_readable(&state.source, timeout)? {
            return Ok(PipeRead {
                data: Vec::new(),
                eof: false,
            });
        }
        let mut data = vec![0u8; max.min(MAX_READ)];
        let read = loop {
            match state.source.read(&mut data) {
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                other => break other.map_err(ProcessError::io("reading a piped stream"))?,
            }
        };
        data.truncate(read);
        state.total += read as u64;
        state.ended = read == 0;
        Ok(PipeRead { data, eof: state.ended })
    }
}

/// True once a read will not block: data is ready or the write side is closed.
fn wait_readable(source: &File, timeout: Duration) -> Result<bool, ProcessError> {
    let deadline = Instant::now().checked_add(timeout);
    loop {
        let remaining = deadline.map(|deadline| deadline.saturating_duration_since(Instant::now()));
        let mut fds = [PollFd::new(source.as_fd(), PollFlags::POLLIN)];
        match poll(&mut fds, poll_timeout(remaining)) {
            Ok(ready) => return Ok(ready > 0),
            Err(Errno::EINTR) => {}
            Err(errno) => return Err(ProcessError::io("polling a piped stream")(errno.into())),
        }
    }
}

/// Milliseconds rounded up, so a short timeout still waits rather than returning at once.
fn poll_timeout(remaining: Option<Duration>) -> PollTimeout {
    let Some(remaining) = remaining else {
        return PollTimeout::NONE;
    };
    PollTimeout::try_from(remaining.as_nanos().div_ceil(1_000_000)).unwrap_or(PollTimeout::MAX)
}
