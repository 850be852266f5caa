//! Spill files: the whole of a collected stream (up to a cap) on disk.
//!
//! Each process that spills gets a fresh private directory (mode 0700) under [`spill_roots`],
//! created when its first stream spills; files are created exclusively with mode 0600.
//! They are deliberately kept after the process ends, because callers show their paths to
//! the model and the user, who read them in later calls. Nothing else would ever remove them:
//! the next process of this user that spills, whichever seam process that is, removes the
//! directories in which nothing was written for [`SPILL_LIFETIME`], and the least recently
//! written ones beyond [`SPILL_BUDGET`] (a session of noisy builds would otherwise fill the disk
//! with a day's worth of 64 MB files).

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::fs::{self, DirBuilder, DirEntry, File, OpenOptions};
use std::io::{self, Read, Write as _};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime};

use super::spec::Stream;

const DIR_PREFIX: &str = "seam-";
/// Random bytes in a directory name, written as twice as many hex digits.
const NAME_BYTES: usize = 12;
/// Attempts at finding an unused random directory name.
const DIR_ATTEMPTS: usize = 16;
/// How long a spill directory outlives the last write into it.
pub(super) const SPILL_LIFETIME: Duration = Duration::from_secs(24 * 60 * 60);
/// How much spilled output a spill root keeps at most: the directories written longest ago go
/// first, and the one written last always stays.
pub(super) const SPILL_BUDGET: u64 = 1 << 30;
/// How often one seam process sweeps the spill roots (when it next spills).
const SWEEP_INTERVAL: Duration = Duration::from_secs(60);

/// The spill directory of one process, shared by its streams, created on first use.
#[derive(Default)]
pub(super) struct SpillDir {
    path: Mutex<Option<PathBuf>>,
}

impl SpillDir {
    /// A new spill file for `stream` in this process's directory, which is created if needed.
    pub(super) fn create_file(&self, stream: Stream, limit: u64) -> io::Result<SpillWriter> {
        let dir = {
            let mut path = self.path.lock().unwrap_or_else(PoisonError::into_inner);
            match path.as_ref() {
                Some(dir) => dir.clone(),
                None => {
                    sweep_now_and_then();
                    path.insert(create_private_dir()?).clone()
                }
            }
        };
        SpillWriter::create(&dir, stream, limit)
    }
}

/// Where spill directories are made, in order of preference: `$XDG_STATE_HOME/seam/spill`,
/// else `~/.local/state/seam/spill`; then the temp dir, for a user without a home or whose
/// home cannot be written. Not the temp dir first: a workspace-write sandbox replaces /tmp with
/// a private one, and the sandboxed command told to read a spill file there would not find it.
pub(super) fn spill_roots() -> Vec<PathBuf> {
    // A relative (or empty) XDG_STATE_HOME is to be ignored, as the XDG spec says.
    let state = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .filter(|dir| dir.is_absolute())
        .or_else(|| std::env::home_dir().map(|home| home.join(".local").join("state")));
    let state = state
        .filter(|dir| dir.is_absolute())
        .map(|state| state.join("seam").join("spill"));
    state.into_iter().chain([std::env::temp_dir()]).collect()
}

/// Creates `<spill root>/seam-<random>` with mode 0700 in the first root that can hold it.
fn create_private_dir() -> io::Result<PathBuf> {
    let mut last_err = io::Error::other("no spill root");
    for root in spill_roots() {
        match DirBuilder::new().recursive(true).mode(0o700).create(&root) {
            Ok(()) => return create_private_dir_in(&root, DIR_PREFIX),
            Err(err) => last_err = err,
        }
    }
    Err(last_err)
}

/// Creates `<root>/<prefix><random hex>` with mode 0700. `create_dir` fails on an existing
/// entry (including a planted symlink), so the directory is always our own.
pub(super) fn create_private_dir_in(root: &Path, prefix: &str) -> io::Result<PathBuf> {
    let mut last_err = io::Error::other("no private directory attempt made");
    for _ in 0..DIR_ATTEMPTS {
        let path = root.join(format!("{prefix}{}", random_hex()?));
        match DirBuilder::new().mode(0o700).create(&path) {
            Ok(()) => {
                // The umask may have removed owner bits; make the mode exact.
                fs::set_permissions(&path, fs::Permissions::from_mode(0o700))?;
                return Ok(path);
            }
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => last_err = err,
            Err(err) => return Err(err),
        }
    }
    Err(last_err)
}

/// Whether `entry` is a directory (not a link to one) owned by this user with mode 0700, as
/// [`create_private_dir_in`] makes them.
pub(super) fn is_own_private_dir(entry: &DirEntry) -> bool {
    let uid = nix::unistd::geteuid().as_raw();
    // DirEntry::metadata does not follow a symlink.
    entry
        .metadata()
        .is_ok_and(|meta| meta.is_dir() && meta.uid() == uid && meta.mode() & 0o777 == 0o700)
}

fn random_hex() -> io::Result<String> {
    let mut bytes = [0u8; NAME_BYTES];
    File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    let mut hex = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        // Writing to a String cannot fail.
        let _ = write!(hex, "{byte:02x}");
    }
    Ok(hex)
}

