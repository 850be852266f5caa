//! Git metadata under workspace-write: a confined command must not plant hooks or config that
//! run later, when git runs outside the sandbox. bwrap keeps them read-only (also in a
//! worktree, also when the hooks dir is missing or moved by core.hooksPath) while git itself
//! keeps working; Landlock cannot carve read-only holes in a writable root, and says so. The
//! host's own cache, which holds what the host runs unconfined, is kept read-only the same way.

use crate::sandbox_support::*;
use std::path::Path;

const PLANT: &[&str] = &[
    "echo 'touch /tmp/pwned' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit",
    "printf '[core]\\n\\thooksPath = /tmp/evil\\n' >> .git/config",
    "rm -rf .git/hooks",
    "mv .git/hooks .git/hooks-gone",
    "mv .git .git-gone && mkdir -p .git/hooks",
];

fn repository() -> Dir {
    let dir = Dir::off_tmp().seeded();
    git(&dir.path, &["init", "-q"]);
    git(&dir.path, &["add", "."]);
    git(&dir.path, &["commit", "-qm", "seed"]);
    dir
}

fn git_metadata(dir: &Path) -> Vec<String> {
    let mut views = vec![format!("{:?}", snapshot(&dir.join(".git/hooks")))];
    views.push(std::fs::read_to_string(dir.join(".git/config")).unwrap_or_default());
    views
}

#[test]
fn bwrap_keeps_hooks_and_config_read_only_and_git_working() {
    if let Some(reason) = kernel_lacks("bwrap") {
        return eprintln!("skipped: {reason}");
    }
    let world = sandbox_world(&["bwrap"]);
    let repo = repository();
    let before = git_metadata(&repo.path);
    for attempt in PLANT {
        let run = run(&world, "bwrap", "workspace-write", &repo.path, attempt);
        assert_ne!(run.exit_code, Some(0), "`{attempt}` succeeded: {run:?}");
        assert!(repo.join(".git/HEAD").exists(), "`{attempt}` moved .git away");
    }
    assert_eq!(before, git_metadata(&repo.path));
    let commit = run(
        &world,
        "bwrap",
        "workspace-write",
        &repo.path,
        "echo more >> file.txt && git add file.txt && \
         git -c user.name=seam -c user.email=seam@localhost commit -qm more && git log --oneline | wc -l",
    );
    assert_eq!((commit.exit_code, commit.stdout.trim()), (Some(0), "2"), "{commit:?}");
    assert_eq!(commit.enforcement.as_deref(), Some("full"));
}

#[test]
fn bwrap_keeps_a_missing_hooks_dir_from_being_created() {
    if let Some(reason) = kernel_lacks("bwrap") {
        return eprintln!("skipped: {reason}");
    }
    let world = sandbox_world(&["bwrap"]);
    let repo = repository();
    std::fs::remove_dir_all(repo.join(".git/hooks")).unwrap();
    let run = run(
        &world,
        "bwrap",
        "workspace-write",
        &repo.path,
        "mkdir -p .git/hooks; echo evil > .git/hooks/pre-commit",
    );
    assert_ne!(run.exit_code, Some(0), "{run:?}");
    // The empty read-only mount leaves its (empty) mount point behind, as `git init` would.
    let hooks = repo.join(".git/hooks");
    assert!(!hooks.exists() || std::fs::read_dir(&hooks).unwrap().next().is_none());
}

#[test]
fn bwrap_protects_the_hooks_dir_named_by_core_hooks_path() {
    if let Some(reason) = kernel_lacks("bwrap") {
        return eprintln!("skipped: {reason}");
    }
    let world = sandbox_world(&["bwrap"]);
    let repo = repository();
    std::fs::create_dir(repo.join(".husky")).unwrap();
    std::fs::write(repo.join(".husky/pre-commit"), "npm test\n").unwrap();
    git(&repo.path, &["config", "core.hooksPath", ".husky"]);
    let run = run(
        &world,
        "bwrap",
        "workspace-write",
        &repo.path,
        "echo evil > .husky/pre-commit",
    );
    assert_eq!(run.classification, "denied", "{run:?}");
    assert_eq!(
        std::fs::read_to_string(repo.join(".husky/pre-commit")).unwrap(),
        "npm test\n"
    );
}

