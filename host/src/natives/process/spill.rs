//! Spill files: the whole of a collected stream (up to a cap) on disk.
//!
//! Each process that spills gets a fresh private directory (mode 0700) under the system temp
//! dir, created when its first stream spills; files are created exclusively with mode 0600.
//! They are deliberately kept after the process ends, because callers show their paths to
//! users; removing them is up to the caller.

use std::fmt::Write as _;
use std::fs::{self, DirBuilder, File, OpenOptions};
use std::io::{self, Read, Write as _};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use super::spec::Stream;

const DIR_PREFIX: &str = "seam-";
/// Attempts at finding an unused random directory name.
const DIR_ATTEMPTS: usize = 16;

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
                None => path.insert(create_private_dir()?).clone(),
            }
        };
        SpillWriter::create(&dir, stream, limit)
    }
}

/// Creates `<temp>/seam-<random>` with mode 0700. `create_dir` fails on an existing entry
/// (including a planted symlink), so the directory is always our own.
fn create_private_dir() -> io::Result<PathBuf> {
    let temp = std::env::temp_dir();
    let mut last_err = io::Error::other("no spill directory attempt made");
    for _ in 0..DIR_ATTEMPTS {
        let path = temp.join(format!("{DIR_PREFIX}{}", random_hex()?));
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

fn random_hex() -> io::Result<String> {
    let mut bytes = [0u8; 12];
    File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    let mut hex = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        // Writing to a String cannot fail.
        let _ = write!(hex, "{byte:02x}");
    }
    Ok(hex)
}

/// Writes the first `limit` bytes of a stream to its spill file; the rest is dropped.
pub(super) struct SpillWriter {
    path: PathBuf,
    /// `None` once the cap is reached or a write failed.
    file: Option<File>,
    remaining: u64,
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
        })
    }

    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    pub(super) fn write(&mut self, data: &[u8]) {
        let Some(file) = self.file.as_mut() else {
            return;
        };
        let take = usize::try_from(self.remaining).map_or(data.len(), |left| left.min(data.len()));
        if let Err(err) = file.write_all(&data[..take]) {
            tracing::warn!(path = %self.path.display(), error = %err, "spill file write failed; spilling stopped");
            self.file = None;
            return;
        }
        self.remaining -= take as u64;
        if self.remaining == 0 {
            self.file = None;
        }
    }
}