/// Starts [`sweep`] on the spill roots on a thread of its own (they may hold thousands of
/// entries), unless this process did within the last [`SWEEP_INTERVAL`].
fn sweep_now_and_then() {
    static LAST_SWEEP: Mutex<Option<Instant>> = Mutex::new(None);
    {
        let mut last = LAST_SWEEP.lock().unwrap_or_else(PoisonError::into_inner);
        if last.is_some_and(|at| at.elapsed() < SWEEP_INTERVAL) {
            return;
        }
        *last = Some(Instant::now());
    }
    let roots = spill_roots();
    let sweep = move || {
        let now = SystemTime::now();
        let removed: usize = roots
            .iter()
            .map(|root| sweep(root, SPILL_LIFETIME, SPILL_BUDGET, now))
            .sum();
        if removed > 0 {
            tracing::debug!(removed, "spill directories removed");
        }
    };
    if let Err(err) = std::thread::Builder::new().name("seam-spill-sweep".into()).spawn(sweep) {
        tracing::warn!(error = %err, "cannot start the spill sweep");
    }
}

/// Removes the spill directories under `root` in which nothing was written for `lifetime`, then
/// the least recently written ones beyond `budget` bytes (never the latest), and returns how
/// many. A spill directory is one this user's seam created: `seam-` and hex digits, a directory
/// (not a link to one) owned by this user with mode 0700.
pub(super) fn sweep(root: &Path, lifetime: Duration, budget: u64, now: SystemTime) -> usize {
    let Ok(entries) = fs::read_dir(root) else {
        return 0;
    };
    let spill_dirs = entries
        .flatten()
        .filter(|entry| is_spill_dir_name(&entry.file_name()) && is_own_private_dir(entry));
    let (mut removed, mut kept) = (0, Vec::new());
    for entry in spill_dirs {
        let path = entry.path();
        let Some((written, bytes)) = usage(&path) else {
            continue;
        };
        if now.duration_since(written).is_ok_and(|age| age >= lifetime) {
            removed += usize::from(fs::remove_dir_all(&path).is_ok());
        } else {
            kept.push((written, bytes, path));
        }
    }
    // Latest first: the budget keeps the most recent output.
    kept.sort_by_key(|(written, _, _)| std::cmp::Reverse(*written));
    let mut total = 0u64;
    for (index, (_, bytes, path)) in kept.iter().enumerate() {
        total = total.saturating_add(*bytes);
        if index > 0 && total > budget {
            removed += usize::from(fs::remove_dir_all(path).is_ok());
        }
    }
    removed
}

fn is_spill_dir_name(name: &OsStr) -> bool {
    let digits = name.to_str().and_then(|name| name.strip_prefix(DIR_PREFIX));
    digits.is_some_and(|d| d.len() == 2 * NAME_BYTES && d.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
}

/// The latest modification time of `dir` and of the files in it (a stream that is still being
/// spilled keeps its directory), and the bytes its files hold.
fn usage(dir: &Path) -> Option<(SystemTime, u64)> {
    let files: Vec<_> = fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter_map(|entry| entry.metadata().ok())
        .collect();
    let bytes = files.iter().filter(|meta| meta.is_file()).map(|meta| meta.len()).sum();
    let own = fs::symlink_metadata(dir).ok();
    let written = files
        .iter()
        .chain(own.as_ref())
        .filter_map(|meta| meta.modified().ok())
        .max()?;
    Some((written, bytes))
}

/// Writes the first `limit` bytes of a stream to its spill file; the rest is dropped.
pub(super) struct SpillWriter {
    path: PathBuf,
    /// `None` once the cap is reached or a write failed.
    file: Option<File>,
    remaining: u64,
    written: u64,
}

impl SpillWriter {
    fn create(dir: &Path, stream: Stream, limit: u64) -> io::Result<Self> {
        let path = dir.join(format!("{}.log", stream.name()));
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path)?;
        Ok(Self {
            path,
            file: (limit > 0).then_some(file),
            remaining: limit,
            written: 0,
        })
    }

    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    /// The bytes the file holds: the stream's first ones.
    pub(super) fn written(&self) -> u64 {
        self.written
    }

    pub(super) fn write(&mut self, data: &[u8]) {
        let Some(file) = self.file.as_mut() else {
            return;
        };
        let take = usize::try_from(self.remaining).map_or(data.len(), |left| left.min(data.len()));
        // Written piece by piece, not with `write_all`: a full disk can take part of the data,
        // and the count must say how much of the stream the file really holds.
        let mut rest = &data[..take];
        while !rest.is_empty() {
            match file.write(rest) {
                Ok(0) => {
                    self.stop(&io::Error::from(io::ErrorKind::WriteZero));
                    return;
                }
                Ok(n) => {
                    self.written += n as u64;
                    self.remaining -= n as u64;
                    rest = &rest[n..];
                }
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => {
                    self.stop(&err);
                    return;
                }
            }
        }
        if self.remaining == 0 {
            self.file = None;
        }
    }

    fn stop(&mut self, err: &io::Error) {
        tracing::warn!(path = %self.path.display(), error = %err, "spill file write failed; spilling stopped");
        self.file = None;
    }
}

#[cfg(test)]
mod tests {
    use super::SpillWriter;
    use std::fs::OpenOptions;
    use std::path::PathBuf;

    #[test]
    fn a_file_that_takes_no_more_counts_only_what_it_took() {
        // Every write to /dev/full fails with ENOSPC, as on a full disk.
        let full = OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
        let mut writer = SpillWriter {
            path: PathBuf::from("/dev/full"),
            file: Some(full),
            remaining: 100,
            written: 0,
        };
        writer.write(b"0123456789");
        assert_eq!(writer.written(), 0);
        assert!(writer.file.is_none(), "spilling stops after a failed write");
        writer.write(b"more");
        assert_eq!(writer.written(), 0);
    }
}
