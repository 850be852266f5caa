//! What crosses between the host and its zygote.
//!
//! A spawn request is one datagram on the control socket: a fixed [`Header`], then the request
//! blob (argv, environment and cwd, see [`encode_blob`]) when it is at most
//! [`INLINE_BLOB_MAX`] bytes, plus fds passed with `SCM_RIGHTS`: the write end of a report
//! pipe, a memfd holding a larger blob, then the program's stdio fds that are not `/dev/null`.
//! A larger blob travels in a memfd because argv and environment may be megabytes, beyond
//! what one datagram can carry; an ordinary one comes inline, which spares the host a memfd
//! and the standby a mapping on the spawn's path.
//!
//! One [`Report`] comes back on the report pipe, written by whichever process got furthest
//! (zygote, supervisor). End-of-file without a report means the request was lost with the
//! zygote and its standby before a supervisor took it. After `Started`, the supervisor keeps
//! the pipe and writes `Finished` once the program's tree is gone, right before it exits: the
//! host learns the outcome without waiting for the supervisor's own exit, which tears down a
//! whole address space.
//!
//! The zygote decodes without allocating: the blob (received into its stack, or mapped
//! privately) has its offset tables rewritten in place into the pointer arrays `execve` takes.

use std::ffi::c_char;

use libc::{c_int, pid_t};

const MAGIC: u32 = u32::from_ne_bytes(*b"seam");
pub(super) const HEADER_LEN: usize = 24;
/// Report pipe, request blob, then up to three stdio fds.
pub(super) const MAX_FDS: usize = 5;
/// The largest blob sent inside the request datagram; a standby keeps this much room for it.
pub(super) const INLINE_BLOB_MAX: usize = 16 * 1024;
/// Header flags: bits 0-2 say which stdio fds are passed, this one that the blob is inline.
const INLINE_FLAG: u32 = 1 << 3;
pub(super) const REPORT_LEN: usize = 16;
pub(super) const WORD: usize = size_of::<usize>();
/// argc, envc, cwd offset.
const FIXED_WORDS: usize = 3;

/// A whole request header asking a waiting standby supervisor to report its pid and exit; its
/// one fd is the report pipe.
pub(super) const STOP: [u8; HEADER_LEN] = {
    let mut header = [0u8; HEADER_LEN];
    let magic = *b"stop";
    let mut at = 0;
    while at < magic.len() {
        header[at] = magic[at];
        at += 1;
    }
    header
};

/// The fixed part of a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Header {
    /// Bit `i` set: stdio fd `i` is among the passed fds; unset: `/dev/null`.
    pub(super) stdio: u32,
    pub(super) grace_ns: u64,
    pub(super) blob_len: u64,
    /// The blob follows the header in the datagram; otherwise it comes as a memfd.
    pub(super) blob_inline: bool,
}

impl Header {
    pub(super) fn encode(&self) -> [u8; HEADER_LEN] {
        let mut bytes = [0u8; HEADER_LEN];
        bytes[0..4].copy_from_slice(&MAGIC.to_ne_bytes());
        let flags = self.stdio | if self.blob_inline { INLINE_FLAG } else { 0 };
        bytes[4..8].copy_from_slice(&flags.to_ne_bytes());
        bytes[8..16].copy_from_slice(&self.grace_ns.to_ne_bytes());
        bytes[16..24].copy_from_slice(&self.blob_len.to_ne_bytes());
        bytes
    }

    pub(super) fn decode(bytes: &[u8; HEADER_LEN]) -> Option<Self> {
        let word32 = |at: usize| {
            bytes
                .get(at..at + 4)
                .and_then(|b| b.try_into().ok())
                .map(u32::from_ne_bytes)
        };
        let word64 = |at: usize| {
            bytes
                .get(at..at + 8)
                .and_then(|b| b.try_into().ok())
                .map(u64::from_ne_bytes)
        };
        if word32(0)? != MAGIC {
            return None;
        }
        let flags = word32(4)?;
        let blob_inline = flags & INLINE_FLAG != 0;
        let header = Self {
            stdio: flags & !INLINE_FLAG,
            grace_ns: word64(8)?,
            blob_len: word64(16)?,
            blob_inline,
        };
        let fits = !blob_inline || header.blob_len <= INLINE_BLOB_MAX as u64;
        (header.stdio <= 0b111 && fits).then_some(header)
    }

