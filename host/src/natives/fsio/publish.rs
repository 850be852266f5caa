//! Atomic publication of a file's new content: readers see the old file or the new one, never a
//! mix, and a crash at any point leaves one of the two (plus, at worst, an abandoned staging
//! directory that the next write removes).

use std::fs::File;
use std::io::Write;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path};
use std::sync::OnceLock;

use nix::errno::Errno;
use nix::fcntl::{AtFlags, OFlag, RenameFlags, open, openat, renameat, renameat2};
use nix::sys::stat::{Mode, fstat};
use nix::unistd::{AccessFlags, Gid, Uid, UnlinkatFlags, faccessat, fchown, fsync, linkat, unlinkat};

use super::canonical::absolute;
use super::error::FsioError;
use super::locks::TargetLocks;
use super::metadata::{Kind, Metadata};
use super::read::metadata_of;
use super::staging::{self, Staging};
use crate::off_path::OffPath;

/// Permission bits of a file that did not exist before: what `open` would give it, 0666 less
/// the process's umask. Read once from /proc (reading it with `umask(2)` means setting it,
/// which races with other threads creating files); seam never changes its umask.
fn new_file_mode() -> u32 {
    static MODE: OnceLock<u32> = OnceLock::new();
    *MODE.get_or_init(|| 0o666 & !process_umask().unwrap_or(0o022))
}

pub(super) fn process_umask() -> Option<u32> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let umask = status.lines().find_map(|line| line.strip_prefix("Umask:"))?;
    u32::from_str_radix(umask.trim(), 8).ok()
}

/// A precondition checked under the target's lock, together with the publish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// Nothing may exist at the path; the publish never replaces.
    Absent,
    /// A file with exactly this version must exist.
    Version(String),
}

#[derive(Debug)]
pub struct Written {
    pub metadata: Metadata,
    pub created: bool,
}

/// The atomic writes of one host: serialized per target, and what they replace released off the
/// writers' path.
pub struct Publisher {
    locks: TargetLocks,
    /// Last descriptors of a replaced file and of a removed staging directory. Closing one frees
    /// its inode: for a replaced 1 MB file on ext4 that is about as long as the rest of the
    /// publish after the fsync, and nothing a writer waits for (the names are gone already).
    released: OffPath<OwnedFd>,
}

/// Descriptors waiting to be closed; past this writers close their own.
const RELEASE_BACKLOG: usize = 64;

impl Publisher {
    pub fn new() -> Self {
        Self {
            locks: TargetLocks::default(),
            released: OffPath::start("seam-release", RELEASE_BACKLOG),
        }
    }

    /// Publish `data` as the file at canonical `path` (see seam:host/fsio `atomic-write`).
    pub fn atomic_write(
        &self,
        path: &str,
        data: &[u8],
        mode: Option<u32>,
        expect: Option<&Expect>,
    ) -> Result<Written, FsioError> {
        let path = absolute(path)?;
        let (parent_path, name) = split(path)?;
        let _held = self.locks.lock(path);
        let parent = open_canonical_dir(parent_path)?;
        let existing = existing_file(&parent, name, path)?;
        let existing_meta = existing.as_ref().map(|(meta, _)| meta);
        check(expect, existing_meta, path)?;
        if existing.is_some() {
            may_write(&parent, name, path)?;
        }

        staging::remove_abandoned(&parent, parent_path);
        let staging = Staging::create(&parent, parent_path, &self.released)?;
        let file = staging.create_file()?;
        write_out(&file, data).map_err(|e| FsioError::io(staging.shown(), e))?;
        apply_ownership(&file, existing_meta, mode).map_err(|e| FsioError::io(staging.shown(), e))?;
        if let Some((_, replaced)) = &existing {
            copy_attributes(replaced, &file);
        }
        file.sync_all().map_err(|e| FsioError::io(staging.shown(), e))?;

        rename_into_place(&staging, &parent, name, path, expect == Some(&Expect::Absent))?;
        fsync(&parent).map_err(|e| FsioError::errno(parent_path, e))?;
        // After the rename: it changes the file's ctime on some filesystems.
        let metadata = metadata_of(&file, path)?;
        let created = existing.is_none();
        if let Some((_, replaced)) = existing {
            self.released.drop_later(replaced);
        }
        Ok(Written { metadata, created })
    }
}

impl Default for Publisher {
    fn default() -> Self {
        Self::new()
    }
}

/// Bytes written before the kernel is asked to start writing them back.
const WRITEBACK_CHUNK: usize = 128 * 1024;

