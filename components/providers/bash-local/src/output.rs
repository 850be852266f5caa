//! The combined output of a command that ended, read back from the subprocess collector.

use seam_guest::output::Retained;

use crate::bindings::exports::seam::shell::shell::{Error, Output};
use crate::bindings::seam::subprocess::subprocess::Process;
use crate::bindings::seam::subprocess::types::{Chunk, Stream};
use crate::errors;

const READ_CHUNK_BYTES: u32 = 256 * 1024;

/// Head, tail and spill file of stdout (stderr is merged into it).
pub fn read(process: &Process) -> Result<Output, Error> {
    // Reading from offset 0 starts at the retained window, so its start is where the tail begins.
    let first = read_chunk(process, 0)?;
    let mut tail_start = first.start;
    let mut tail = first.data;
    let mut spill_path = first.spill_path;
    let mut spilled_bytes = first.spilled_bytes;
    let (mut next, mut eof) = (first.next, first.eof);

    while !eof {
        let chunk = read_chunk(process, next)?;
        if chunk.next == next {
            break;
        }
        if chunk.start != next {
            // The window slid between reads: keep only the contiguous part.
            tail.clear();
            tail_start = chunk.start;
        }
        tail.extend_from_slice(&chunk.data);
        spill_path = spill_path.or(chunk.spill_path);
        spilled_bytes = chunk.spilled_bytes;
        (next, eof) = (chunk.next, chunk.eof);
    }

    let head = if tail_start > 0 {
        process.head(Stream::Stdout).map_err(errors::from_subprocess)?
    } else {
        Vec::new()
    };
    let bounded = Retained { head, tail_start, tail }.into_bounded();
    Ok(Output {
        head: bounded.head,
        tail: bounded.tail,
        total_bytes: bounded.total_bytes,
        dropped_bytes: bounded.dropped_bytes,
        spilled_bytes,
        spill_path,
        replaced: bounded.replaced,
    })
}

/// An output with nothing in it, for results whose output could not be read.
pub fn empty() -> Output {
    Output {
        head: String::new(),
        tail: String::new(),
        total_bytes: 0,
        dropped_bytes: 0,
        spill_path: None,
        spilled_bytes: 0,
        replaced: false,
    }
}

fn read_chunk(process: &Process, from: u64) -> Result<Chunk, Error> {
    process
        .read_from(Stream::Stdout, from, READ_CHUNK_BYTES)
        .map_err(errors::from_subprocess)
}