    /// How many fds come with this header.
    pub(super) fn fd_count(&self) -> usize {
        1 + usize::from(!self.blob_inline) + self.stdio.count_ones() as usize
    }

    /// How many bytes the datagram carries with this header.
    pub(super) fn datagram_len(&self) -> Option<usize> {
        match self.blob_inline {
            true => HEADER_LEN.checked_add(usize::try_from(self.blob_len).ok()?),
            false => Some(HEADER_LEN),
        }
    }
}

/// Lays out argv, environment and cwd as the zygote needs them:
/// `[argc, envc, cwd] [argv offsets.., 0] [env offsets.., 0] strings`, every word a native
/// `usize` and every string NUL-terminated. Offsets count from the blob's start.
pub(super) fn encode_blob(argv: &[String], env: &[(String, String)], cwd: &[u8]) -> Vec<u8> {
    let table_words = FIXED_WORDS + argv.len() + 1 + env.len() + 1;
    let strings: usize = argv.iter().map(|arg| arg.len() + 1).sum::<usize>()
        + env
            .iter()
            .map(|(key, value)| key.len() + value.len() + 2)
            .sum::<usize>()
        + cwd.len()
        + 1;
    let mut blob = Vec::with_capacity(table_words * WORD + strings);
    blob.resize(table_words * WORD, 0);
    let mut tables = Vec::with_capacity(table_words);
    tables.extend([argv.len(), env.len()]);
    tables.push(push_string(&mut blob, &[cwd]));
    for arg in argv {
        tables.push(push_string(&mut blob, &[arg.as_bytes()]));
    }
    tables.push(0);
    for (key, value) in env {
        tables.push(push_string(&mut blob, &[key.as_bytes(), b"=", value.as_bytes()]));
    }
    tables.push(0);
    for (slot, word) in blob.chunks_exact_mut(WORD).zip(tables) {
        slot.copy_from_slice(&word.to_ne_bytes());
    }
    blob
}

/// Appends the concatenation of `parts` and a NUL; returns where it starts.
fn push_string(blob: &mut Vec<u8>, parts: &[&[u8]]) -> usize {
    let start = blob.len();
    for part in parts {
        blob.extend_from_slice(part);
    }
    blob.push(0);
    start
}

/// `execve`'s arguments and the cwd, pointing into a decoded blob.
#[derive(Clone, Copy)]
pub(super) struct ExecArgs {
    pub(super) path: *const c_char,
    pub(super) argv: *const *const c_char,
    pub(super) envp: *const *const c_char,
    pub(super) cwd: *const c_char,
}

/// Turns a received blob into [`ExecArgs`] by rewriting its offset tables into pointers, in place.
/// `None` if the blob is malformed. Allocation-free.
///
/// # Safety
/// `base` must be word-aligned and point to `len` readable and writable bytes that stay mapped
/// while the result is used.
pub(super) unsafe fn decode_blob(base: *mut u8, len: usize) -> Option<ExecArgs> {
    // Every string ends before the blob does, so a NUL follows any in-bounds offset.
    if len < FIXED_WORDS * WORD || base.align_offset(WORD) != 0 {
        return None;
    }
    // SAFETY: `len` bytes are readable (caller) and `len` > 0.
    if unsafe { base.add(len - 1).read() } != 0 {
        return None;
    }
    // SAFETY: the fixed words are in bounds (checked above) and aligned.
    let word = |index: usize| unsafe { base.add(index * WORD).cast::<usize>().read() };
    let (argc, envc) = (word(0), word(1));
    let argv_at = FIXED_WORDS;
    let envp_at = argv_at.checked_add(argc)?.checked_add(1)?;
    let table_end = envp_at.checked_add(envc)?.checked_add(1)?.checked_mul(WORD)?;
    if argc == 0 || table_end > len {
        return None;
    }
    let string_at = |offset: usize| {
        // SAFETY: offsets are checked to lie inside the blob, after the tables.
        (table_end..len)
            .contains(&offset)
            .then(|| unsafe { base.add(offset) }.cast::<c_char>())
    };
    let cwd = string_at(word(2))?;
    for (first, count) in [(argv_at, argc), (envp_at, envc)] {
        for index in first..first + count {
            let string = string_at(word(index))?;
            // SAFETY: the slot lies inside the tables (index < table_end / WORD) and is aligned.
            unsafe { base.add(index * WORD).cast::<*const c_char>().write(string) };
        }
        // SAFETY: as above; the terminating slot of each table becomes a null pointer.
        unsafe {
            base.add((first + count) * WORD)
                .cast::<*const c_char>()
                .write(std::ptr::null())
        };
    }
    // SAFETY: both tables are in bounds (checked against table_end).
    let (argv, envp) = unsafe { (base.add(argv_at * WORD), base.add(envp_at * WORD)) };
    let argv = argv.cast::<*const c_char>().cast_const();
    // SAFETY: argv[0] was written above (argc > 0).
    let path = unsafe { argv.read() };
    Some(ExecArgs {
        path,
        argv,
        envp: envp.cast::<*const c_char>().cast_const(),
        cwd,
    })
}