/// Write `data` from the start of the new `file`, starting the writeback of each chunk as soon
/// as it is written: the fsync that follows then waits for the last chunk, not for all of them
/// (a 1 MB publish on ext4: ~1.55 ms with one `write` then `fsync`, ~1.43 ms chunked).
fn write_out(mut file: &File, data: &[u8]) -> std::io::Result<()> {
    let mut written = 0;
    for chunk in data.chunks(WRITEBACK_CHUNK) {
        file.write_all(chunk)?;
        // Best effort: a filesystem that cannot start writeback early still syncs at the fsync.
        // SAFETY: a plain system call on a descriptor this function borrows.
        let _ = unsafe {
            libc::sync_file_range(
                std::os::fd::AsRawFd::as_raw_fd(file),
                written as libc::off64_t,
                chunk.len() as libc::off64_t,
                libc::SYNC_FILE_RANGE_WRITE,
            )
        };
        written += chunk.len();
    }
    Ok(())
}

/// The parent directory and the final name of a path to write.
fn split(path: &Path) -> Result<(&Path, &str), FsioError> {
    let (Some(parent), Some(Component::Normal(name))) = (path.parent(), path.components().next_back()) else {
        return Err(FsioError::IsADirectory(path.display().to_string()));
    };
    let name = name
        .to_str()
        .ok_or_else(|| FsioError::invalid(path, "the file name is not UTF-8"))?;
    Ok((parent, name))
}

/// Open the parent directory and check it still is the canonical path the caller resolved: a
/// symlink swapped into an ancestor since then would otherwise redirect the write. From here
/// on every call is relative to this descriptor, so later swaps cannot redirect it either.
fn open_canonical_dir(path: &Path) -> Result<OwnedFd, FsioError> {
    let dir = open(
        path,
        OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC,
        Mode::empty(),
    )
    .map_err(|e| FsioError::errno(path, e))?;
    let opened = std::fs::read_link(format!("/proc/self/fd/{}", std::os::fd::AsRawFd::as_raw_fd(&dir)));
    let is_canonical = match opened {
        Ok(opened) => opened == path,
        // Without /proc: the path must resolve to itself and to the directory opened.
        Err(_) => {
            let same_dir = || -> Option<bool> {
                let by_path = std::fs::metadata(path).ok()?;
                let by_fd = File::from(dir.try_clone().ok()?).metadata().ok()?;
                let (a, b) = (Metadata::of(&by_path), Metadata::of(&by_fd));
                Some(a.dev == b.dev && a.ino == b.ino)
            };
            std::fs::canonicalize(path).is_ok_and(|real| real == path) && same_dir().unwrap_or(false)
        }
    };
    if !is_canonical {
        return Err(FsioError::invalid(
            path,
            "no longer the canonical directory (a symbolic link or rename changed it since it was resolved)",
        ));
    }
    Ok(dir)
}

/// What is at `name` now, refused unless it is a regular file or nothing; a file comes with a
/// descriptor that holds it (O_PATH: nothing is opened for reading or writing, so no device or
/// fifo swapped in meanwhile is touched) until the publish has replaced it.
fn existing_file(parent: &OwnedFd, name: &str, path: &Path) -> Result<Option<(Metadata, OwnedFd)>, FsioError> {
    let held = match openat(
        parent,
        name,
        OFlag::O_PATH | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC,
        Mode::empty(),
    ) {
        Ok(held) => held,
        Err(Errno::ENOENT) => return Ok(None),
        Err(e) => return Err(FsioError::errno(path, e)),
    };
    let meta = Metadata::of_stat(&fstat(&held).map_err(|e| FsioError::errno(path, e))?);
    match meta.kind {
        Kind::File => Ok(Some((meta, held))),
        Kind::Dir => Err(FsioError::IsADirectory(path.display().to_string())),
        // Canonical paths end in no symlink: this one was swapped in after resolving.
        Kind::Symlink => Err(FsioError::invalid(
            path,
            "is a symbolic link now, so it is no longer the canonical target; resolve it again",
        )),
        kind => Err(FsioError::NotAFile {
            path: path.display().to_string(),
            kind,
        }),
    }
}

/// A file is replaced only by someone who may write it, as writing it in place would require:
/// the rename needs only the directory's permission, which would let a read-only file, or
/// another user's, be replaced (and change owner).
fn may_write(parent: &OwnedFd, name: &str, path: &Path) -> Result<(), FsioError> {
    faccessat(parent, name, AccessFlags::W_OK, AtFlags::AT_EACCESS).map_err(|e| FsioError::errno(path, e))
}

