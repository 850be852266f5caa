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

    /// Combined output from `from` (stdout with stderr merged, for a subprocess).
    pub fn read(&self, from: u64, max_bytes: u32) -> Result<Chunk, Error> {
        let (data, start, next, lossy, eof) = match self {
            Self::Shell(background) => {
                let (data, next, eof) = background
                    .read_from(from, max_bytes)
                    .map_err(|e| errors::error(errors::IO, e.message))?;
                let (start, lossy) = window(from, data.len(), next);
                (data, start, next, lossy, eof)
            }
            Self::Subprocess(process) => {
                let chunk = process
                    .read_from(Stream::Stdout, from, max_bytes)
                    .map_err(|e| errors::error(errors::IO, e.message))?;
                (chunk.data, chunk.start, chunk.next, chunk.lossy, chunk.eof)
            }
        };
        Ok(Chunk {
            data: String::from_utf8_lossy(&data).into_owned(),
            start,
            next,
            eof,
            lossy,
        })
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

/// Where `len` bytes read from `from` really start, and whether bytes were skipped: the shell
/// reports only where the read ended, and a retained window that slid starts later than asked.
fn window(from: u64, len: usize, next: u64) -> (u64, bool) {
    let start = next.saturating_sub(len as u64);
    (start, start > from)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_read_past_a_slid_window_starts_later_and_says_so() {
        assert_eq!(super::window(0, 6, 6), (0, false));
        assert_eq!(super::window(4, 2, 6), (4, false));
        assert_eq!(super::window(10, 5, 100), (95, true));
        assert_eq!(super::window(8, 0, 6), (6, false), "asking past the end reads nothing");
    }
}
