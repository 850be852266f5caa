//! What is not a regular file is refused clearly, and writing through a symlink keeps the link.

use crate::fs_support::*;
use serde_json::json;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::time::{Duration, Instant};

#[test]
fn fifo_and_device_targets_are_refused_clearly() {
    let (_dir, ws) = scratch();
    nix::unistd::mkfifo(&ws.join("pipe"), nix::sys::stat::Mode::S_IRWXU).unwrap();
    std::fs::create_dir(ws.join("dir")).unwrap();
    let world = probe_world(&["fs-local"], "read-only", "", &ws);
    let start = Instant::now();
    for path in [s(&ws.join("pipe")), "/dev/null".to_string(), "/dev/zero".to_string()] {
        assert_eq!(
            probe_code(&world, json!({"op": "read_text", "path": path})),
            "FS_NOT_A_FILE",
            "{path}"
        );
        assert_eq!(
            probe_code(&world, json!({"op": "read_bytes", "path": path, "max_bytes": 10})),
            "FS_NOT_A_FILE"
        );
        assert_eq!(
            probe_code(&world, json!({"op": "write", "path": path, "content": "x"})),
            "FS_NOT_A_FILE"
        );
        let edit = json!({"op": "edit", "path": path, "old": "a", "new": "b"});
        assert_eq!(probe_code(&world, edit), "FS_NOT_A_FILE");
    }
    assert!(start.elapsed() < Duration::from_secs(5), "nothing blocked on the fifo");
    assert_eq!(
        probe_code(&world, json!({"op": "read_text", "path": "dir"})),
        "FS_IS_A_DIRECTORY"
    );
    assert_eq!(
        probe_code(&world, json!({"op": "write", "path": "dir", "content": "x"})),
        "FS_IS_A_DIRECTORY"
    );
    assert_eq!(
        probe(&world, json!({"op": "stat", "path": "pipe"})).unwrap()["kind"],
        "fifo"
    );
    assert_eq!(
        probe(&world, json!({"op": "stat", "path": "/dev/null"})).unwrap()["kind"],
        "char-device"
    );

    // The tool says what the target is.
    let tools = tool_world(&["fs-local"], "read-only", "", &ws);
    let read = call_as(&tools, "s", "read", json!({"file_path": "pipe"}));
    assert_eq!(code(&read), Some("FS_NOT_A_FILE"));
    assert!(read.text().contains("fifo"), "{}", read.text());
}

#[test]
fn writes_through_a_symlink_keep_the_link_and_the_mode() {
    let (_dir, ws) = scratch();
    std::fs::create_dir(ws.join("real")).unwrap();
    std::fs::write(ws.join("real/conf"), "old").unwrap();
    std::fs::set_permissions(ws.join("real/conf"), std::fs::Permissions::from_mode(0o600)).unwrap();
    symlink("real/conf", ws.join("link")).unwrap();
    symlink(ws.join("real/later"), ws.join("dangling")).unwrap();
    let world = tool_world(&["fs-local"], "read-only", "", &ws);

    let write = call_as(&world, "s", "write", json!({"file_path": "link", "content": "new"}));
    assert!(!write.is_error, "{write:?}");
    let edit = call_as(
        &world,
        "s",
        "edit",
        json!({"file_path": "link", "old_string": "new", "new_string": "newer"}),
    );
    assert!(!edit.is_error, "{edit:?}");
    assert!(
        std::fs::symlink_metadata(ws.join("link"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_link(ws.join("link")).unwrap(),
        std::path::Path::new("real/conf")
    );
    assert_eq!(std::fs::read_to_string(ws.join("real/conf")).unwrap(), "newer");
    let mode = std::fs::metadata(ws.join("real/conf")).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);

    // A dangling link is written through: its target is created and the link now resolves.
    let created = call_as(
        &world,
        "s",
        "write",
        json!({"file_path": "dangling", "content": "made"}),
    );
    assert!(!created.is_error, "{created:?}");
    assert!(
        std::fs::symlink_metadata(ws.join("dangling"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(ws.join("real/later")).unwrap(), "made");
    let mut names: Vec<String> = std::fs::read_dir(ws.join("real"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["conf", "later"], "no staging left beside the targets");
}