fn check(expect: Option<&Expect>, existing: Option<&Metadata>, path: &Path) -> Result<(), FsioError> {
    match (expect, existing) {
        (Some(Expect::Absent), Some(_)) => Err(FsioError::Exists(path.display().to_string())),
        (Some(Expect::Version(_)), None) => Err(FsioError::mismatch(path, "no longer exists")),
        (Some(Expect::Version(expected)), Some(meta)) if meta.version() != *expected => Err(FsioError::mismatch(
            path,
            format!("changed since version {expected} (now {})", meta.version()),
        )),
        _ => Ok(()),
    }
}

/// Permission bits (kept from the replaced file unless given; setuid, setgid and sticky are
/// dropped, as the kernel drops them when a file is written) and, when allowed, its owner.
fn apply_ownership(file: &File, existing: Option<&Metadata>, mode: Option<u32>) -> std::io::Result<()> {
    let bits = mode.or(existing.map(|meta| meta.mode)).unwrap_or_else(new_file_mode) & 0o777;
    file.set_permissions(std::fs::Permissions::from_mode(bits))?;
    if let Some(meta) = existing {
        // Only root may give a file away; anyone else keeps owning what they write.
        let _ = fchown(
            file.as_fd(),
            Some(Uid::from_raw(meta.uid)),
            Some(Gid::from_raw(meta.gid)),
        );
    }
    Ok(())
}

/// Extended attributes of the replaced file (`held`, an `O_PATH` descriptor) copied to its
/// replacement, as a write in place keeps them: its ACL (`system.posix_acl_access`), security
/// label and `user.*` attributes. Best effort, one by one: what the caller may not set (a
/// `trusted.*` one, a label it cannot give) is left out, and file capabilities are not copied
/// at all, since a write drops them.
fn copy_attributes(held: &OwnedFd, to: &File) {
    // Attributes cannot be read through an O_PATH descriptor itself; its /proc link names the
    // same open file, whatever was renamed over its path since.
    let from = format!("/proc/self/fd/{}\0", std::os::fd::AsRawFd::as_raw_fd(held));
    let mut names = vec![0u8; 4096];
    // SAFETY: the path is NUL-terminated; the buffer pointer and length describe `names`.
    let listed = unsafe { libc::listxattr(from.as_ptr().cast(), names.as_mut_ptr().cast(), names.len()) };
    let Ok(listed) = usize::try_from(listed) else {
        return;
    };
    let mut value = vec![0u8; 64 * 1024];
    for name in names[..listed].split(|byte| *byte == 0).filter(|name| !name.is_empty()) {
        if name == b"security.capability" {
            continue;
        }
        let mut name = name.to_vec();
        name.push(0);
        // SAFETY: both strings are NUL-terminated; the buffer pointer and length describe `value`.
        let size = unsafe {
            libc::getxattr(
                from.as_ptr().cast(),
                name.as_ptr().cast(),
                value.as_mut_ptr().cast(),
                value.len(),
            )
        };
        let Ok(size) = usize::try_from(size) else {
            continue;
        };
        // SAFETY: the name is NUL-terminated; the value pointer and size lie within `value`.
        unsafe {
            libc::fsetxattr(
                std::os::fd::AsRawFd::as_raw_fd(to),
                name.as_ptr().cast(),
                value.as_ptr().cast(),
                size,
                0,
            )
        };
    }
}

fn rename_into_place(
    staging: &Staging<'_>,
    parent: &OwnedFd,
    name: &str,
    path: &Path,
    must_not_exist: bool,
) -> Result<(), FsioError> {
    let (dir, content) = staging.content();
    if !must_not_exist {
        return renameat(&dir, content, parent, name).map_err(|e| FsioError::errno(path, e));
    }
    match renameat2(&dir, content, parent, name, RenameFlags::RENAME_NOREPLACE) {
        Ok(()) => Ok(()),
        // A filesystem without RENAME_NOREPLACE: link(2) never replaces either.
        Err(Errno::EINVAL) => {
            linkat(&dir, content, parent, name, AtFlags::empty()).map_err(|e| FsioError::errno(path, e))?;
            let _ = unlinkat(&dir, content, UnlinkatFlags::NoRemoveDir);
            Ok(())
        }
        Err(e) => Err(FsioError::errno(path, e)),
    }
}
