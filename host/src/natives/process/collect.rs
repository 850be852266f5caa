//! Collected streams: the process's watcher thread drains the pipes continuously (so the
//! program never blocks on a full pipe) into bounded memory: the head of the stream, a tail
//! window and a byte count, plus an optional spill file holding the whole stream up to a cap.
//!
//! The spill file is created only once the stream outgrows its window: until then the window
//! holds the whole stream, which then goes to the file first. Most commands print little, and
//! creating (then deleting) a private directory and file would add ~75 µs to every spawn.

use std::fs::File;
use std::io::{self, Read};
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use nix::errno::Errno;
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};

use super::bounded::{self, Bounded};
use super::spec::{CollectSpec, Stream};
use super::spill::{SpillDir, SpillWriter};
use super::tail_window::TailWindow;
use crate::natives::whole_text::{EXTRA_BYTES, text_read};

/// Size of one read from the pipe.
const READ_CHUNK: usize = 64 * 1024;

/// A slice of a collected stream, as returned by [`Process::read_from`](super::Process::read_from).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    pub data: Vec<u8>,
    /// Stream offset of `data[0]`.
    pub start: u64,
    /// Offset to ask for next.
    pub next: u64,
    /// The requested offset had slid out of the tail window: bytes before `start` were skipped.
    pub lossy: bool,
    /// Where the whole stream can be read instead, when `lossy` and the stream is spilled.
    pub spill_path: Option<PathBuf>,
    /// How many of the stream's first bytes are in its spill file so far (0 without one): all
    /// of them, unless the stream outgrew the cap or a write to the file failed.
    pub spilled_bytes: u64,
    /// The stream has ended and everything up to `next` was returned.
    pub eof: bool,
}

/// A slice of a collected stream as text, as [`Process::read_text_from`](super::Process::read_text_from)
/// returns it: whole characters only (see [`text_read`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextChunk {
    pub text: String,
    /// Stream offset of the first byte `text` stands for.
    pub start: u64,
    /// Offset to ask for next.
    pub next: u64,
    pub lossy: bool,
    pub spill_path: Option<PathBuf>,
    pub spilled_bytes: u64,
    pub eof: bool,
    /// Bytes that were not UTF-8 were replaced with U+FFFD; otherwise `text` is exactly the
    /// bytes from `start` to `next`.
    pub replaced: bool,
}

impl TextChunk {
    /// The whole characters among the first `limit` bytes of `chunk`, a read of `limit` plus
    /// [`EXTRA_BYTES`].
    fn of(chunk: Chunk, limit: usize) -> Self {
        let read = text_read(&chunk.data, chunk.start, limit, chunk.eof);
        Self {
            text: read.text,
            start: read.start,
            next: read.next,
            lossy: chunk.lossy,
            spill_path: chunk.spill_path,
            spilled_bytes: chunk.spilled_bytes,
            eof: read.eof,
            replaced: read.replaced,
        }
    }
}

/// A collected stream as text, as [`Process::collected_text`](super::Process::collected_text)
/// returns it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollectedText {
    /// The head and the tail window, joined where they overlap.
    pub text: Bounded,
    /// Where the whole stream is, once it outgrew the window.
    pub spill_path: Option<PathBuf>,
    /// How many of the stream's first bytes its spill file holds so far (0 without one).
    pub spilled_bytes: u64,
}

pub(super) struct CollectBuffer {
    state: Mutex<CollectState>,
    /// Set once the stream spills, before any byte that is not in the window.
    spill_path: OnceLock<PathBuf>,
}

struct CollectState {
    head: Vec<u8>,
    head_limit: usize,
    tail: TailWindow,
    total: u64,
    /// Bytes written to the spill file.
    spilled: u64,
    ended: bool,
}

impl CollectBuffer {
    pub(super) fn new(spec: &CollectSpec) -> Self {
        Self {
            state: Mutex::new(CollectState {
                head: Vec::new(),
                head_limit: spec.head_bytes,
                tail: TailWindow::new(spec.tail_bytes),
                total: 0,
                spilled: 0,
                ended: false,
            }),
            spill_path: OnceLock::new(),
        }
    }

