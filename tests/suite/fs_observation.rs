//! fs-observation-policy through tool-fs: each guard, per session, and evidence that lives in
//! the host (lanes are per call) but only as long as the world that gathered it.

use crate::fs_support::*;
use serde_json::json;

const GUARDED: &[&str] = &["fs-observation-policy", "fs-sandbox", "fs-local"];

fn guarded(ws: &std::path::Path) -> seam_host::World {
    tool_world(GUARDED, "workspace-write", "", ws)
}

fn read(world: &seam_host::World, session: &str, path: &str) -> seam_host::ToolResult {
    call_as(world, session, "read", json!({"file_path": path}))
}

fn edit(world: &seam_host::World, session: &str, path: &str, old: &str, new: &str) -> seam_host::ToolResult {
    call_as(
        world,
        session,
        "edit",
        json!({"file_path": path, "old_string": old, "new_string": new}),
    )
}

fn write(world: &seam_host::World, session: &str, path: &str, content: &str) -> seam_host::ToolResult {
    call_as(world, session, "write", json!({"file_path": path, "content": content}))
}

#[test]
fn an_edit_of_an_unseen_file_is_not_observed() {
    let (_dir, ws) = scratch();
    std::fs::write(ws.join("f.txt"), "alpha").unwrap();
    let world = guarded(&ws);
    let refused = edit(&world, "s", "f.txt", "alpha", "beta");
    assert_eq!(code(&refused), Some("FS_NOT_OBSERVED"));
    assert_eq!(std::fs::read_to_string(ws.join("f.txt")).unwrap(), "alpha");
    assert!(!read(&world, "s", "f.txt").is_error);
    assert!(!edit(&world, "s", "f.txt", "alpha", "beta").is_error);
    assert_eq!(std::fs::read_to_string(ws.join("f.txt")).unwrap(), "beta");
}

#[test]
fn a_file_seen_absent_cannot_be_edited_and_is_only_created() {
    let (_dir, ws) = scratch();
    let world = guarded(&ws);
    assert_eq!(code(&read(&world, "s", "f.txt")), Some("FS_NOT_FOUND"));
    // Someone else creates it after our read: our evidence says absent.
    std::fs::write(ws.join("f.txt"), "theirs").unwrap();
    assert_eq!(
        code(&edit(&world, "s", "f.txt", "theirs", "mine")),
        Some("FS_NOT_FOUND")
    );
    assert_eq!(code(&write(&world, "s", "f.txt", "mine")), Some("FS_EXISTS"));
    assert_eq!(std::fs::read_to_string(ws.join("f.txt")).unwrap(), "theirs");
    // Seen absent and still absent: created.
    assert_eq!(code(&read(&world, "s", "g.txt")), Some("FS_NOT_FOUND"));
    assert!(!write(&world, "s", "g.txt", "new").is_error);
}

#[test]
fn a_write_of_an_unseen_file_only_creates() {
    let (_dir, ws) = scratch();
    std::fs::write(ws.join("existing.txt"), "keep me").unwrap();
    let world = guarded(&ws);
    let refused = write(&world, "s", "existing.txt", "clobbered");
    assert_eq!(code(&refused), Some("FS_EXISTS"));
    assert!(
        refused.text().contains("read it before overwriting"),
        "{}",
        refused.text()
    );
    assert_eq!(std::fs::read_to_string(ws.join("existing.txt")).unwrap(), "keep me");
    let created = write(&world, "s", "brand/new.txt", "hello");
    assert!(!created.is_error, "{created:?}");
    assert!(created.text().starts_with("Created "));
}

