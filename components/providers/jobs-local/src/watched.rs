//! The process a job watches, attached again in each call by its durable id: a shell
//! background command or a subprocess, behind one face.

use crate::bindings::exports::seam::jobs::jobs::{Chunk, Error};
use crate::bindings::seam::shell::shell::{self, Background};
use crate::bindings::seam::subprocess::subprocess::{self, Process};
use crate::bindings::seam::subprocess::types::Stream;
use crate::errors;
use crate::record::{Exit, Watch};

pub enum Watched {
    Shell(Background),
    Subprocess(Process),
}

impl Watched {
    /// JOB_ATTACH_FAILED when the seam does not know the id (anymore).
    pub fn attach(watch: Watch) -> Result<Self, Error> {
        let attached = match watch {
            Watch::Shell(id) => shell::attach(id).map(Self::Shell).map_err(|e| (id, e.message)),
            Watch::Subprocess(id) => subprocess::attach(id)
                .map(Self::Subprocess)
                .map_err(|e| (id, e.message)),
        };
        attached.map_err(|(id, message)| {
            errors::error(
                errors::ATTACH_FAILED,
                format!("cannot attach to process {id}: {message}"),
            )
        })
    }

    /// Combined output from `from` (stdout with stderr merged, for a subprocess), as text.
    pub fn read(&self, from: u64, max_bytes: u32) -> Result<Chunk, Error> {
        // The shell's and the subprocess's text chunks are records of the same fields.
        macro_rules! chunk {
            ($read:expr) => {
                $read
                    .map_err(|e| errors::error(errors::IO, e.message))
                    .map(|c| Chunk {
                        data: c.text,
                        start: c.start,
                        next: c.next,
                        eof: c.eof,
                        lossy: c.lossy,
                        spill_path: c.spill_path,
                        spilled_bytes: c.spilled_bytes,
                    })
            };
        }
        match self {
            Self::Shell(background) => chunk!(background.read_from(from, max_bytes)),
            Self::Subprocess(process) => chunk!(process.read_text_from(Stream::Stdout, from, max_bytes)),
        }
    }

    /// None while it still runs after `timeout_ms` (none: no bound).
    pub fn wait(&self, timeout_ms: Option<u32>) -> Option<Exit> {
        match self {
            Self::Shell(background) => background.wait(timeout_ms).map(|r| Exit {
                exit_code: r.exit_code,
                killed: false,
            }),
            Self::Subprocess(process) => process.wait(timeout_ms).map(|o| Exit {
                exit_code: o.exit_code,
                killed: false,
            }),
        }
    }

    /// Terminates the whole tree; a process that had already ended reports how it ended.
    pub fn terminate(&self) -> Exit {
        match self {
            Self::Shell(background) => {
                let result = background.terminate();
                Exit {
                    exit_code: result.exit_code,
                    killed: result.aborted,
                }
            }
            Self::Subprocess(process) => match self.wait(Some(0)) {
                Some(exit) => exit,
                None => Exit {
                    exit_code: process.terminate().exit_code,
                    killed: true,
                },
            },
        }
    }
}