    pub(super) fn head(&self) -> Vec<u8> {
        self.lock().head.clone()
    }

    /// Whether appending `more` bytes would push bytes out of the window; if not, `None`.
    /// Otherwise the whole stream so far, which the window still holds.
    fn whole_stream_before_overflow(&self, more: usize) -> Option<Vec<u8>> {
        let state = self.lock();
        let fits = state.tail.len().saturating_add(more) <= state.tail.capacity();
        (!fits && state.total == state.tail.len() as u64).then(|| state.tail.copy_out(0, usize::MAX))
    }

    pub(super) fn total_bytes(&self) -> u64 {
        self.lock().total
    }

    pub(super) fn spill_path(&self) -> Option<&Path> {
        self.spill_path.get().map(PathBuf::as_path)
    }

    /// Bytes from `from` (at most `max`), or from the window start if `from` slid out of it.
    pub(super) fn read_from(&self, from: u64, max: usize) -> Chunk {
        let state = self.lock();
        let window_start = state.total - state.tail.len() as u64;
        let lossy = from < window_start;
        let start = from.clamp(window_start, state.total);
        // Within the window, so the offset fits in usize.
        let offset = usize::try_from(start - window_start).unwrap_or(usize::MAX);
        let data = state.tail.copy_out(offset, max);
        let next = start + data.len() as u64;
        Chunk {
            eof: state.ended && next == state.total,
            spill_path: if lossy { self.spill_path.get().cloned() } else { None },
            spilled_bytes: state.spilled,
            data,
            start,
            next,
            lossy,
        }
    }

    /// Text from `from` (at most `max` bytes of it, in whole characters), or from the window
    /// start if `from` slid out of it.
    pub(super) fn read_text_from(&self, from: u64, max: usize) -> TextChunk {
        TextChunk::of(self.read_from(from, max.saturating_add(EXTRA_BYTES)), max)
    }

    /// What the buffer holds, as bounded text.
    pub(super) fn text(&self) -> CollectedText {
        let state = self.lock();
        let tail_start = state.total - state.tail.len() as u64;
        let tail = state.tail.copy_out(0, usize::MAX);
        CollectedText {
            text: bounded::bound(&state.head, tail_start, &tail),
            spill_path: self.spill_path.get().cloned(),
            spilled_bytes: state.spilled,
        }
    }

    /// `data` appended; the spill file now holds `spilled` bytes.
    fn append(&self, data: &[u8], spilled: u64) {
        let mut state = self.lock();
        state.spilled = spilled;
        let head_room = state.head_limit.saturating_sub(state.head.len());
        let head_part = &data[..head_room.min(data.len())];
        state.head.extend_from_slice(head_part);
        state.tail.push(data);
        state.total += data.len() as u64;
    }

    fn finish(&self) {
        self.lock().ended = true;
    }

    fn lock(&self) -> MutexGuard<'_, CollectState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Where a collected stream's spill stands.
enum Spill {
    Off,
    /// Not needed yet: the stream still fits in its window.
    Pending {
        dir: Arc<SpillDir>,
        stream: Stream,
        limit: u64,
    },
    On(SpillWriter),
}

/// The reading side of one collected stream.
pub(super) struct Drain {
    source: File,
    buffer: Arc<CollectBuffer>,
    spill: Spill,
}

impl Drain {
    /// `spill`: the process's spill directory and the cap, if the stream spills.
    pub(super) fn new(
        stream: Stream,
        source: File,
        buffer: Arc<CollectBuffer>,
        spill: Option<(Arc<SpillDir>, u64)>,
    ) -> Self {
        let spill = match spill {
            Some((dir, limit)) => Spill::Pending { dir, stream, limit },
            None => Spill::Off,
        };
        Self { source, buffer, spill }
    }

    /// One read; false once the stream has ended (the buffer is then marked finished).
    fn read_once(&mut self, chunk: &mut [u8]) -> bool {
        match self.source.read(chunk) {
            Ok(0) => {}
            Ok(n) => {
                let data = &chunk[..n];
                // Spill first: whoever sees bytes in memory can also find them in the file.
                self.spill(data);
                let spilled = match &self.spill {
                    Spill::On(writer) => writer.written(),
                    Spill::Off | Spill::Pending { .. } => 0,
                };
                self.buffer.append(data, spilled);
                return true;
            }
            Err(err) if err.kind() == io::ErrorKind::Interrupted => return true,
            Err(err) => {
                tracing::warn!(error = %err, "reading process output failed; stream ends here");
            }
        }
        self.buffer.finish();
        false
    }

