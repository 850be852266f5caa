//! Spill directories are removed once nothing was written in them for their lifetime, or when
//! newer ones take the whole budget, and nothing else in the spill root is touched.

use std::fs::{self, File};
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;
use std::time::{Duration, SystemTime};

use super::super::spill::{SPILL_BUDGET, SPILL_LIFETIME, sweep};

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

    assert_eq!(sweep(temp.path(), SPILL_LIFETIME, SPILL_BUDGET, now), 1);
    assert_eq!(
        left_in(temp.path()),
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

/// A spill directory holding `bytes` in its `stdout.log`, last written at `written`.
fn spill_of(temp: &Path, name: &str, bytes: usize, written: SystemTime) {
    spill_dir(temp, name, 0o700, written, written);
    let log = temp.join(name).join("stdout.log");
    fs::write(&log, vec![b'x'; bytes]).unwrap();
    File::options()
        .write(true)
        .open(&log)
        .unwrap()
        .set_modified(written)
        .unwrap();
}

fn left_in(root: &Path) -> Vec<String> {
    let mut left: Vec<String> = fs::read_dir(root)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    left
}

#[test]
fn beyond_the_budget_the_least_recently_written_go_and_the_latest_always_stays() {
    let temp = tempfile::tempdir().unwrap();
    let now = SystemTime::now();
    let minutes_ago = |m: u64| now - Duration::from_secs(60 * m);
    spill_of(temp.path(), "seam-00000000000000000000000a", 400, minutes_ago(3));
    spill_of(temp.path(), "seam-00000000000000000000000b", 400, minutes_ago(2));
    spill_of(temp.path(), "seam-00000000000000000000000c", 400, minutes_ago(1));
    assert_eq!(sweep(temp.path(), SPILL_LIFETIME, 1000, now), 1);
    assert_eq!(
        left_in(temp.path()),
        ["seam-00000000000000000000000b", "seam-00000000000000000000000c"]
    );

    // The latest alone takes more than the budget: it stays, everything older goes.
    spill_of(temp.path(), "seam-00000000000000000000000d", 2000, now);
    assert_eq!(sweep(temp.path(), SPILL_LIFETIME, 1000, now), 2);
    assert_eq!(left_in(temp.path()), ["seam-00000000000000000000000d"]);
}
