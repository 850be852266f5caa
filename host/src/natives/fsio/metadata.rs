//! What stat reports, and the version derived from it.

use std::fmt;
use std::os::unix::fs::{FileTypeExt, MetadataExt};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    File,
    Dir,
    Symlink,
    Fifo,
    CharDevice,
    BlockDevice,
    Socket,
    Other,
}

impl Kind {
    pub fn of(file_type: std::fs::FileType) -> Self {
        if file_type.is_file() {
            Self::File
        } else if file_type.is_dir() {
            Self::Dir
        } else if file_type.is_symlink() {
            Self::Symlink
        } else if file_type.is_fifo() {
            Self::Fifo
        } else if file_type.is_char_device() {
            Self::CharDevice
        } else if file_type.is_block_device() {
            Self::BlockDevice
        } else if file_type.is_socket() {
            Self::Socket
        } else {
            Self::Other
        }
    }

    /// From the `st_mode` of a raw stat (the `*at` calls return those).
    pub fn of_mode(mode: u32) -> Self {
        match mode & libc::S_IFMT {
            libc::S_IFREG => Self::File,
            libc::S_IFDIR => Self::Dir,
            libc::S_IFLNK => Self::Symlink,
            libc::S_IFIFO => Self::Fifo,
            libc::S_IFCHR => Self::CharDevice,
            libc::S_IFBLK => Self::BlockDevice,
            libc::S_IFSOCK => Self::Socket,
            _ => Self::Other,
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::File => "regular file",
            Self::Dir => "directory",
            Self::Symlink => "symbolic link",
            Self::Fifo => "fifo",
            Self::CharDevice => "character device",
            Self::BlockDevice => "block device",
            Self::Socket => "socket",
            Self::Other => "special file",
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metadata {
    pub kind: Kind,
    pub dev: u64,
    pub ino: u64,
    pub size: u64,
    pub mtime_ns: i64,
    pub ctime_ns: i64,
    /// Permission bits only (no file type).
    pub mode: u32,
    pub uid: u32,
    pub gid: u32,
}

impl Metadata {
    pub fn of(meta: &std::fs::Metadata) -> Self {
        Self {
            kind: Kind::of(meta.file_type()),
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime_ns: nanos(meta.mtime(), meta.mtime_nsec()),
            ctime_ns: nanos(meta.ctime(), meta.ctime_nsec()),
            mode: meta.mode() & 0o7777,
            uid: meta.uid(),
            gid: meta.gid(),
        }
    }

    pub fn of_stat(stat: &libc::stat) -> Self {
        Self {
            kind: Kind::of_mode(stat.st_mode),
            dev: stat.st_dev,
            ino: stat.st_ino,
            size: u64::try_from(stat.st_size).unwrap_or(0),
            mtime_ns: nanos(stat.st_mtime, stat.st_mtime_nsec),
            ctime_ns: nanos(stat.st_ctime, stat.st_ctime_nsec),
            mode: stat.st_mode & 0o7777,
            uid: stat.st_uid,
            gid: stat.st_gid,
        }
    }

    /// `dev:ino:size:mtime_ns:ctime_ns`. Every write changes ctime (and a rename-publish the
    /// inode), reading changes none of them, and atime is left out, so two equal versions mean
    /// nobody wrote in between. It is compared, never interpreted.
    pub fn version(&self) -> String {
        format!(
            "{}:{}:{}:{}:{}",
            self.dev, self.ino, self.size, self.mtime_ns, self.ctime_ns
        )
    }
}

fn nanos(seconds: i64, nanoseconds: i64) -> i64 {
    seconds.saturating_mul(1_000_000_000).saturating_add(nanoseconds)
}