#[test]
fn a_write_of_a_seen_file_replaces_exactly_that_version() {
    let (_dir, ws) = scratch();
    std::fs::write(ws.join("f.txt"), "v0").unwrap();
    let world = guarded(&ws);
    assert!(!read(&world, "s", "f.txt").is_error);
    assert!(!write(&world, "s", "f.txt", "v1").is_error);
    // Our own write is new evidence: no re-read needed.
    assert!(!write(&world, "s", "f.txt", "v2").is_error);
    assert!(!edit(&world, "s", "f.txt", "v2", "v3").is_error);

    std::fs::write(ws.join("f.txt"), "external").unwrap();
    assert_eq!(code(&write(&world, "s", "f.txt", "v4")), Some("FS_VERSION_MISMATCH"));
    assert_eq!(
        code(&edit(&world, "s", "f.txt", "external", "v4")),
        Some("FS_VERSION_MISMATCH")
    );
    assert_eq!(std::fs::read_to_string(ws.join("f.txt")).unwrap(), "external");
    assert!(!read(&world, "s", "f.txt").is_error);
    assert!(!edit(&world, "s", "f.txt", "external", "v4").is_error);
}

/// An agent's parallel edits of one file: each lands on the version the others left, since the
/// session itself made those changes; none is refused as a change from elsewhere.
#[test]
fn parallel_edits_of_one_file_by_one_session_all_land() {
    let (_dir, ws) = scratch();
    let slots: String = (0..12).map(|i| format!("slot-{i}\n")).collect();
    std::fs::write(ws.join("f.txt"), &slots).unwrap();
    let world = std::sync::Arc::new(guarded(&ws));
    assert!(!read(&world, "s", "f.txt").is_error);
    let edits: Vec<_> = (0..12)
        .map(|i| {
            let world = world.clone();
            std::thread::spawn(move || edit(&world, "s", "f.txt", &format!("slot-{i}\n"), &format!("done-{i}\n")))
        })
        .collect();
    for result in edits.into_iter().map(|e| e.join().unwrap()) {
        assert!(!result.is_error, "{}", result.text());
    }
    let expected: String = (0..12).map(|i| format!("done-{i}\n")).collect();
    assert_eq!(std::fs::read_to_string(ws.join("f.txt")).unwrap(), expected);
}

#[test]
fn observations_belong_to_one_session() {
    let (_dir, ws) = scratch();
    std::fs::write(ws.join("f.txt"), "shared").unwrap();
    let world = guarded(&ws);
    assert!(!read(&world, "alice", "f.txt").is_error);
    assert_eq!(
        code(&edit(&world, "bob", "f.txt", "shared", "bob")),
        Some("FS_NOT_OBSERVED")
    );
    assert_eq!(code(&write(&world, "bob", "f.txt", "bob")), Some("FS_EXISTS"));
    assert!(!edit(&world, "alice", "f.txt", "shared", "alice").is_error);
}

#[test]
fn aliases_share_evidence_because_keys_are_canonical() {
    let (_dir, ws) = scratch();
    std::fs::write(ws.join("real.txt"), "one").unwrap();
    std::os::unix::fs::symlink(ws.join("real.txt"), ws.join("alias.txt")).unwrap();
    let world = guarded(&ws);
    assert!(!read(&world, "s", "alias.txt").is_error);
    assert!(!edit(&world, "s", &format!("{}/real.txt", ws.display()), "one", "two").is_error);
}

#[test]
fn a_newly_loaded_world_starts_without_evidence() {
    let (_dir, ws) = scratch();
    std::fs::write(ws.join("f.txt"), "a").unwrap();
    let first = guarded(&ws);
    assert!(!read(&first, "s", "f.txt").is_error);
    // Swapping providers means loading the world again: its provider state starts empty.
    let swapped = guarded(&ws);
    assert_eq!(code(&edit(&swapped, "s", "f.txt", "a", "b")), Some("FS_NOT_OBSERVED"));
    assert!(!edit(&first, "s", "f.txt", "a", "b").is_error);
}

#[test]
fn the_example_guarded_world_loads_and_fences() {
    let (_dir, ws) = scratch();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/worlds/guarded.toml");
    let file = seam_host::WorldFile::load(&path).unwrap();
    let world = seam_host::World::load(crate::common::runtime(), file, Some(&ws)).unwrap();
    let outside = crate::common::outside_tmp();
    let denied = write(&world, "s", &outside.path().join("f.txt").display().to_string(), "x");
    assert_eq!(code(&denied), Some("FS_SANDBOX_DENIED"));
    assert!(!write(&world, "s", "inside.txt", "x").is_error);
}
