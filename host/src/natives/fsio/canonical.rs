//! Canonical identity of a path that may not exist yet, and containment judged on it.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io;
use std::path::{Component, Path, PathBuf};

use super::error::FsioError;

/// Linux's own limit on symbolic links followed while resolving one path.
const MAX_SYMLINK_HOPS: u32 = 40;

/// `path` checked to be absolute and free of NUL bytes (which no syscall can take).
pub fn absolute(path: &str) -> Result<&Path, FsioError> {
    if path.contains('\0') {
        return Err(FsioError::invalid(path.replace('\0', "\\0"), "contains a NUL byte"));
    }
    if !path.starts_with('/') {
        return Err(FsioError::invalid(path, "not an absolute path"));
    }
    Ok(Path::new(path))
}

/// The realpath of the longest existing prefix of `path` with the remaining components appended,
/// so a file about to be created already has its final identity. A dangling symlink is followed
/// to where its target would be created, as a write through it would.
pub fn canonicalize(path: &str) -> Result<PathBuf, FsioError> {
    let path = absolute(path)?;
    match std::fs::canonicalize(path) {
        Ok(real) => Ok(real),
        Err(e) if e.kind() == io::ErrorKind::NotFound => resolve_missing(path),
        Err(e) => Err(FsioError::io(path, e)),
    }
}

/// Component-by-component resolution (what realpath does) that keeps going past the first
/// component that does not exist.
fn resolve_missing(path: &Path) -> Result<PathBuf, FsioError> {
    let mut resolved = PathBuf::from("/");
    let mut pending: VecDeque<OsString> = components(path).collect();
    let mut hops = 0;
    while let Some(name) = pending.pop_front() {
        if name == ".." {
            resolved.pop();
            continue;
        }
        let candidate = resolved.join(&name);
        match std::fs::symlink_metadata(&candidate) {
            Ok(meta) if meta.file_type().is_symlink() => {
                hops += 1;
                if hops > MAX_SYMLINK_HOPS {
                    return Err(FsioError::invalid(path, "too many levels of symbolic links"));
                }
                let target = std::fs::read_link(&candidate).map_err(|e| FsioError::io(&candidate, e))?;
                if target.is_absolute() {
                    resolved = PathBuf::from("/");
                }
                for name in components(&target).collect::<Vec<_>>().into_iter().rev() {
                    pending.push_front(name);
                }
            }
            Ok(meta) if !meta.is_dir() && !pending.is_empty() => {
                return Err(FsioError::NotADirectory(candidate.display().to_string()));
            }
            Ok(_) => resolved = candidate,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                resolved.push(name);
                for name in pending {
                    if name == ".." {
                        resolved.pop();
                    } else {
                        resolved.push(name);
                    }
                }
                return Ok(resolved);
            }
            Err(e) => return Err(FsioError::io(&candidate, e)),
        }
    }
    Ok(resolved)
}

/// Names and `..` of a path; the root and `.` carry no information here.
fn components(path: &Path) -> impl Iterator<Item = OsString> + '_ {
    path.components().filter_map(|c| match c {
        Component::Normal(name) => Some(name.to_os_string()),
        Component::ParentDir => Some(OsString::from("..")),
        Component::RootDir | Component::CurDir | Component::Prefix(_) => None,
    })
}

/// True when canonical `path` is `root` or below it. `Path::starts_with` compares whole
/// components, so `/work/a-b` is not inside `/work/a`.
pub fn is_within(root: &str, path: &str) -> Result<bool, FsioError> {
    Ok(canonicalize(path)?.starts_with(canonicalize(root)?))
}

/// The canonical platform temporary directory (`$TMPDIR`, else `/tmp`).
pub fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir();
    std::fs::canonicalize(&dir).unwrap_or(dir)
}