    fn spill(&mut self, data: &[u8]) {
        if let Spill::Pending { dir, stream, limit } = &self.spill
            && let Some(so_far) = self.buffer.whole_stream_before_overflow(data.len())
        {
            self.spill = match dir.create_file(*stream, *limit) {
                Ok(mut writer) => {
                    writer.write(&so_far);
                    // Published before the appends that make reads lossy.
                    let _ = self.buffer.spill_path.set(writer.path().to_path_buf());
                    Spill::On(writer)
                }
                Err(err) => {
                    tracing::warn!(error = %err, "creating a spill file failed; the stream is not spilled");
                    Spill::Off
                }
            };
        }
        if let Spill::On(writer) = &mut self.spill {
            writer.write(data);
        }
    }
}

/// Reads every stream to its end, whichever produces output first.
pub(super) fn drain_all(mut drains: Vec<Drain>) {
    let mut chunk = vec![0u8; READ_CHUNK];
    if let [only] = drains.as_mut_slice() {
        while only.read_once(&mut chunk) {}
        return;
    }
    while !drains.is_empty() {
        let ready: Vec<bool> = {
            let mut fds: Vec<PollFd<'_>> = drains
                .iter()
                .map(|drain| PollFd::new(drain.source.as_fd(), PollFlags::POLLIN))
                .collect();
            match poll(&mut fds, PollTimeout::NONE) {
                // Any event (data, hang-up, error) means a read will not block.
                Ok(_) => fds
                    .iter()
                    .map(|fd| fd.revents().is_none_or(|events| !events.is_empty()))
                    .collect(),
                Err(Errno::EINTR) => vec![false; fds.len()],
                Err(errno) => {
                    tracing::warn!(error = %errno, "polling process output failed; reading in turn");
                    vec![true; fds.len()]
                }
            }
        };
        let mut ready = ready.into_iter();
        drains.retain_mut(|drain| !ready.next().unwrap_or(false) || drain.read_once(&mut chunk));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffer(head_bytes: usize, tail_bytes: usize) -> CollectBuffer {
        let spec = CollectSpec {
            tail_bytes,
            head_bytes,
            spill: None,
        };
        let buffer = CollectBuffer::new(&spec);
        let _ = buffer.spill_path.set(PathBuf::from("/spill"));
        buffer
    }

    #[test]
    fn head_and_tail_bound_memory() {
        let collected = buffer(4, 6);
        collected.append(b"0123456789", 0);
        collected.append(b"abc", 0);
        assert_eq!(collected.head(), b"0123");
        assert_eq!(collected.total_bytes(), 13);
        let chunk = collected.read_from(7, 100);
        assert_eq!(
            (chunk.data.as_slice(), chunk.start, chunk.next),
            (&b"789abc"[..], 7, 13)
        );
        assert!(!chunk.lossy && chunk.spill_path.is_none() && !chunk.eof);
    }

    #[test]
    fn offsets_before_the_window_are_lossy() {
        let collected = buffer(0, 4);
        collected.append(b"0123456789", 0);
        collected.finish();
        let chunk = collected.read_from(2, 3);
        assert_eq!((chunk.data.as_slice(), chunk.start, chunk.next), (&b"678"[..], 6, 9));
        assert!(chunk.lossy && !chunk.eof);
        assert_eq!(chunk.spill_path.as_deref(), Some(Path::new("/spill")));
        let rest = collected.read_from(chunk.next, 100);
        assert_eq!(rest.data, b"9");
        assert!(rest.eof && !rest.lossy);
    }

    #[test]
    fn offsets_past_the_end_read_nothing() {
        let collected = buffer(0, 4);
        collected.append(b"ab", 0);
        let chunk = collected.read_from(10, 4);
        assert_eq!((chunk.start, chunk.next, chunk.data.len()), (2, 2, 0));
    }
}
