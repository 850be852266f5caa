//! JSON-RPC messages over the server's pipes, through the subprocess seam. Bytes read past
//! the last whole frame are handed back (`carry`) so the next lane continues mid-stream.

use crate::bindings::seam::subprocess::subprocess::Process;
use crate::bindings::seam::subprocess::types::Stream;
use crate::clock::{left_at, now_ms};
use crate::framing::{self, Decoder, FrameError};

/// Pipe reads ask for what the frame being received still lacks, within these bounds: the host
/// sizes (and zeroes) its buffer by the request, and most messages are far below a pipe's
/// 64 KiB.
const MIN_READ_BYTES: usize = 8 * 1024;
const MAX_READ_BYTES: usize = 64 * 1024;
/// How much of the server's stderr tail a failure message quotes.
const STDERR_QUOTE_BYTES: usize = 2 * 1024;

/// Why talking to the server stopped.
#[derive(Debug)]
pub enum Fault {
    /// The server exited or closed its pipes.
    Died(String),
    /// It broke the protocol (bad frame, invalid JSON).
    Broken(String),
    /// A frame over the limit.
    TooLarge(String),
    /// No answer before the deadline.
    Timeout(String),
    /// The caller cancelled the call.
    Cancelled,
    /// It answered with a JSON-RPC error (code, message).
    Answered(i64, String),
}

pub struct Transport {
    pub process: Process,
    decoder: Decoder,
    max_frame: usize,
    /// When the last read came back shorter than asked: everything that had arrived was taken.
    drained_ms: Option<u64>,
}

impl Transport {
    pub fn new(process: Process, carry: Vec<u8>, max_frame: usize) -> Self {
        Self {
            process,
            decoder: Decoder::with_carry(carry),
            max_frame,
            drained_ms: None,
        }
    }

    pub fn carry(&self) -> &[u8] {
        self.decoder.carry()
    }

    pub fn send(&self, body: &str) -> Result<(), Fault> {
        self.send_all(&[body])
    }

    /// Several message bodies in one write (one crossing instead of one per message), as text:
    /// a string crosses the seams at once, a byte list byte by byte.
    pub fn send_all(&self, bodies: &[impl AsRef<str>]) -> Result<(), Fault> {
        let mut wire = String::with_capacity(bodies.iter().map(|b| b.as_ref().len() + 32).sum());
        for body in bodies {
            framing::encode_into(&mut wire, body.as_ref());
        }
        self.process.write_stdin_text(&wire).map_err(|e| {
            Fault::Died(format!(
                "writing to the server failed: {}{}",
                e.message,
                self.stderr_tail()
            ))
        })
    }

    /// The next message's body among the bytes already read.
    pub fn buffered(&mut self) -> Result<Option<Vec<u8>>, Fault> {
        match self.decoder.next_frame(self.max_frame) {
            Ok(frame) => Ok(frame),
            Err(e @ FrameError::TooLarge { .. }) => Err(Fault::TooLarge(e.to_string())),
            Err(e) => Err(Fault::Broken(e.to_string())),
        }
    }

    /// The next message's body, or None when none arrived before `deadline_ms`.
    pub fn receive(&mut self, deadline_ms: u64) -> Result<Option<Vec<u8>>, Fault> {
        loop {
            if let Some(frame) = self.buffered()? {
                return Ok(Some(frame));
            }
            // The pipe was emptied at or after the deadline: another read could only bring what
            // arrived later (a non-blocking pump saves a crossing per call).
            if self.drained_ms.is_some_and(|at| at >= deadline_ms) {
                return Ok(None);
            }
            // Text reads cross as one string (a byte list crosses byte by byte); LSP bodies
            // are UTF-8, so the bytes are exact unless the server sent invalid UTF-8.
            let asked = self.read_size();
            let before = now_ms();
            let read = self
                .process
                .read_pipe_text(Stream::Stdout, asked, left_at(deadline_ms, before))
                .map_err(|e| Fault::Died(format!("reading from the server failed: {}", e.message)))?;
            // Up to 3 bytes of a character split by the read may be held back for the next one.
            // Emptied no earlier than the read began (one clock reading less per read).
            self.drained_ms = (read.text.len() + 3 < asked as usize).then_some(before);
            if read.replaced {
                return Err(Fault::Broken("the server sent bytes that are not UTF-8".into()));
            }
            if read.eof && read.text.is_empty() {
                return Err(Fault::Died(format!(
                    "the server closed its output{}",
                    self.stderr_tail()
                )));
            }
            if read.text.is_empty() && now_ms() >= deadline_ms {
                return Ok(None);
            }
            self.decoder.push(read.text.as_bytes());
        }
    }

    fn read_size(&self) -> u32 {
        let missing = self.decoder.missing().unwrap_or(0);
        missing.clamp(MIN_READ_BYTES, MAX_READ_BYTES) as u32
    }

    /// The end of the server's stderr, for failure messages.
    pub fn stderr_tail(&self) -> String {
        let Ok(chunk) = self.process.read_from(Stream::Stderr, 0, u32::MAX) else {
            return String::new();
        };
        let text = String::from_utf8_lossy(&chunk.data);
        let text = text.trim();
        if text.is_empty() {
            return String::new();
        }
        let start = text.len().saturating_sub(STDERR_QUOTE_BYTES);
        let start = (start..text.len()).find(|&i| text.is_char_boundary(i)).unwrap_or(0);
        format!("; its stderr ends with: {}", &text[start..])
    }
}
