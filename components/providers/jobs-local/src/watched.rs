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
                    let (skipped, kept) = whole_characters(&c.data, max_bytes as usize);
                    let start = c.start + skipped as u64;
                    Chunk {
                        data: String::from_utf8_lossy(&c.data[skipped..skipped + kept]).into_owned(),
                        start,
                        next: start + kept as u64,
                        eof: c.eof && skipped + kept == c.data.len(),
                        lossy: c.lossy,
                        spill_path: c.spill_path,
                        spilled_bytes: c.spilled_bytes,
                    }
                })
            };
        }
        // Up to 3 bytes past the limit complete a character the limit would cut, and 3 before
        // it that a start inside a character skips.
        let wide = max_bytes.saturating_add(6);
        match self {
            Self::Shell(background) => as_text!(background.read_from(from, wide)),
            Self::Subprocess(process) => as_text!(process.read_from(Stream::Stdout, from, wide)),
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

/// Where the whole characters of the first `limit` bytes of `data` lie, as (bytes to skip,
/// bytes to keep): a read that starts inside a character skips its continuation bytes, and one
/// that ends inside a character leaves it to the next read, so text never shows a character cut
/// in two. When the limit is narrower than the first character, that character is kept whole if
/// `data` holds it (a read asks for a few bytes more than its limit for this), else as it is: a
/// reader always moves on.
fn whole_characters(data: &[u8], limit: usize) -> (usize, usize) {
    let is_continuation = |byte: &u8| byte & 0b1100_0000 == 0b1000_0000;
    let width = |lead: u8| match lead {
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    };
    let skipped = data.iter().take(3).take_while(|b| is_continuation(b)).count();
    let rest = &data[skipped..];
    let within = &rest[..rest.len().min(limit)];
    let cut = (1..=3.min(within.len())).find_map(|back| {
        let lead = within[within.len() - back];
        if is_continuation(&lead) {
            return None;
        }
        Some(if width(lead) > back { back } else { 0 })
    });
    let kept = within.len() - cut.unwrap_or(0);
    if kept > 0 {
        return (skipped, kept);
    }
    let first = rest.first().map_or(0, |lead| width(*lead));
    if first > 0 && rest.len() >= first && rest[1..first].iter().all(is_continuation) {
        return (skipped, first);
    }
    (0, data.len().min(limit.max(1)))
}

#[cfg(test)]
mod tests {
    use super::whole_characters;

    #[test]
    fn reads_keep_to_whole_characters() {
        let text = "日本語".as_bytes();
        assert_eq!(whole_characters(text, 4), (0, 3), "a cut end waits for the next read");
        assert_eq!(whole_characters(&text[3..], 99), (0, 6));
        assert_eq!(whole_characters(&text[4..], 99), (2, 3), "a cut start is skipped");
        assert_eq!(
            whole_characters(&text[4..], 3),
            (2, 3),
            "the limit counts from the skip"
        );
        assert_eq!(whole_characters(b"ascii", 99), (0, 5));
        assert_eq!(whole_characters(b"ascii", 2), (0, 2));
        assert_eq!(
            whole_characters(text, 1),
            (0, 3),
            "a limit narrower than the first character keeps it whole"
        );
        assert_eq!(
            whole_characters(&text[..2], 1),
            (0, 1),
            "one cut character with no more to read moves on"
        );
        assert_eq!(
            whole_characters(b"a\xff", 99),
            (0, 2),
            "an invalid byte is no cut character"
        );
    }
}
