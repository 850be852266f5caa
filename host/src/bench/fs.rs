//! The fs rows of `seam bench`: the file tools against std::fs doing the same work (fsync on
//! both sides for writes), and the search tool against running ripgrep directly.

use super::{Row, median, time};
use crate::{Runtime, World, WorldFile};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

const READ_BYTES: usize = 10 << 20;
const WRITE_BYTES: usize = 1 << 20;
/// Common enough in this repository to make ripgrep print a good deal of JSON, and rare enough
/// that every match fits the 256 KB grep shows at most (`fn ` alone no longer does).
const GREP_PATTERN: &str = "pub fn ";

/// A scratch directory under the temp dir, removed when dropped.
pub(super) struct Scratch(PathBuf);

impl Scratch {
    pub(super) fn new() -> anyhow::Result<Self> {
        let dir = std::env::temp_dir().join(format!("seam-bench-fs-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        Ok(Self(std::fs::canonicalize(dir)?))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn text_of(bytes: usize) -> String {
    let mut text = String::with_capacity(bytes + 64);
    let mut n = 0u64;
    while text.len() < bytes {
        text.push_str(&format!("line {n:08}: the quick brown fox jumps over the lazy dog\n"));
        n += 1;
    }
    text.truncate(bytes);
    text
}

fn ms(f: impl FnOnce()) -> f64 {
    time(f).as_secs_f64() * 1e3
}

/// tool-fs `read` of a 10 MB file (the whole file read and checked to be text by the provider,
/// the first window crossing to the tool and rendered) against `std::fs::read_to_string` with
/// the same NUL check.
pub(super) fn read_10mb(world: &World, scratch: &Scratch, n: u32) -> anyhow::Result<Row> {
    let path = scratch.0.join("read-10mb.txt");
    std::fs::write(&path, text_of(READ_BYTES))?;
    let args = serde_json::json!({"file_path": path}).to_string();
    let seam = || {
        let result = world.call("read", &args, world.call_context("bench"));
        assert!(!result.is_error, "read failed: {}", result.text());
    };
    let native = || {
        let text = std::fs::read_to_string(&path).expect("read the bench file");
        assert!(!text.as_bytes().contains(&0));
    };
    seam();
    native();
    let (mut through, mut direct) = (Vec::new(), Vec::new());
    for _ in 0..n {
        through.push(ms(seam));
        direct.push(ms(native));
    }
    Ok(Row::versus(
        "fs_read_10mb_vs_std_fs",
        median(through),
        median(direct),
        "ms",
        "≤ 1.5×",
    ))
}

/// tool-fs `write` of 1 MB (atomic: staging, fsync, rename, directory fsync) against the same
/// atomic publish done with std::fs.
pub(super) fn write_1mb(world: &World, scratch: &Scratch, n: u32) -> anyhow::Result<Row> {
    let content = text_of(WRITE_BYTES);
    let (tool_target, native_target) = (scratch.0.join("write-tool.txt"), scratch.0.join("write-native.txt"));
    let args = serde_json::json!({"file_path": tool_target, "content": content}).to_string();
    let seam = || {
        let result = world.call("write", &args, world.call_context("bench"));
        assert!(!result.is_error, "write failed: {}", result.text());
    };
    let native = || native_atomic_write(&scratch.0, &native_target, content.as_bytes()).expect("native write");
    seam();
    native();
    let (mut through, mut direct) = (Vec::new(), Vec::new());
    for _ in 0..n {
        through.push(ms(seam));
        direct.push(ms(native));
    }
    Ok(Row::versus(
        "fs_write_1mb_vs_std_fs",
        median(through),
        median(direct),
        "ms",
        "≤ 1.3×",
    ))
}

fn native_atomic_write(dir: &Path, target: &Path, data: &[u8]) -> std::io::Result<()> {
    let temp = dir.join(".native-write.tmp");
    let mut file = std::fs::File::create_new(&temp)?;
    file.write_all(data)?;
    file.sync_all()?;
    std::fs::rename(&temp, target)?;
    std::fs::File::open(dir)?.sync_all()
}

/// tool-fs-search `grep` (content mode, every match) over `root` against running ripgrep with
/// the same arguments.
pub(super) fn grep_tree(runtime: &Arc<Runtime>, root: &Path, n: u32) -> anyhow::Result<Row> {
    let file = WorldFile::parse(
        "tools = [\"tool-fs-search\"]\n[providers]\nsubprocess = \"subprocess-local\"\n\
         [config.tool-fs-search]\nmax_limit = 1000000\n",
        "<bench world>",
        root,
    )?;
    let world = World::load(runtime, file, Some(root))?;
    let args = serde_json::json!({
        "pattern": GREP_PATTERN, "output_mode": "content", "path": root, "limit": 1_000_000,
    })
    .to_string();
    let seam = || {
        let result = world.call("grep", &args, world.call_context("bench"));
        assert!(!result.is_error, "grep failed: {}", result.text());
        let text = result.text();
        assert!(
            !text.contains("[more results"),
            "grep was cut short at {} bytes",
            text.len()
        );
    };
    let argv = [
        "--no-config",
        "--json",
        "--sort",
        "path",
        "--regexp",
        GREP_PATTERN,
        "--",
    ];
    let native = || {
        let out = Command::new("rg").args(argv).arg(root).current_dir(root).output();
        assert!(out.is_ok_and(|o| o.status.success()), "rg failed");
    };
    seam();
    native();
    let (mut through, mut direct) = (Vec::new(), Vec::new());
    for _ in 0..n {
        through.push(ms(seam));
        direct.push(ms(native));
    }
    Ok(Row::versus(
        "grep_repo_vs_rg",
        median(through),
        median(direct),
        "ms",
        "≤ 1.2×",
    ))
}

/// This repository when the binary runs where it was built, else the workspace.
pub(super) fn repository(workspace: &Path) -> PathBuf {
    let built_in = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::canonicalize(&built_in)
        .ok()
        .filter(|root| root.join(".git").exists())
        .unwrap_or_else(|| workspace.to_path_buf())
}
