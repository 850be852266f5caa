//! Helpers of the sandbox suites: worlds whose sandbox-local chain is forced to one runner,
//! confined runs through fixture-confine-tool, workspaces on and off /tmp, and tree snapshots
//! that prove nothing changed.

use crate::common::*;
use seam_host::natives::sandbox_launch::landlock;
use seam_host::{ToolResult, World};
use serde::Deserialize;
use serde_json::json;
use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub const RUNNERS: [&str; 2] = ["bwrap", "landlock"];

/// A world with the confine fixture as its tool and sandbox-local confining with `chain`.
pub fn sandbox_world(chain: &[&str]) -> World {
    let chain: Vec<String> = chain.iter().map(|r| format!("{r:?}")).collect();
    sandbox_world_with(&format!("chain = [{}]", chain.join(", ")))
}

/// The same world with `settings` as sandbox-local's config table.
pub fn sandbox_world_with(settings: &str) -> World {
    world(&sandbox_world_toml(settings), Path::new("/"))
}

/// The world file of [`sandbox_world_with`].
pub fn sandbox_world_toml(settings: &str) -> String {
    format!(
        "tools = [{tool:?}]\n\
         [providers]\nsubprocess = \"subprocess-local\"\nsandbox = \"sandbox-local\"\n\
         [config.sandbox-local]\n{settings}\n",
        tool = fixture("fixture-confine-tool").display().to_string(),
    )
}

/// Why this kernel cannot run `runner`, for a test to print and skip; None when it can. A
/// missing bwrap binary is not a reason: scripts/setup installs it, so its absence fails.
pub fn kernel_lacks(runner: &str) -> Option<String> {
    static BWRAP: OnceLock<Option<String>> = OnceLock::new();
    match runner {
        "landlock" => (landlock::abi() == 0).then(|| "Landlock is not enabled in this kernel".to_owned()),
        "bwrap" => BWRAP
            .get_or_init(|| {
                let out = std::process::Command::new("bwrap")
                    .args(["--ro-bind", "/", "/", "--unshare-pid", "--", "true"])
                    .output()
                    .expect("bwrap is installed (scripts/setup installs bubblewrap)");
                let stderr = String::from_utf8_lossy(&out.stderr).to_lowercase();
                (!out.status.success() && stderr.contains("namespace"))
                    .then(|| format!("this kernel gives bwrap no namespaces: {stderr}"))
            })
            .clone(),
        other => panic!("no such runner {other}"),
    }
}

/// Runs `test` once per runner the kernel supports, with that runner forced.
pub fn for_each_runner(mut test: impl FnMut(&str, &World)) {
    for runner in RUNNERS {
        if let Some(reason) = kernel_lacks(runner) {
            eprintln!("skipped the {runner} case: {reason}");
            continue;
        }
        test(runner, &sandbox_world(&[runner]));
    }
}

/// What fixture-confine-tool reports about one confined run.
#[derive(Debug, Deserialize)]
pub struct Run {
    pub exit_code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub runner: Option<String>,
    pub enforcement: Option<String>,
    pub classification: String,
}

pub fn try_run(world: &World, runner: &str, mode: &str, workspace: &Path, command: &str) -> ToolResult {
    run_with(
        world,
        json!({"runner": runner, "mode": mode, "workspace": workspace, "command": command}),
    )
}

pub fn run_with(world: &World, args: serde_json::Value) -> ToolResult {
    call(world, "confine_run", args)
}

/// A run confined by `runner` that must have happened (whatever its exit code).
pub fn run(world: &World, runner: &str, mode: &str, workspace: &Path, command: &str) -> Run {
    let run = parse(try_run(world, runner, mode, workspace, command));
    assert_eq!(run.runner.as_deref(), Some(runner), "{run:?}");
    run
}

pub fn parse(result: ToolResult) -> Run {
    assert!(!result.is_error, "the confined run did not happen: {result:?}");
    serde_json::from_str(&result.text()).expect("fixture-confine-tool prints JSON")
}

/// A canonical temporary directory: under /tmp, or outside it (in the build's target/tmp),
/// since /tmp is itself writable under workspace-write.
pub struct Dir {
    _guard: tempfile::TempDir,
    pub path: PathBuf,
}

impl Dir {
    pub fn in_tmp() -> Self {
        Self::from(tempfile::tempdir().unwrap())
    }

    pub fn off_tmp() -> Self {
        Self::from(outside_tmp())
    }

    fn from(guard: tempfile::TempDir) -> Self {
        let path = std::fs::canonicalize(guard.path()).unwrap();
        assert!(!path.starts_with("/tmp") || guard.path().starts_with("/tmp"));
        Self { _guard: guard, path }
    }

    pub fn join(&self, part: &str) -> PathBuf {
        self.path.join(part)
    }

    /// A workspace with a file, a subdirectory and a file in it.
    pub fn seeded(self) -> Self {
        std::fs::write(self.join("file.txt"), "original\n").unwrap();
        std::fs::create_dir(self.join("dir")).unwrap();
        std::fs::write(self.join("dir/inner.txt"), "inner\n").unwrap();
        self
    }
}

/// Every entry below `root`: kind, size, mode, owner, mtime and content. Equal snapshots mean
/// nothing in the tree changed, metadata included.
pub fn snapshot(root: &Path) -> BTreeMap<PathBuf, String> {
    let mut entries = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(path) = stack.pop() {
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        let content = if meta.is_file() {
            String::from_utf8_lossy(&std::fs::read(&path).unwrap_or_default()).into_owned()
        } else if meta.is_symlink() {
            std::fs::read_link(&path).unwrap().display().to_string()
        } else {
            String::new()
        };
        entries.insert(
            path.clone(),
            format!(
                "{:o} {} {}:{} {}.{} {content:?}",
                meta.mode(),
                meta.len(),
                meta.uid(),
                meta.gid(),
                meta.mtime(),
                meta.mtime_nsec()
            ),
        );
        if meta.is_dir() {
            for entry in std::fs::read_dir(&path).into_iter().flatten().flatten() {
                stack.push(entry.path());
            }
        }
    }
    entries
}

/// `git` with a fixed identity, run on the host (not confined).
pub fn git(dir: &Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .args([
            "-c",
            "user.name=seam",
            "-c",
            "user.email=seam@localhost",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git is installed");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
