//! The fs-sandbox fence: writes and edits judged by the sandbox mode on the canonical target,
//! re-resolved right before the write; reads never fenced.

use crate::fs_support::*;
use serde_json::{Value, json};
use std::os::unix::fs::symlink;
use std::path::Path;

/// Only the workspace writable: the temp dir (which holds the test's own dirs) is not a root.
const WORKSPACE_ONLY: &str = "[config.fs-sandbox]\nwritable_roots = []\n";

fn write(world: &seam_host::World, path: &Path) -> Result<Value, (String, String)> {
    probe(world, json!({"op": "write", "path": s(path), "content": "x"}))
}

fn is_empty(dir: &Path) -> bool {
    std::fs::read_dir(dir).unwrap().next().is_none()
}

#[test]
fn workspace_write_allows_the_workspace_and_nothing_around_it() {
    let (_dir, root) = scratch();
    let (ws, outside) = (root.join("ws"), root.join("outside"));
    std::fs::create_dir_all(ws.join("sub")).unwrap();
    std::fs::create_dir(&outside).unwrap();
    std::fs::write(outside.join("secret.txt"), "readable").unwrap();
    symlink(&outside, ws.join("escape")).unwrap();
    let world = probe_world(&["fs-sandbox", "fs-local"], "workspace-write", WORKSPACE_ONLY, &ws);

    assert!(write(&world, &ws.join("sub/new.txt")).is_ok());
    assert!(
        write(&world, &ws.join("fresh-dir/new.txt")).is_ok(),
        "parents inside are created"
    );
    let denied = |args: Value| probe_code(&world, args);
    assert_eq!(
        denied(json!({"op": "write", "path": s(&outside.join("f.txt")), "content": "x"})),
        "FS_SANDBOX_DENIED"
    );
    assert_eq!(
        denied(json!({"op": "write", "path": "../outside/f.txt", "content": "x"})),
        "FS_SANDBOX_DENIED"
    );
    assert_eq!(
        denied(json!({"op": "write", "path": "sub/../../outside/f.txt", "content": "x"})),
        "FS_SANDBOX_DENIED"
    );
    let through_link = probe(&world, json!({"op": "write", "path": "escape/f.txt", "content": "x"}));
    let leads_to = format!("(it leads to {})", s(&outside.canonicalize().unwrap().join("f.txt")));
    assert!(
        through_link
            .as_ref()
            .is_err_and(|(_, message)| message.contains(&leads_to)),
        "the denial names where the link leads: {through_link:?}"
    );
    assert_eq!(
        denied(json!({"op": "write", "path": "escape/f.txt", "content": "x"})),
        "FS_SANDBOX_DENIED"
    );
    assert_eq!(
        denied(json!({"op": "edit", "path": "escape/secret.txt", "old": "readable", "new": "x"})),
        "FS_SANDBOX_DENIED"
    );
    let names: Vec<_> = std::fs::read_dir(&outside)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["secret.txt"], "nothing was written outside");
    assert_eq!(std::fs::read_to_string(outside.join("secret.txt")).unwrap(), "readable");

    // Reads are never fenced.
    let read = probe(&world, json!({"op": "read_text", "path": "escape/secret.txt"})).unwrap();
    assert_eq!(read["content"], "readable");
    assert_eq!(probe(&world, json!({"op": "sandbox_mode"})).unwrap(), "workspace-write");
}

#[test]
fn a_symlink_swapped_in_after_resolve_is_fenced() {
    let (_dir, root) = scratch();
    let (ws, outside) = (root.join("ws"), root.join("outside"));
    std::fs::create_dir_all(ws.join("sub")).unwrap();
    std::fs::create_dir(&outside).unwrap();
    let world = probe_world(&["fs-sandbox", "fs-local"], "workspace-write", WORKSPACE_ONLY, &ws);

    let target = probe(&world, json!({"op": "resolve", "path": "sub/f.txt"})).unwrap();
    assert_eq!(target["key"], s(&ws.join("sub/f.txt")));
    std::fs::rename(ws.join("sub"), ws.join("sub-moved")).unwrap();
    symlink(&outside, ws.join("sub")).unwrap();
    let code = probe_code(&world, json!({"op": "write", "target": target, "content": "x"}));
    assert_eq!(code, "FS_SANDBOX_DENIED");
    assert!(is_empty(&outside), "the swapped-in symlink did not redirect the write");

    // Unfenced, fs-local's publish still refuses a parent that stopped being canonical.
    let local = probe_world(&["fs-local"], "read-only", "", &ws);
    assert_eq!(
        probe_code(&local, json!({"op": "write", "target": target, "content": "x"})),
        "FS_INVALID_PATH"
    );
    assert!(is_empty(&outside));
}

