//! Spill directories are removed once nothing was written in them for their lifetime, and
//! nothing else in the spill root is touched.

use std::fs::{self, File};
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;
use std::time::{Duration, SystemTime};

use super::super::spill::{SPILL_LIFETIME, remove_expired};

const SPILL_NAME: &str = "seam-0123456789abcdef01234567";

/// A directory with a `stdout.log`, the file written at `written` and the directory at `made`.
fn spill_dir(temp: &Path, name: &str, mode: u32, made: SystemTime, written: SystemTime) {
    let dir = temp.join(name);
    fs::create_dir(&dir).unwrap();
    let log = File::create(dir.join("stdout.log")).unwrap();
    log.set_modified(written).unwrap();
    fs::set_permissions(&dir, fs::Permissions::from_mode(mode)).unwrap();
    File::open(&dir).unwrap().set_modified(made).unwrap();
}

#[test]
fn expired_spill_directories_go_and_everything_else_stays() {
    let temp = tempfile::tempdir().unwrap();
    let now = SystemTime::now();
    let old = now - SPILL_LIFETIME - Duration::from_secs(60);
    let recent = now - Duration::from_secs(60);
    spill_dir(temp.path(), SPILL_NAME, 0o700, old, old);
    spill_dir(temp.path(), "seam-00000000000000000000000a", 0o700, recent, recent);
    // A stream still being spilled: its file was written recently.
    spill_dir(temp.path(), "seam-00000000000000000000000b", 0o700, old, recent);
    // Not a spill directory: another name, another mode, a symlink to an expired one.
    spill_dir(temp.path(), "seam-bench-fs-1234", 0o700, old, old);
    spill_dir(temp.path(), "seam-00000000000000000000000c", 0o755, old, old);
    spill_dir(temp.path(), "elsewhere", 0o700, old, old);
    symlink(
        temp.path().join("elsewhere"),
        temp.path().join("seam-00000000000000000000000d"),
    )
    .unwrap();

    assert_eq!(remove_expired(temp.path(), SPILL_LIFETIME, now), 1);
    let mut left: Vec<String> = fs::read_dir(temp.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(
        left,
        [
            "elsewhere",
            "seam-00000000000000000000000a",
            "seam-00000000000000000000000b",
            "seam-00000000000000000000000c",
            "seam-00000000000000000000000d",
            "seam-bench-fs-1234",
        ]
    );
    assert!(temp.path().join("elsewhere/stdout.log").exists());
}
