//! Piped output streams, read on demand by the caller with a timeout.

use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsFd, AsRawFd};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};

use super::error::ProcessError;
use crate::natives::whole_text::without_cut_end;

/// Largest single read, whatever `max` the caller passes (a pipe rarely holds more anyway).
const MAX_READ: usize = 1024 * 1024;
/// Smallest read buffer: what a read sees when the pipe cannot say what it holds.
const MIN_READ: usize = 4096;

/// What [`Process::read_pipe`](super::Process::read_pipe) returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PipeRead {
    pub data: Vec<u8>,
    /// The write side is closed and everything was read.
    pub eof: bool,
}

/// What [`Process::read_pipe_text`](super::Process::read_pipe_text) returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PipeText {
    /// Whole characters only: a character cut by the read waits for the next one.
    pub text: String,
    /// The write side is closed and everything was read.
    pub eof: bool,
    /// Bytes that were not UTF-8 were replaced with U+FFFD.
    pub replaced: bool,
}

pub(super) struct PipeReader {
    state: Mutex<PipeState>,
}

struct PipeState {
    source: File,
    ended: bool,
    total: u64,
    /// The start of a character a text read cut, returned first by the next read.
    carry: Vec<u8>,
}

impl PipeReader {
    pub(super) fn new(source: File) -> Self {
        Self {
            state: Mutex::new(PipeState {
                source,
                ended: false,
                total: 0,
                carry: Vec::new(),
            }),
        }
    }

    pub(super) fn total_bytes(&self) -> u64 {
        self.state.lock().unwrap_or_else(PoisonError::into_inner).total
    }

    /// Waits up to `timeout` for data, then returns whatever one read yields (possibly nothing).
    pub(super) fn read(&self, max: usize, timeout: Duration) -> Result<PipeRead, ProcessError> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.read(max, timeout)
    }

    /// [`read`](Self::read) as text: bulk output crosses components as one string instead of a
    /// list of bytes. A character split across reads is held back until its end arrives.
    pub(super) fn read_text(&self, max: usize, timeout: Duration) -> Result<PipeText, ProcessError> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let PipeRead { mut data, eof } = state.read(max, timeout)?;
        let whole = if eof { data.len() } else { without_cut_end(&data) };
        state.carry = data.split_off(whole);
        let (text, replaced) = match String::from_utf8(data) {
            Ok(text) => (text, false),
            Err(e) => (String::from_utf8_lossy(e.as_bytes()).into_owned(), true),
        };
        Ok(PipeText { text, eof, replaced })
    }
}

impl PipeState {
    fn read(&mut self, max: usize, timeout: Duration) -> Result<PipeRead, ProcessError> {
        let mut data = std::mem::take(&mut self.carry);
        if self.ended || max <= data.len() || !wait_readable(&self.source, timeout)? {
            return Ok(PipeRead { data, eof: self.ended });
        }
        let held = data.len();
        // Sized by what the pipe holds: a buffer of `max` zeroed for every read cost more than
        // the read when a reader asks for far more than a pipe ever holds.
        let size = (max - held).min(MAX_READ).min(queued(&self.source).max(MIN_READ));
        data.resize(held + size, 0);
        let read = loop {
            match self.source.read(&mut data[held..]) {
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                other => break other.map_err(ProcessError::io("reading a piped stream"))?,
            }
        };
        data.truncate(held + read);
        self.total += read as u64;
        self.ended = read == 0;
        Ok(PipeRead { data, eof: self.ended })
    }
}

/// Bytes waiting in the pipe (FIONREAD), 0 when unknown.
fn queued(source: &File) -> usize {
    let mut queued: libc::c_int = 0;
    // SAFETY: FIONREAD stores one int through the pointer, which outlives the call.
    let asked = unsafe { libc::ioctl(source.as_raw_fd(), libc::FIONREAD, &mut queued) };
    if asked == 0 {
        usize::try_from(queued).unwrap_or(0)
    } else {
        0
    }
}

/// True once a read will not block: data is ready or the write side is closed.
pub(super) fn wait_readable(source: &File, timeout: Duration) -> Result<bool, ProcessError> {
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