/// Which step of a launch failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stage {
    /// The zygote could not read the request or create the supervisor.
    Zygote = 1,
    /// The supervisor could not set itself up or create the program.
    Supervisor = 2,
    /// Wiring stdio, entering the cwd or exec'ing the program failed.
    Program = 3,
}

impl Stage {
    fn from_raw(raw: i32) -> Option<Self> {
        [Stage::Zygote, Stage::Supervisor, Stage::Program]
            .into_iter()
            .find(|stage| *stage as i32 == raw)
    }
}

/// The outcome of one request, as written on the report pipe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Report {
    /// The program was exec'd under `supervisor`, a child of the host. `unreaped`, when
    /// non-zero, is an earlier standby that ended before taking a request (killed while it
    /// waited): also a child of the host, for the host to reap.
    Started {
        supervisor: pid_t,
        program: pid_t,
        unreaped: pid_t,
    },
    /// Nothing runs, except `supervisor` if non-zero: a child of the host that exits on its own
    /// and must be reaped.
    Failed {
        stage: Stage,
        supervisor: pid_t,
        errno: c_int,
    },
    /// The tree is gone; the supervisor exits with wait status `status` (the program's).
    /// `left_running` descendants were still running when the program ended by itself.
    Finished { status: c_int, left_running: c_int },
}

const STARTED: i32 = 1;
const FAILED: i32 = 2;
const FINISHED: i32 = 3;

impl Report {
    pub(super) fn encode(&self) -> [u8; REPORT_LEN] {
        let words = match *self {
            Report::Started {
                supervisor,
                program,
                unreaped,
            } => [STARTED, supervisor, program, unreaped],
            Report::Failed {
                stage,
                supervisor,
                errno,
            } => [FAILED, supervisor, stage as i32, errno],
            Report::Finished { status, left_running } => [FINISHED, status, left_running, 0],
        };
        let mut bytes = [0u8; REPORT_LEN];
        for (slot, word) in bytes.chunks_exact_mut(4).zip(words) {
            slot.copy_from_slice(&word.to_ne_bytes());
        }
        bytes
    }

