//! Tests against real files in temporary directories.

mod canonical;
mod lines;
mod locks;
mod publish;
mod read;

use std::path::{Path, PathBuf};

/// A temporary directory and its canonical path (the temp dir itself may sit behind a symlink).
pub(super) fn scratch() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("create a temp dir");
    let real = std::fs::canonicalize(dir.path()).expect("canonicalize the temp dir");
    (dir, real)
}

pub(super) fn s(path: &Path) -> &str {
    path.to_str().expect("test paths are UTF-8")
}
