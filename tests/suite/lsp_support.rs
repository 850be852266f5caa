//! Helpers of the lsp suite: fixture projects copied to scratch workspaces, worlds over real
//! language servers, positions found by text, and the servers a workspace runs.

use crate::common::*;
use seam_host::{ToolResult, World};
use std::path::{Path, PathBuf};

/// The servers of the suite; rust-analyzer skips build scripts and proc macros (the fixture has
/// none) so indexing stays short.
pub const SERVERS: &str = r#"
[config.lsp-stdio.servers.rust-analyzer]
command = ["rust-analyzer"]
extensions = [".rs"]
initialization_options = { cargo = { buildScripts = { enable = false } }, procMacro = { enable = false }, checkOnSave = false }

[config.lsp-stdio.servers.typescript]
command = ["typescript-language-server", "--stdio"]
extensions = [".ts", ".tsx", ".js"]
"#;

/// The subprocess and fs providers of the local machine.
pub const LOCAL: &str = "subprocess = \"subprocess-local\"\nfs = \"fs-local\"";

/// tool-lsp over lsp-stdio, with `providers` as the subprocess and fs lines of [providers] and
/// `extra` TOML appended.
pub fn lsp_world(providers: &str, extra: &str, workspace: &Path) -> World {
    world(&world_toml(providers, extra), workspace)
}

pub fn world_toml(providers: &str, extra: &str) -> String {
    format!(
        "tools = [\"tool-lsp\"]\n[providers]\n{providers}\nlsp = \"lsp-stdio\"\n\
         policy = \"sandbox-policy\"\napproval = \"approval-never\"\n{extra}"
    )
}

/// A copy of tests/fixtures/lsp/<name> in a scratch directory (servers write caches and
/// build output next to a project), and its canonical path.
pub fn project(name: &str) -> (tempfile::TempDir, PathBuf) {
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/lsp")
        .join(name);
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&source, dir.path());
    let real = std::fs::canonicalize(dir.path()).unwrap();
    (dir, real)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The 1-based line and UTF-16 column of the `nth` (0-based) occurrence of `needle` in a file.
pub fn position(workspace: &Path, file: &str, needle: &str, nth: usize) -> (u32, u32) {
    let text = std::fs::read_to_string(workspace.join(file)).unwrap();
    let mut seen = 0;
    for (index, line) in text.lines().enumerate() {
        for (at, _) in line.match_indices(needle) {
            if seen == nth {
                let column = line[..at].encode_utf16().count();
                return (index as u32 + 1, column as u32 + 1);
            }
            seen += 1;
        }
    }
    panic!("{needle:?} occurs fewer than {} times in {file}", nth + 1)
}

pub fn lsp(world: &World, operation: &str, file: &str, (line, character): (u32, u32)) -> ToolResult {
    call(
        world,
        "lsp",
        serde_json::json!({"operation": operation, "file_path": file, "line": line, "character": character}),
    )
}

/// The text of a successful call.
pub fn answer(result: &ToolResult) -> String {
    assert!(!result.is_error, "[{:?}] {}", result.code, result.text());
    result.text()
}

/// `path:line:character-line:character` ranges of a location answer: (path, start line, start character).
pub fn starts(text: &str) -> Vec<(String, u32, u32)> {
    text.lines()
        .skip(1)
        .map(|line| {
            let (start, _) = line.rsplit_once('-').unwrap_or_else(|| panic!("not a range: {line}"));
            let mut parts = start.rsplitn(3, ':');
            let character = parts.next().unwrap().parse().unwrap();
            let line_no = parts.next().unwrap().parse().unwrap();
            (parts.next().unwrap().to_owned(), line_no, character)
        })
        .collect()
}

/// Processes running with `workspace` as their working directory whose command line contains
/// `marker`: the language servers of that workspace.
pub fn servers_in(workspace: &Path, marker: &str) -> Vec<u32> {
    processes_with(marker)
        .into_iter()
        .map(|(pid, _)| pid)
        .filter(|pid| std::fs::read_link(format!("/proc/{pid}/cwd")).is_ok_and(|cwd| cwd == workspace))
        .collect()
}

/// Kill what a test's workspace still runs (servers outlive calls by design).
pub fn stop_servers(workspace: &Path) {
    for marker in ["rust-analyzer", "typescript-language-server", "tsserver"] {
        for pid in servers_in(workspace, marker) {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid as i32),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}