/// A worktree whose main repository is writable too: the `.git` file cannot be pointed
/// elsewhere, nor the main repository's hooks and config changed; its other files can.
#[test]
fn bwrap_protects_a_worktrees_git_file_and_the_metadata_it_points_to() {
    if let Some(reason) = kernel_lacks("bwrap") {
        return eprintln!("skipped: {reason}");
    }
    let world = sandbox_world(&["bwrap"]);
    let main = repository();
    let base = Dir::off_tmp();
    let worktree = base.join("wt");
    git(&main.path, &["worktree", "add", "-q", worktree.to_str().unwrap()]);
    let dot_git = std::fs::read_to_string(worktree.join(".git")).unwrap();
    let before = git_metadata(&main.path);
    let args = |command: &str| {
        serde_json::json!({
            "runner": "bwrap", "mode": "workspace-write", "workspace": worktree, "command": command,
            "writable_roots": ["/tmp", main.path],
        })
    };
    for attempt in [
        "echo 'gitdir: /tmp/evil' > .git".to_owned(),
        format!("echo evil > {}/.git/hooks/pre-commit", main.path.display()),
        format!("echo evil >> {}/.git/config", main.path.display()),
    ] {
        let run = parse(run_with(&world, args(&attempt)));
        assert_eq!(run.classification, "denied", "`{attempt}`: {run:?}");
    }
    let allowed = parse(run_with(
        &world,
        args(&format!("echo ok > {}/note", main.path.display())),
    ));
    assert_eq!(allowed.exit_code, Some(0), "{allowed:?}");
    assert_eq!(std::fs::read_to_string(worktree.join(".git")).unwrap(), dot_git);
    assert_eq!(before, git_metadata(&main.path));
}

/// What Landlock really does: a writable workspace's hooks are writable too, and the runner
/// reports partial enforcement instead of claiming otherwise.
#[test]
fn landlock_cannot_protect_hooks_inside_the_workspace_and_reports_partial() {
    if let Some(reason) = kernel_lacks("landlock") {
        return eprintln!("skipped: {reason}");
    }
    let world = sandbox_world(&["landlock"]);
    let repo = repository();
    let run = run(
        &world,
        "landlock",
        "workspace-write",
        &repo.path,
        "echo planted > .git/hooks/pre-commit",
    );
    assert_eq!(run.exit_code, Some(0), "{run:?}");
    assert_eq!(run.enforcement.as_deref(), Some("partial"));
    assert_eq!(
        std::fs::read_to_string(repo.join(".git/hooks/pre-commit")).unwrap(),
        "planted\n"
    );
}

/// The host's cache holds what the host later runs unconfined (compiled components, the
/// Landlock launcher): like git's hooks, bwrap keeps it read-only when a writable root holds it.
#[test]
fn bwrap_keeps_the_hosts_cache_read_only_inside_a_writable_root() {
    if let Some(reason) = kernel_lacks("bwrap") {
        return eprintln!("skipped: {reason}");
    }
    let world = sandbox_world(&["bwrap"]);
    let cache = crate::common::host_cache();
    let workspace = Dir::off_tmp().seeded();
    let planted = cache.join(format!("planted-{}.cwasm", std::process::id()));
    let args = |command: &str| {
        serde_json::json!({
            "runner": "bwrap", "mode": "workspace-write", "workspace": workspace.path,
            "command": command, "writable_roots": ["/tmp", cache],
        })
    };
    let run = parse(run_with(&world, args(&format!("echo evil > {}", planted.display()))));
    assert_eq!(run.classification, "denied", "{run:?}");
    assert!(!planted.exists());
    let allowed = parse(run_with(&world, args("echo ok > note")));
    assert_eq!(allowed.exit_code, Some(0), "{allowed:?}");
    assert_eq!(std::fs::read_to_string(workspace.join("note")).unwrap(), "ok\n");
}
