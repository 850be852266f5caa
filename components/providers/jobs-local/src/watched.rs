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
        // The shell's and the subprocess's chunks are records of the same fields.
        macro_rules! as_text {
            ($chunk:expr) => {
                $chunk.map_err(|e| errors::error(errors::IO, e.message)).map(|c| {
                    let (skipped, kept) = whole_characters(&c.data);
                    let start = c.start + skipped as u64;
                    Chunk {
                        data: String::from_utf8_lossy(&c.data[skipped..skipped + kept]).into_owned(),
                        start,
                        next: start + kept as u64,
                        eof: c.eof && skipped + kept == c.data.len(),
                        lossy: c.lossy,
                        spill_path: c.spill_path,
                    }
                })
            };
        }
        match self {
            Self::Shell(background) => as_text!(background.read_from(from, max_bytes)),
            Self::Subprocess(process) => as_text!(process.read_from(Stream::Stdout, from, max_bytes)),
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

/// Where the whole characters of `data` lie, as (bytes to skip, bytes to keep): a read that
/// starts inside a character skips its continuation bytes, and one that ends inside a character
/// leaves it to the next read, so text never shows a character cut in two. Data that is one cut
/// character and nothing else is kept as it is, so a reader always moves on.
fn whole_characters(data: &[u8]) -> (usize, usize) {
    let is_continuation = |byte: &u8| byte & 0b1100_0000 == 0b1000_0000;
    let skipped = data.iter().take(3).take_while(|b| is_continuation(b)).count();
    let rest = &data[skipped..];
    let cut = (1..=3.min(rest.len())).find_map(|back| {
        let lead = rest[rest.len() - back];
        let width = match lead {
            0xc0..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf7 => 4,
            _ => return (!is_continuation(&lead)).then_some(0),
        };
        Some(if width > back { back } else { 0 })
    });
    let kept = rest.len() - cut.unwrap_or(0);
    if kept == 0 { (0, data.len()) } else { (skipped, kept) }
}

#[cfg(test)]
mod tests {
    use super::whole_characters;

    #[test]
    fn reads_keep_to_whole_characters() {
        let text = "日本語".as_bytes();
        assert_eq!(
            whole_characters(&text[..4]),
            (0, 3),
            "a cut end waits for the next read"
        );
        assert_eq!(whole_characters(&text[3..]), (0, 6));
        assert_eq!(whole_characters(&text[4..]), (2, 3), "a cut start is skipped");
        assert_eq!(whole_characters(b"ascii"), (0, 5));
        assert_eq!(
            whole_characters(&text[..2]),
            (0, 2),
            "one cut character is kept as it is"
        );
        assert_eq!(
            whole_characters(b"a\xff"),
            (0, 2),
            "an invalid byte is no cut character"
        );
    }
}