    pub(super) fn decode(bytes: &[u8; REPORT_LEN]) -> Option<Self> {
        let mut words = [0i32; 4];
        for (word, chunk) in words.iter_mut().zip(bytes.chunks_exact(4)) {
            *word = i32::from_ne_bytes(chunk.try_into().ok()?);
        }
        match words {
            [STARTED, supervisor, program, unreaped] if supervisor > 0 && program > 0 && unreaped >= 0 => {
                Some(Report::Started {
                    supervisor,
                    program,
                    unreaped,
                })
            }
            [FAILED, supervisor, stage, errno] if supervisor >= 0 => Some(Report::Failed {
                stage: Stage::from_raw(stage)?,
                supervisor,
                errno,
            }),
            [FINISHED, status, left_running, _] if left_running >= 0 => Some(Report::Finished { status, left_running }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::CStr;

    use super::*;

    /// Copies a blob into word-aligned memory, as the zygote's mapping is.
    fn aligned(blob: &[u8]) -> Vec<usize> {
        let mut words = vec![0usize; blob.len().div_ceil(WORD)];
        for (word, chunk) in words.iter_mut().zip(blob.chunks(WORD)) {
            let mut bytes = [0u8; WORD];
            bytes[..chunk.len()].copy_from_slice(chunk);
            *word = usize::from_ne_bytes(bytes);
        }
        words
    }

    fn strings(mut table: *const *const c_char) -> Vec<String> {
        let mut out = Vec::new();
        // SAFETY: a decoded, null-terminated table of NUL-terminated strings.
        unsafe {
            while !(*table).is_null() {
                out.push(CStr::from_ptr(*table).to_string_lossy().into_owned());
                table = table.add(1);
            }
        }
        out
    }

    #[test]
    fn blob_decodes_into_exec_arguments() {
        let argv = vec!["/usr/bin/env".to_owned(), "-0".to_owned(), String::new()];
        let env = vec![("A".to_owned(), "1".to_owned()), ("B".to_owned(), "x=y".to_owned())];
        let blob = encode_blob(&argv, &env, b"/tmp");
        let mut memory = aligned(&blob);
        // SAFETY: `memory` holds the blob, word-aligned, and outlives the decoded pointers.
        let args = unsafe { decode_blob(memory.as_mut_ptr().cast(), blob.len()) }.expect("decodes");
        assert_eq!(strings(args.argv), argv);
        assert_eq!(strings(args.envp), ["A=1", "B=x=y"]);
        // SAFETY: as above.
        let (path, cwd) = unsafe { (CStr::from_ptr(args.path), CStr::from_ptr(args.cwd)) };
        assert_eq!((path.to_bytes(), cwd.to_bytes()), (&b"/usr/bin/env"[..], &b"/tmp"[..]));
    }

    #[test]
    fn malformed_blobs_are_rejected() {
        let blob = encode_blob(&["/bin/true".to_owned()], &[], b"/");
        let decode = |bytes: &[u8]| {
            let mut memory = aligned(bytes);
            // SAFETY: `memory` holds `bytes`, word-aligned.
            unsafe { decode_blob(memory.as_mut_ptr().cast(), bytes.len()) }.is_some()
        };
        assert!(decode(&blob));
        assert!(!decode(&blob[..blob.len() - 1]), "missing final NUL");
        assert!(!decode(&blob[..WORD]), "too short");
        let mut huge_argc = blob.clone();
        huge_argc[..WORD].copy_from_slice(&usize::MAX.to_ne_bytes());
        assert!(!decode(&huge_argc));
        let mut no_argv = blob.clone();
        no_argv[..WORD].copy_from_slice(&0usize.to_ne_bytes());
        assert!(!decode(&no_argv));
        let mut offset_in_tables = blob;
        offset_in_tables[2 * WORD..3 * WORD].copy_from_slice(&WORD.to_ne_bytes());
        assert!(!decode(&offset_in_tables));
    }

    #[test]
    fn header_and_report_round_trip() {
        let header = Header {
            stdio: 0b101,
            grace_ns: 5_000_000_000,
            blob_len: 4242,
            blob_inline: false,
        };
        assert_eq!(Header::decode(&header.encode()), Some(header));
        assert_eq!((header.fd_count(), header.datagram_len()), (4, Some(HEADER_LEN)));
        let inline = Header {
            blob_inline: true,
            ..header
        };
        assert_eq!(Header::decode(&inline.encode()), Some(inline));
        assert_eq!((inline.fd_count(), inline.datagram_len()), (3, Some(HEADER_LEN + 4242)));
        let too_long = Header {
            blob_len: INLINE_BLOB_MAX as u64 + 1,
            ..inline
        };
        assert_eq!(Header::decode(&too_long.encode()), None, "no standby has room for it");
        let mut foreign = header.encode();
        foreign[0] ^= 1;
        assert_eq!(Header::decode(&foreign), None);
        for report in [
            Report::Started {
                supervisor: 10,
                program: 11,
                unreaped: 0,
            },
            Report::Started {
                supervisor: 10,
                program: 11,
                unreaped: 9,
            },
            Report::Failed {
                stage: Stage::Program,
                supervisor: 10,
                errno: libc::ENOENT,
            },
            Report::Failed {
                stage: Stage::Zygote,
                supervisor: 0,
                errno: libc::EMFILE,
            },
            Report::Finished {
                status: 3 << 8,
                left_running: 2,
            },
            Report::Finished {
                status: libc::SIGKILL,
                left_running: 0,
            },
        ] {
            assert_eq!(Report::decode(&report.encode()), Some(report));
        }
        assert_eq!(Report::decode(&[0; REPORT_LEN]), None);
    }
}
