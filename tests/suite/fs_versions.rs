//! Versions: our own write never looks like someone else's, an atime-only change is no change,
//! and an external write is a conflict.

use crate::fs_support::*;
use serde_json::json;
use std::fs::FileTimes;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::{Duration, SystemTime};

#[test]
fn no_false_conflict_after_our_own_write() {
    let (_dir, ws) = scratch();
    let world = probe_world(&["fs-local"], "read-only", "", &ws);
    let created = probe(
        &world,
        json!({"op": "write", "path": "f.txt", "content": "one", "create_if_absent": true}),
    )
    .unwrap();
    assert_eq!(created["created"], true);
    let version = created["version"].clone();
    assert_eq!(
        probe(&world, json!({"op": "stat", "path": "f.txt"})).unwrap()["version"],
        version
    );
    assert_eq!(
        probe(&world, json!({"op": "read_text", "path": "f.txt"})).unwrap()["version"],
        version
    );

    let second = probe(
        &world,
        json!({"op": "write", "path": "f.txt", "content": "two", "replace_if_version": version}),
    )
    .unwrap();
    assert_eq!(second["created"], false);
    let edited = probe(
        &world,
        json!({"op": "edit", "path": "f.txt", "old": "two", "new": "three", "expected": second["version"]}),
    )
    .unwrap();
    assert_eq!(edited["replacements"], 1);
    assert_eq!(std::fs::read_to_string(ws.join("f.txt")).unwrap(), "three");
}

/// Set a file's atime two days back (this changes its ctime: do it before observing).
fn age_atime(path: &Path) {
    let old = SystemTime::now() - Duration::from_secs(2 * 24 * 3600);
    std::fs::File::open(path)
        .unwrap()
        .set_times(FileTimes::new().set_accessed(old))
        .unwrap();
}

fn atime(path: &Path) -> i64 {
    std::fs::metadata(path).unwrap().atime()
}

/// Reading updates atime (relatime does once it is a day old) and nothing else: no conflict.
#[test]
fn no_false_conflict_after_an_atime_only_change() {
    let (_dir, ws) = scratch();
    let path = ws.join("f.txt");
    std::fs::write(&path, "content").unwrap();
    age_atime(&path);
    let world = probe_world(&["fs-local"], "read-only", "", &ws);
    let seen = probe(&world, json!({"op": "stat", "path": "f.txt"})).unwrap();
    let before = atime(&path);
    std::fs::read(&path).unwrap();
    assert_ne!(atime(&path), before, "the read changed atime");
    assert_eq!(
        probe(&world, json!({"op": "stat", "path": "f.txt"})).unwrap()["version"],
        seen["version"]
    );
    let written = probe(
        &world,
        json!({"op": "write", "path": "f.txt", "content": "new", "replace_if_version": seen["version"]}),
    );
    assert!(written.is_ok(), "{written:?}");

    // Our own read updates atime while it reads: the observation and the edit agree.
    age_atime(&path);
    let before = atime(&path);
    let tools = tool_world(&["fs-observation-policy", "fs-local"], "read-only", "", &ws);
    assert!(!call_as(&tools, "s", "read", json!({"file_path": "f.txt"})).is_error);
    assert_ne!(atime(&path), before, "the tool's read changed atime");
    let edit = call_as(
        &tools,
        "s",
        "edit",
        json!({"file_path": "f.txt", "old_string": "new", "new_string": "newer"}),
    );
    assert!(!edit.is_error, "{edit:?}");
}

#[test]
fn a_true_conflict_after_an_external_write() {
    let (_dir, ws) = scratch();
    std::fs::write(ws.join("f.txt"), "aaaa").unwrap();
    let world = probe_world(&["fs-local"], "read-only", "", &ws);
    let read = probe(&world, json!({"op": "read_text", "path": "f.txt"})).unwrap();
    // Same size, same inode, right after our read: only the timestamps can tell. (Kernels
    // since 6.13 give a change right after a stat a fresh fine-grained ctime.)
    std::fs::OpenOptions::new()
        .write(true)
        .open(ws.join("f.txt"))
        .and_then(|mut f| std::io::Write::write_all(&mut f, b"bbbb"))
        .unwrap();
    let write = json!({"op": "write", "path": "f.txt", "content": "mine", "replace_if_version": read["version"]});
    assert_eq!(probe_code(&world, write), "FS_VERSION_MISMATCH");
    let edit = json!({"op": "edit", "path": "f.txt", "old": "bbbb", "new": "c", "expected": read["version"]});
    assert_eq!(probe_code(&world, edit), "FS_VERSION_MISMATCH");
    assert_eq!(
        std::fs::read_to_string(ws.join("f.txt")).unwrap(),
        "bbbb",
        "nothing was written"
    );

    // A file that vanished is a conflict too, and create-if-absent never replaces.
    std::fs::remove_file(ws.join("f.txt")).unwrap();
    let gone = json!({"op": "write", "path": "f.txt", "content": "x", "replace_if_version": read["version"]});
    assert_eq!(probe_code(&world, gone), "FS_VERSION_MISMATCH");
    std::fs::write(ws.join("g.txt"), "theirs").unwrap();
    let create = json!({"op": "write", "path": "g.txt", "content": "mine", "create_if_absent": true});
    assert_eq!(probe_code(&world, create), "FS_EXISTS");
    assert_eq!(std::fs::read_to_string(ws.join("g.txt")).unwrap(), "theirs");
}
