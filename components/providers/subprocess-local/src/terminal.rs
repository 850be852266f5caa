//! Terminals need the host's PTY shim, which this provider does not have yet: every way to get
//! a terminal fails with SUBPROCESS_UNSUPPORTED.

use crate::bindings::exports::seam::subprocess::subprocess::GuestTerminal;
use crate::bindings::seam::subprocess::types::{Chunk, Error, Foreground, Outcome};
use crate::errors;

pub fn unsupported() -> Error {
    errors::unsupported("terminals need the host's PTY shim, which subprocess-local does not have yet")
}

/// A terminal handle that cannot exist: the type has no values, so the compiler proves none
/// of these methods is ever reached (no panic paths, no made-up answers).
pub enum NoTerminal {}

impl GuestTerminal for NoTerminal {
    fn id(&self) -> u64 {
        match *self {}
    }

    fn read_from(&self, _from_byte: u64, _max_bytes: u32) -> Result<Chunk, Error> {
        match *self {}
    }

    fn write(&self, _data: Vec<u8>) -> Result<(), Error> {
        match *self {}
    }

    fn resize(&self, _rows: u16, _cols: u16) -> Result<(), Error> {
        match *self {}
    }

    fn foreground(&self) -> Result<Foreground, Error> {
        match *self {}
    }

    fn signal_foreground(&self, _signal: i32) -> Result<(), Error> {
        match *self {}
    }

    fn exited(&self) -> Option<Outcome> {
        match *self {}
    }

    fn close(&self) -> Outcome {
        match *self {}
    }
}
