//! Shared test helpers: one runtime per test binary, worlds from TOML text, calls.

use seam_host::world::builtin::ARTIFACTS_DIR;
use seam_host::{Runtime, ToolResult, World, WorldError, WorldFile};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

pub fn runtime() -> &'static Arc<Runtime> {
    static RUNTIME: OnceLock<Arc<Runtime>> = OnceLock::new();
    RUNTIME.get_or_init(|| Runtime::new().expect("the wasm runtime starts"))
}

/// A test-fixture component built from components/fixtures/.
pub fn fixture(name: &str) -> PathBuf {
    let path = Path::new(ARTIFACTS_DIR).join(format!("{}.wasm", name.replace('-', "_")));
    assert!(path.exists(), "fixture {} was not built", path.display());
    path
}

/// Load a world from TOML text (relative paths from `base`).
pub fn try_world(toml: &str, workspace: &Path) -> Result<World, WorldError> {
    let file = WorldFile::parse(toml, "test world", workspace).expect("the test world file parses");
    World::load(runtime(), file, Some(workspace))
}

pub fn world(toml: &str, workspace: &Path) -> World {
    try_world(toml, workspace).unwrap_or_else(|e| panic!("[{}] {e}", e.code()))
}

/// The built-in default world, on `workspace`.
pub fn default_world(workspace: &Path) -> World {
    World::load(runtime(), WorldFile::default_world(), Some(workspace)).expect("the default world loads")
}

pub fn call(world: &World, tool: &str, args: serde_json::Value) -> ToolResult {
    world.call(tool, &args.to_string(), world.call_context("test"))
}

/// Run bash through the default world's bash tool.
pub fn bash(world: &World, command: &str) -> ToolResult {
    call(world, "bash", serde_json::json!({ "command": command }))
}

/// Run `seam --workspace DIR call --batch` on `lines` (one JSON call each) and return its
/// answers, one JSON result per line.
pub fn batch(workspace: &Path, lines: &[serde_json::Value]) -> Vec<serde_json::Value> {
    run_batch(batch_command(workspace), lines)
}

/// `seam --workspace DIR call --batch`, for a test to adjust before [`run_batch`].
pub fn batch_command(workspace: &Path) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_seam"));
    command.args([
        "--workspace",
        workspace.to_str().expect("a UTF-8 path"),
        "call",
        "--batch",
    ]);
    command
}

/// The `seam` binary as a command, run as nobody when the tests run as root: root may read and
/// write anything, which hides what a permission check does.
pub fn seam_without_root() -> std::process::Command {
    if !nix::unistd::geteuid().is_root() {
        return std::process::Command::new(env!("CARGO_BIN_EXE_seam"));
    }
    let mut command = std::process::Command::new("setpriv");
    command.args([
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
        "--",
        env!("CARGO_BIN_EXE_seam"),
    ]);
    command
}

/// The cache directory of the runtime these tests share, by its canonical path.
pub fn host_cache() -> PathBuf {
    let cache = seam_host::world::cache::ComponentCache::default_dir().expect("tests run with a cache directory");
    std::fs::canonicalize(cache).expect("the shared runtime has compiled into its cache")
}

/// Run `command` as a user whose home directory is `home`, with the compiled components of
/// this test run's own cache (a fresh home would compile every component again).
pub fn as_user_at_home(command: &mut std::process::Command, home: &Path) {
    if let Some(cache) = seam_host::world::cache::ComponentCache::default_dir() {
        command.env("SEAM_CACHE_DIR", cache);
    }
    command.env("HOME", home);
}

/// `seam call --batch` on `workspace`, running, fed one line at a time: the process, its
/// input (closing it ends the batch) and its answers.
pub fn live_batch(
    workspace: &Path,
) -> (
    std::process::Child,
    std::process::ChildStdin,
    std::io::BufReader<std::process::ChildStdout>,
) {
    let mut seam = batch_command(workspace)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("seam starts");
    let (input, answers) = (seam.stdin.take().unwrap(), seam.stdout.take().unwrap());
    (seam, input, std::io::BufReader::new(answers))
}

/// Feed `lines` to a batch command and return its answers, one JSON result per line.
pub fn run_batch(mut command: std::process::Command, lines: &[serde_json::Value]) -> Vec<serde_json::Value> {
    use std::io::Write;
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let mut child = command
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("seam starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    stdin.write_all(input.as_bytes()).expect("write the batch");
    drop(stdin);
    let out = child.wait_with_output().expect("seam ends");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON result per line"))
        .collect()
}

/// The first text of a JSON tool result (as `seam call --json` and `--batch` print it).
pub fn first_text(result: &serde_json::Value) -> String {
    result["content"][0]["text"].as_str().unwrap_or_default().to_string()
}

/// Processes whose command line contains `marker`, with their state letter from /proc.
pub fn processes_with(marker: &str) -> Vec<(u32, char)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        if pid == std::process::id() || !String::from_utf8_lossy(&cmdline).contains(marker) {
            continue;
        }
        let state = std::fs::read_to_string(entry.path().join("stat"))
            .ok()
            .and_then(|s| s.rsplit_once(')').and_then(|(_, rest)| rest.trim().chars().next()))
            .unwrap_or('?');
        found.push((pid, state));
    }
    found
}

/// True once `sleep <marker>` runs as `sleep` itself: a shell that execs its one command shows
/// the marker before the exec too, and while the exec sets up the new image the command line
/// reads empty for a moment.
pub fn sleep_runs(marker: &str) -> bool {
    processes_with(marker).iter().any(|(pid, _)| {
        std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|cmdline| {
            cmdline
                .split(|&b| b == 0)
                .next()
                .is_some_and(|argv0| argv0.ends_with(b"sleep"))
        })
    })
}

/// A marker no other process has: `sleep <unique>` shows it in its command line.
pub fn unique_seconds(base: u32) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or_default();
    format!("{base}.{:09}", nanos ^ std::process::id())
}

/// The number written right after the first `marker` in `text`, up to the next space.
pub fn number_after(text: &str, marker: &str) -> u64 {
    let after = text.split_once(marker).map_or("", |(_, after)| after);
    let digits = after.split(' ').next().unwrap_or_default();
    digits
        .parse()
        .unwrap_or_else(|e| panic!("no number after {marker:?} in {text:?}: {e}"))
}

/// Wait up to `limit` for `check` to hold.
pub fn eventually(limit: std::time::Duration, mut check: impl FnMut() -> bool) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < limit {
        if check() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    check()
}

/// A scratch directory outside the platform temp dir (which workspace-write leaves writable),
/// wherever the repository was cloned: under /var/tmp, else under $HOME.
pub fn outside_tmp() -> tempfile::TempDir {
    let tmp = std::fs::canonicalize(std::env::temp_dir()).unwrap_or_else(|_| std::env::temp_dir());
    let candidates = [
        PathBuf::from("/var/tmp"),
        PathBuf::from(std::env::var_os("HOME").unwrap_or_default()),
    ];
    let base = candidates
        .into_iter()
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .find(|p| p.is_dir() && !p.starts_with(&tmp))
        .expect("a writable directory outside the temp dir");
    tempfile::Builder::new()
        .prefix("seam-test-")
        .tempdir_in(base)
        .expect("create a scratch dir outside the temp dir")
}
