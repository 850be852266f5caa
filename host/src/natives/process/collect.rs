//! Collected streams: a reader thread drains the pipe continuously (so the program never blocks
//! on a full pipe) into bounded memory: the head of the stream, a tail window and a byte count,
//! plus an optional spill file holding the whole stream up to a cap.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};

use super::spec::CollectSpec;
use super::spill::SpillWriter;
use super::tail_window::TailWindow;

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
    /// The stream has ended and everything up to `next` was returned.
    pub eof: bool,
}

pub(super) struct CollectBuffer {
    state: Mutex<CollectState>,
    spill_path: Option<PathBuf>,
}

struct CollectState {
    head: Vec<u8>,
    head_limit: usize,
    tail: TailWindow,
    total: u64,
    ended: bool,
}

impl CollectBuffer {
    pub(super) fn new(spec: &CollectSpec, spill_path: Option<PathBuf>) -> Self {
        Self {
            state: Mutex::new(CollectState {
                head: Vec::new(),
                head_limit: spec.head_bytes,
                tail: TailWindow::new(spec.tail_bytes),
                total: 0,
                ended: false,
            }),
            spill_path,
        }
    }

    pub(super) fn head(&self) -> Vec<u8> {
        self.lock().head.clone()
    }

    fn window_capacity(&self) -> u64 {
        self.lock().tail.capacity() as u64
    }

    pub(super) fn total_bytes(&self) -> u64 {
        self.lock().total
    }

    pub(super) fn spill_path(&self) -> Option<&Path> {
        self.spill_path.as_deref()
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
            spill_path: if lossy { self.spill_path.clone() } else { None },
            data,
            start,
            next,
            lossy,
        }
    }

    fn append(&self, data: &[u8]) {
        let mut state = self.lock();
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

/// Starts the reader thread for one collected stream; it ends at end-of-file.
pub(super) fn start_drain(
    source: File,
    buffer: Arc<CollectBuffer>,
    spill: Option<SpillWriter>,
) -> io::Result<JoinHandle<()>> {
    thread::Builder::new()
        .name("proc-collect".to_owned())
        .spawn(move || drain(source, &buffer, spill))
}

fn drain(mut source: File, buffer: &CollectBuffer, mut spill: Option<SpillWriter>) {
    let mut chunk = vec![0u8; READ_CHUNK];
    loop {
        match source.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                let data = &chunk[..n];
                // Spill first: whoever sees bytes in memory can also find them in the file.
                if let Some(spill) = spill.as_mut() {
                    spill.write(data);
                }
                buffer.append(data);
            }
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => {
                tracing::warn!(error = %err, "reading process output failed; stream ends here");
                break;
            }
        }
    }
    buffer.finish();
    // A stream that never outgrew its window is whole in memory: no reader can be sent to the
    // spill file, so do not leave it (and its private directory) behind.
    if let Some(spill) = spill
        && buffer.total_bytes() <= buffer.window_capacity()
    {
        spill.discard();
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
        CollectBuffer::new(&spec, Some(PathBuf::from("/spill")))
    }

    #[test]
    fn head_and_tail_bound_memory() {
        let collected = buffer(4, 6);
        collected.append(b"0123456789");
        collected.append(b"abc");
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
        collected.append(b"0123456789");
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
        collected.append(b"ab");
        let chunk = collected.read_from(10, 4);
        assert_eq!((chunk.start, chunk.next, chunk.data.len()), (2, 2, 0));
    }
}
