//! Errors of the file shim, each with a stable FSIO_* code that providers translate.

use std::io;
use std::path::Path;

use super::metadata::Kind;

#[derive(Debug, thiserror::Error)]
pub enum FsioError {
    #[error("{path}: {reason}")]
    InvalidPath { path: String, reason: String },
    #[error("{0}: no such file or directory{hint}", hint = not_utf8_hint(.0))]
    NotFound(String),
    #[error("{0}: already exists")]
    Exists(String),
    #[error("{path}: {reason}")]
    VersionMismatch { path: String, reason: String },
    #[error("{path} is not text: {reason}")]
    NotText { path: String, reason: String },
    #[error("{path}: {size} bytes is more than the limit of {max} bytes")]
    TooLarge { path: String, size: u64, max: u64 },
    #[error("{path}: not a regular file (a {kind})")]
    NotAFile { path: String, kind: Kind },
    #[error("{0}: is a directory")]
    IsADirectory(String),
    #[error("{0}: not a directory")]
    NotADirectory(String),
    #[error("{0}: directory not empty")]
    NotEmpty(String),
    #[error("{0}: permission denied")]
    PermissionDenied(String),
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: io::Error,
    },
}

impl FsioError {
    /// A stable, machine-readable identifier of the error kind.
    pub fn code(&self) -> &'static str {
        match self {
            Self::InvalidPath { .. } => "FSIO_INVALID_PATH",
            Self::NotFound(_) => "FSIO_NOT_FOUND",
            Self::Exists(_) => "FSIO_EXISTS",
            Self::VersionMismatch { .. } => "FSIO_VERSION_MISMATCH",
            Self::NotText { .. } => "FSIO_NOT_TEXT",
            Self::TooLarge { .. } => "FSIO_TOO_LARGE",
            Self::NotAFile { .. } => "FSIO_NOT_A_FILE",
            Self::IsADirectory(_) => "FSIO_IS_A_DIRECTORY",
            Self::NotADirectory(_) => "FSIO_NOT_A_DIRECTORY",
            Self::NotEmpty(_) => "FSIO_NOT_EMPTY",
            Self::PermissionDenied(_) => "FSIO_PERMISSION_DENIED",
            Self::Io { .. } => "FSIO_IO",
        }
    }

    pub(super) fn invalid(path: impl AsRef<Path>, reason: impl Into<String>) -> Self {
        Self::InvalidPath {
            path: shown(path),
            reason: reason.into(),
        }
    }

    pub(super) fn mismatch(path: impl AsRef<Path>, reason: impl Into<String>) -> Self {
        Self::VersionMismatch {
            path: shown(path),
            reason: reason.into(),
        }
    }

    /// An OS error on `path`, classified by errno so callers see the same codes whatever call
    /// failed.
    pub(super) fn io(path: impl AsRef<Path>, source: io::Error) -> Self {
        let path = shown(path);
        match source.raw_os_error() {
            Some(libc::ENOENT) => Self::NotFound(path),
            Some(libc::EEXIST) => Self::Exists(path),
            Some(libc::EACCES | libc::EPERM | libc::EROFS) => Self::PermissionDenied(path),
            Some(libc::EISDIR) => Self::IsADirectory(path),
            Some(libc::ENOTDIR) => Self::NotADirectory(path),
            Some(libc::ENOTEMPTY) => Self::NotEmpty(path),
            Some(libc::ELOOP) => Self::InvalidPath {
                path,
                reason: "too many levels of symbolic links".into(),
            },
            Some(libc::ENAMETOOLONG) => Self::InvalidPath {
                path,
                reason: "name too long".into(),
            },
            _ => Self::Io { path, source },
        }
    }

    pub(super) fn errno(path: impl AsRef<Path>, errno: nix::errno::Errno) -> Self {
        Self::io(path, io::Error::from_raw_os_error(errno as i32))
    }
}

fn shown(path: impl AsRef<Path>) -> String {
    path.as_ref().display().to_string()
}

/// What to do about a path that holds U+FFFD: most likely copied from a listing (`glob`,
/// `grep`, `ls` through bash) that showed a name that is not UTF-8, which no path given as
/// text can name.
fn not_utf8_hint(path: &str) -> &'static str {
    if path.contains('\u{fffd}') {
        " (\u{fffd} stands for bytes of a name that are not UTF-8, which the file tools cannot name: \
         use bash, with `*` in place of \u{fffd})"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::FsioError;

    #[test]
    fn a_missing_name_with_a_replacement_character_says_why() {
        assert_eq!(
            FsioError::NotFound("/w/a.txt".into()).to_string(),
            "/w/a.txt: no such file or directory"
        );
        let replaced = FsioError::NotFound("/w/caf\u{fffd}.txt".into()).to_string();
        assert!(
            replaced.contains("not UTF-8") && replaced.contains("use bash"),
            "{replaced}"
        );
    }
}
