//! Running ripgrep through the subprocess seam: stdout read as a pipe, record by record, so a
//! search that has found enough is stopped instead of buffered to the end. Read as text: rg's
//! JSON is UTF-8 (it base64-encodes what is not), and one string crosses far cheaper than bytes.

use std::time::{Duration, Instant};

use seam_guest::ToolResult;

use crate::bindings::seam::subprocess::subprocess;
use crate::bindings::seam::subprocess::types::{Collect, Input, Outcome, Output, SpawnSpec, Stream};
use crate::bindings::seam::tool::context;
use crate::config::Config;

const READ_CHUNK_BYTES: u32 = 256 * 1024;
/// How long one pipe read waits before the deadline and cancellation are checked again.
const POLL_MS: u32 = 100;
/// Stderr kept for error messages.
const STDERR_BYTES: u64 = 16 * 1024;
const GRACE_MS: u32 = 200;

/// Whether the consumer of records wants more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    More,
    Enough,
}

pub struct Finished {
    pub outcome: Outcome,
    /// The consumer said enough: the process was stopped on purpose.
    pub stopped: bool,
    pub timed_out: bool,
    pub cancelled: bool,
    pub stderr: String,
}

/// Run `rg` with `args` in `cwd`, handing every `separator`-terminated record of its stdout to
/// `take` until it says enough or the output ends.
pub fn rg(
    args: Vec<String>,
    cwd: &str,
    separator: u8,
    config: &Config,
    mut take: impl FnMut(&str) -> Result<Flow, String>,
) -> Result<Finished, ToolResult> {
    let program = subprocess::resolve_executable(&config.rg, &[]).map_err(|e| ToolResult::error(e.code, e.message))?;
    let spec = SpawnSpec {
        argv: std::iter::once(program).chain(args).collect(),
        cwd: cwd.to_owned(),
        env: Vec::new(),
        stdin: Input::Null,
        stdout: Output::Pipe,
        stderr: Output::Collect(Collect {
            tail_bytes: STDERR_BYTES,
            head_bytes: 0,
            spill: None,
        }),
        grace_ms: GRACE_MS,
        private_tmp: false,
    };
    let process = subprocess::spawn(&spec).map_err(|e| ToolResult::error(e.code, e.message))?;
    let deadline = Instant::now() + Duration::from_millis(u64::from(config.timeout_ms));
    let (mut stopped, mut timed_out, mut cancelled) = (false, false, false);
    // Text of a record the last read cut off. Records are cut at an ASCII separator, so they
    // stay whole characters and are parsed as text without checking them again.
    let mut pending = String::new();
    loop {
        let read = process
            .read_pipe_text(Stream::Stdout, READ_CHUNK_BYTES, POLL_MS)
            .map_err(|e| ToolResult::error(e.code, e.message))?;
        let mut chunk = if pending.is_empty() {
            read.text
        } else {
            pending.push_str(&read.text);
            std::mem::take(&mut pending)
        };
        if read.eof && !chunk.is_empty() && !chunk.ends_with(char::from(separator)) {
            chunk.push(char::from(separator));
        }
        let mut consumed = 0;
        for end in memchr::memchr_iter(separator, chunk.as_bytes()) {
            let record = &chunk[consumed..end];
            consumed = end + 1;
            if take(record).map_err(|e| ToolResult::error("SEARCH_FAILED", e))? == Flow::Enough {
                stopped = true;
                break;
            }
        }
        chunk.drain(..consumed);
        pending = chunk;
        if stopped || read.eof {
            break;
        }
        if Instant::now() > deadline {
            timed_out = true;
            break;
        }
        if context::cancelled() {
            cancelled = true;
            break;
        }
    }
    let outcome = if stopped || timed_out || cancelled {
        process.terminate()
    } else {
        process.wait(None).unwrap_or_else(|| process.terminate())
    };
    let stderr = process
        .read_from(Stream::Stderr, 0, STDERR_BYTES as u32)
        .map(|chunk| String::from_utf8_lossy(&chunk.data).trim().to_owned())
        .unwrap_or_default();
    Ok(Finished {
        outcome,
        stopped,
        timed_out,
        cancelled,
        stderr,
    })
}
