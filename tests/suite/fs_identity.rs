//! Path identity: aliases through symlinks share one key and keep their display paths, relative
//! and absolute paths name one target, the cwd is a default and not a fence; stat, lstat,
//! containment, text and byte reads on real files.

use crate::fs_support::*;
use serde_json::json;
use std::os::unix::fs::symlink;

#[test]
fn symlink_aliases_share_one_key_and_keep_their_display_paths() {
    let (_dir, ws) = scratch();
    std::fs::create_dir(ws.join("real")).unwrap();
    std::fs::write(ws.join("real/a.txt"), "a").unwrap();
    symlink(ws.join("real/a.txt"), ws.join("file-link")).unwrap();
    symlink("real", ws.join("dir-link")).unwrap();
    let world = probe_world(&["fs-local"], "read-only", "", &ws);

    let direct = probe(&world, json!({"op": "resolve", "path": s(&ws.join("real/a.txt"))})).unwrap();
    let via_file = probe(&world, json!({"op": "resolve", "path": "file-link"})).unwrap();
    let via_dir = probe(&world, json!({"op": "resolve", "path": "dir-link/a.txt"})).unwrap();
    assert_eq!(direct["key"], via_file["key"]);
    assert_eq!(direct["key"], via_dir["key"]);
    assert_eq!(via_file["display_path"], s(&ws.join("file-link")));
    assert_eq!(via_dir["display_path"], s(&ws.join("dir-link/a.txt")));

    let process_path = probe(&world, json!({"op": "process_path", "target": via_dir})).unwrap();
    assert_eq!(process_path, s(&ws.join("real/a.txt")));
    let url = probe(&world, json!({"op": "file_url", "target": via_dir})).unwrap();
    assert_eq!(url, format!("file://{}", s(&ws.join("real/a.txt"))));
}

/// A `..` after a symlink leaves the link's target, as it does for every program (`cat`), not
/// the link: the file tools and bash name the same file. Such a path is shown resolved.
#[test]
fn dot_dot_after_a_symlink_leaves_its_target() {
    let (_dir, root) = scratch();
    let (ws, out) = (root.join("ws"), root.join("out"));
    std::fs::create_dir_all(out.join("deep")).unwrap();
    std::fs::create_dir(&ws).unwrap();
    std::fs::write(ws.join("o.txt"), "inside").unwrap();
    std::fs::write(out.join("o.txt"), "outside").unwrap();
    symlink(out.join("deep"), ws.join("lnk")).unwrap();
    let world = probe_world(&["fs-local"], "read-only", "", &ws);
    let through = probe(&world, json!({"op": "resolve", "path": "lnk/../o.txt"})).unwrap();
    assert_eq!(through["key"], s(&out.join("o.txt")));
    assert_eq!(through["display_path"], s(&out.join("o.txt")));
    let plain = probe(&world, json!({"op": "resolve", "path": "sub/./../o.txt"})).unwrap();
    assert_eq!(plain["key"], s(&ws.join("o.txt")));
}

#[test]
fn relative_and_absolute_paths_name_one_target_and_the_cwd_is_no_fence() {
    let (_dir, root) = scratch();
    let ws = root.join("ws");
    std::fs::create_dir_all(ws.join("sub")).unwrap();
    std::fs::write(ws.join("sub/a.txt"), "a").unwrap();
    std::fs::write(root.join("outside.txt"), "beyond the cwd").unwrap();
    let world = probe_world(&["fs-local"], "read-only", "", &ws);

    let key = |args| probe(&world, args).unwrap()["key"].clone();
    let absolute = key(json!({"op": "resolve", "path": s(&ws.join("sub/a.txt"))}));
    assert_eq!(key(json!({"op": "resolve", "path": "sub/a.txt"})), absolute);
    assert_eq!(key(json!({"op": "resolve", "path": "./sub/../sub//a.txt"})), absolute);
    assert_eq!(
        key(json!({"op": "resolve", "path": "a.txt", "cwd": s(&ws.join("sub"))})),
        absolute
    );

    let outside = probe(&world, json!({"op": "resolve", "path": "../outside.txt"})).unwrap();
    assert_eq!(outside["display_path"], s(&root.join("outside.txt")));
    let read = probe(&world, json!({"op": "read_text", "target": outside})).unwrap();
    assert_eq!(read["content"], "beyond the cwd");

    let code = probe_code(&world, json!({"op": "resolve", "path": "rel", "cwd": "not-absolute"}));
    assert_eq!(code, "FS_INVALID_PATH");
    assert_eq!(
        probe_code(&world, json!({"op": "resolve", "path": ""})),
        "FS_INVALID_PATH"
    );
}

