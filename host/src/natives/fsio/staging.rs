//! Staging directories: where an atomic write puts the new content before renaming it over the
//! target. One per write, created 0700 beside the target (same filesystem, so the rename is
//! atomic), holding one O_EXCL 0600 file, removed once the content is published. The name
//! starts with a dot and carries the writer's pid, so a directory left by a writer that was
//! killed is hidden from listings and recognized as abandoned by the next write.

use std::fs::File;
use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use nix::errno::Errno;
use nix::fcntl::{OFlag, openat};
use nix::sys::stat::{Mode, fstat, mkdirat};
use nix::unistd::{Pid, UnlinkatFlags, unlinkat};

use super::error::FsioError;
use crate::off_path::OffPath;

const PREFIX: &str = ".seam-staging-";
/// The one file a staging directory ever holds.
const CONTENT: &str = "content";

static NEXT: AtomicU64 = AtomicU64::new(0);

pub fn is_staging_name(name: &str) -> bool {
    name.starts_with(PREFIX)
}

/// A staging directory of this process, removed (with its file) when dropped.
pub struct Staging<'a> {
    parent: &'a OwnedFd,
    name: String,
    /// Taken only by `drop`.
    dir: Option<OwnedFd>,
    /// Where the directory's last descriptor goes once it is removed: closing it frees the inode.
    released: &'a OffPath<OwnedFd>,
}

impl<'a> Staging<'a> {
    pub fn create(parent: &'a OwnedFd, parent_path: &Path, released: &'a OffPath<OwnedFd>) -> Result<Self, FsioError> {
        let name = format!(
            "{PREFIX}{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        // Failures are said of the directory written to: the staging name is no path the caller
        // knows.
        let shown = format!("{} (where the new file is staged)", parent_path.display());
        mkdirat(parent, name.as_str(), Mode::S_IRWXU).map_err(|e| FsioError::errno(&shown, e))?;
        // Opened without following, so a directory renamed away and replaced by a symlink
        // cannot redirect the content.
        let dir = openat(
            parent,
            name.as_str(),
            OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC,
            Mode::empty(),
        );
        let dir = match dir {
            Ok(dir) => dir,
            Err(e) => {
                let _ = unlinkat(parent, name.as_str(), UnlinkatFlags::RemoveDir);
                return Err(FsioError::errno(&shown, e));
            }
        };
        Ok(Self {
            parent,
            name,
            dir: Some(dir),
            released,
        })
    }

    fn dir(&self) -> &OwnedFd {
        self.dir.as_ref().expect("held until dropped")
    }

    /// The staging file, created exclusively with mode 0600.
    pub fn create_file(&self) -> Result<File, FsioError> {
        let fd = openat(
            self.dir(),
            CONTENT,
            OFlag::O_WRONLY | OFlag::O_CREAT | OFlag::O_EXCL | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC,
            Mode::S_IRUSR | Mode::S_IWUSR,
        )
        .map_err(|e| FsioError::errno(self.shown(), e))?;
        Ok(File::from(fd))
    }

    /// Where the staging file is, for the `*at` calls that publish it.
    pub fn content(&self) -> (impl AsFd + '_, &'static str) {
        (self.dir(), CONTENT)
    }

    pub fn shown(&self) -> String {
        format!("<staging {}>/{CONTENT}", self.name)
    }
}

impl Drop for Staging<'_> {
    fn drop(&mut self) {
        let Some(dir) = self.dir.take() else { return };
        // After a publish the file is gone already; after a failure it goes with the directory.
        let _ = unlinkat(&dir, CONTENT, UnlinkatFlags::NoRemoveDir);
        let _ = unlinkat(self.parent, self.name.as_str(), UnlinkatFlags::RemoveDir);
        self.released.drop_later(dir);
    }
}

/// Remove the staging directories in `parent` whose writer process is gone. Best effort: a
/// directory that cannot be removed now is tried again by the next write. Directories of live
/// processes (this one included) belong to writes in progress and are left alone.
pub fn remove_abandoned(parent: &OwnedFd, parent_path: &Path) {
    // A link count of 2 (its own `.` and its name in its parent) says the directory has no
    // subdirectory, so no staging directory: it is not listed, which in a large flat directory
    // would cost every write milliseconds. Filesystems that do not count report 1 and are listed.
    if fstat(parent).is_ok_and(|stat| stat.st_nlink == 2) {
        return;
    }
    let Ok(entries) = std::fs::read_dir(parent_path) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if writer_of(name).is_some_and(|pid| !is_alive(pid)) {
            remove_staging(parent, name);
        }
    }
}

/// The pid in `.seam-staging-<pid>-<n>`.
fn writer_of(name: &str) -> Option<i32> {
    let (pid, serial) = name.strip_prefix(PREFIX)?.split_once('-')?;
    serial.parse::<u64>().ok()?;
    pid.parse().ok()
}

fn is_alive(pid: i32) -> bool {
    if pid == std::process::id() as i32 {
        return true;
    }
    // EPERM: it exists but belongs to someone else.
    !matches!(nix::sys::signal::kill(Pid::from_raw(pid), None), Err(Errno::ESRCH))
}

fn remove_staging(parent: &OwnedFd, name: &str) {
    let flags = OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC;
    if let Ok(dir) = openat(parent, name, flags, Mode::empty()) {
        let _ = unlinkat(&dir, CONTENT, UnlinkatFlags::NoRemoveDir);
    }
    let _ = unlinkat(parent, name, UnlinkatFlags::RemoveDir);
}