#[test]
fn read_only_denies_every_mutation_and_full_access_none() {
    let (_dir, root) = scratch();
    let (ws, outside) = (root.join("ws"), root.join("outside"));
    std::fs::create_dir(&ws).unwrap();
    std::fs::create_dir(&outside).unwrap();
    std::fs::write(ws.join("f.txt"), "a").unwrap();

    let read_only = probe_world(&["fs-sandbox", "fs-local"], "read-only", "", &ws);
    assert_eq!(write(&read_only, &ws.join("f.txt")).unwrap_err().0, "FS_SANDBOX_DENIED");
    assert_eq!(
        probe_code(
            &read_only,
            json!({"op": "edit", "path": "f.txt", "old": "a", "new": "b"})
        ),
        "FS_SANDBOX_DENIED"
    );
    assert_eq!(
        probe(&read_only, json!({"op": "read_text", "path": "f.txt"})).unwrap()["content"],
        "a"
    );
    assert_eq!(probe(&read_only, json!({"op": "sandbox_mode"})).unwrap(), "read-only");

    // The provider's own config overrides the world's default mode.
    let config = "[config.fs-sandbox]\nmode = \"danger-full-access\"\n";
    let full = probe_world(&["fs-sandbox", "fs-local"], "read-only", config, &ws);
    assert!(write(&full, &outside.join("f.txt")).is_ok());
    assert_eq!(std::fs::read_to_string(outside.join("f.txt")).unwrap(), "x");
}

#[test]
fn the_temp_dir_is_writable_by_default_under_workspace_write() {
    let (_dir, ws) = scratch();
    let (_other, elsewhere_in_temp) = scratch();
    // Cargo's scratch space for tests lives in target/, outside the temp dir.
    let beyond = crate::common::outside_tmp();
    let world = probe_world(&["fs-sandbox", "fs-local"], "workspace-write", "", &ws);
    assert!(write(&world, &elsewhere_in_temp.join("scratch.txt")).is_ok());
    assert_eq!(
        write(&world, &beyond.path().join("f.txt")).unwrap_err().0,
        "FS_SANDBOX_DENIED"
    );
    assert!(is_empty(beyond.path()));
}

/// The host's cache holds what the host later runs unconfined (compiled components, the
/// Landlock launcher): a writable root that holds it leaves it read-only to the file tools.
#[test]
fn workspace_write_keeps_the_hosts_cache_read_only() {
    let (_dir, ws) = scratch();
    let cache = crate::common::host_cache();
    let roots = format!("[config.fs-sandbox]\nwritable_roots = [{:?}]\n", s(&cache));
    let world = probe_world(&["fs-sandbox", "fs-local"], "workspace-write", &roots, &ws);
    let planted = cache.join(format!("planted-{}.cwasm", std::process::id()));
    let (code, message) = write(&world, &planted).unwrap_err();
    assert_eq!(code, "FS_SANDBOX_DENIED", "{message}");
    assert!(message.contains("seam's cache"), "{message}");
    assert!(!planted.exists());
    assert!(write(&world, &ws.join("f.txt")).is_ok());
}

/// git's own files stay read-only under workspace-write: git runs what its hooks and config
/// name later, outside any sandbox, and much else in `.git` steers where it finds them. In any
/// repository, whether or not they exist yet, and wherever `core.hooksPath` puts the hooks.
#[test]
fn workspace_write_keeps_git_hooks_and_config_read_only() {
    let (_dir, root) = scratch();
    let ws = root.join("ws");
    std::fs::create_dir_all(ws.join(".git/hooks")).unwrap();
    std::fs::write(ws.join(".git/config"), "[core]\n\thooksPath = .githooks\n").unwrap();
    std::fs::create_dir(ws.join(".githooks")).unwrap();
    let world = probe_world(&["fs-sandbox", "fs-local"], "workspace-write", WORKSPACE_ONLY, &ws);
    for path in [
        ".git/config",
        ".git/hooks/pre-commit",
        ".githooks/pre-commit",
        "nested/.git/config",
        "nested/.git/hooks/post-checkout",
        "worktree/.git",
        ".git/commondir",
        ".git/config.worktree",
        ".git/modules/m/hooks/pre-commit",
        ".git/info/attributes",
        ".git/objects/info/alternates",
        ".git/HEAD",
    ] {
        let result = probe(&world, json!({"op": "write", "path": path, "content": "x"}));
        assert!(
            result
                .as_ref()
                .is_err_and(|(code, message)| code == "FS_SANDBOX_DENIED" && message.contains("git's own files")),
            "{path}: {result:?}"
        );
        assert!(!ws.join(path).is_file() || path == ".git/config", "{path} was written");
    }
    assert_eq!(
        std::fs::read_to_string(ws.join(".git/config")).unwrap(),
        "[core]\n\thooksPath = .githooks\n"
    );
    for path in [
        ".gitignore",
        ".gitmodules",
        "src/config",
        "hooks/pre-commit",
        "a.git/config",
    ] {
        assert!(write(&world, &ws.join(path)).is_ok(), "{path} is an ordinary file");
    }
}
