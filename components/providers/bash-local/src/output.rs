//! The combined output of a command that ended, read back from the subprocess collector as
//! text: its head and tail, joined where they overlap.

use crate::bindings::exports::seam::shell::shell::{Error, Output};
use crate::bindings::seam::subprocess::subprocess::Process;
use crate::bindings::seam::subprocess::types::Stream;
use crate::errors;

/// Head, tail and spill file of stdout (stderr is merged into it).
pub fn read(process: &Process) -> Result<Output, Error> {
    let text = process
        .collected_text(Stream::Stdout)
        .map_err(errors::from_subprocess)?;
    Ok(Output {
        head: text.head,
        tail: text.tail,
        total_bytes: text.total_bytes,
        dropped_bytes: text.dropped_bytes,
        spilled_bytes: text.spilled_bytes,
        spill_path: text.spill_path,
        replaced: text.replaced,
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