#[test]
fn lstat_does_not_follow_the_final_symlink_and_stat_does() {
    let (_dir, ws) = scratch();
    std::fs::write(ws.join("real"), "12345").unwrap();
    symlink(ws.join("real"), ws.join("link")).unwrap();
    let world = probe_world(&["fs-local"], "read-only", "", &ws);
    let lstat = probe(&world, json!({"op": "lstat", "path": "link"})).unwrap();
    let stat = probe(&world, json!({"op": "stat", "path": "link"})).unwrap();
    assert_eq!(lstat["kind"], "symlink");
    assert_eq!((stat["kind"].as_str(), stat["size"].as_u64()), (Some("file"), Some(5)));
    assert_eq!(
        probe_code(&world, json!({"op": "stat", "path": "missing"})),
        "FS_NOT_FOUND"
    );
}

#[test]
fn containment_is_judged_on_canonical_identity() {
    let (_dir, root) = scratch();
    let ws = root.join("ws");
    std::fs::create_dir_all(ws.join("sub")).unwrap();
    std::fs::create_dir(root.join("ws-other")).unwrap();
    symlink(root.join("ws-other"), ws.join("escape")).unwrap();
    let world = probe_world(&["fs-local"], "read-only", "", &ws);
    let target = |path: String| probe(&world, json!({"op": "resolve", "path": path})).unwrap();
    let contains = |child: String| {
        probe(
            &world,
            json!({"op": "contains", "target": target(s(&ws)), "other": target(child)}),
        )
        .unwrap()
    };
    assert_eq!(contains(s(&ws.join("sub/new.txt"))), true);
    assert_eq!(contains(s(&ws)), true);
    assert_eq!(contains(s(&root.join("ws-other/x"))), false);
    assert_eq!(contains(s(&ws.join("escape/x"))), false);
}

#[test]
fn text_is_utf8_and_byte_reads_are_bounded() {
    let (_dir, ws) = scratch();
    std::fs::write(ws.join("text.txt"), "héllo wörld €uro\n").unwrap();
    std::fs::write(ws.join("nul.bin"), b"abc\0def").unwrap();
    std::fs::write(ws.join("latin1.txt"), b"caf\xe9").unwrap();
    let world = probe_world(&["fs-local"], "read-only", "", &ws);

    let whole = probe(&world, json!({"op": "read_text", "path": "text.txt"})).unwrap();
    assert_eq!(whole["content"], "héllo wörld €uro\n");
    for binary in ["nul.bin", "latin1.txt"] {
        assert_eq!(
            probe_code(&world, json!({"op": "read_text", "path": binary})),
            "FS_NOT_TEXT"
        );
    }
    let too_large = probe_code(&world, json!({"op": "read_text", "path": "text.txt", "max_bytes": 4}));
    assert_eq!(too_large, "FS_TOO_LARGE");
    let bytes = probe(&world, json!({"op": "read_bytes", "path": "nul.bin", "max_bytes": 7})).unwrap();
    assert_eq!(bytes["len"], 7);
    let bounded = probe_code(&world, json!({"op": "read_bytes", "path": "nul.bin", "max_bytes": 6}));
    assert_eq!(bounded, "FS_TOO_LARGE");

    // Streams cut on character boundaries and belong to one version.
    let streamed = probe(&world, json!({"op": "stream", "path": "text.txt", "chunk": 4})).unwrap();
    let chunks: Vec<&str> = streamed["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert!(chunks.iter().all(|c| !c.is_empty() && c.len() <= 4), "{chunks:?}");
    assert_eq!(chunks.concat(), "héllo wörld €uro\n");
    assert_eq!(streamed["version"], whole["version"]);
    assert_eq!(
        probe_code(&world, json!({"op": "stream", "path": "nul.bin"})),
        "FS_NOT_TEXT"
    );
}

#[test]
fn listings_are_sorted_and_do_not_follow_symlinks() {
    let (_dir, ws) = scratch();
    std::fs::write(ws.join("b.txt"), "").unwrap();
    std::fs::create_dir(ws.join("a")).unwrap();
    symlink(ws.join("a"), ws.join("c")).unwrap();
    let world = probe_world(&["fs-local"], "read-only", "", &ws);
    let listing = probe(&world, json!({"op": "list_dir", "path": "."})).unwrap();
    assert_eq!(
        listing,
        json!([{"name": "a", "kind": "dir"}, {"name": "b.txt", "kind": "file"}, {"name": "c", "kind": "symlink"}])
    );
    assert_eq!(
        probe_code(&world, json!({"op": "list_dir", "path": "b.txt"})),
        "FS_NOT_A_DIRECTORY"
    );
}
