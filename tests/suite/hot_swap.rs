//! A live world swapped while serving: `seam mcp` reloads its world file when it (or a component
//! file it names) changes; calls in flight finish on the old world, a refused world leaves the
//! old one serving, and provider state survives a swap only when the provider did not change.

use crate::common::*;
use seam_host::WorldFile;
use seam_host::live::LiveWorld;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Lines, Write};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::Duration;

const CLIENT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/mcp/client.py");

/// bash on the local machine, with `extra` appended (more providers, plugins, config).
fn bash_world(workspace: &str, extra: &str) -> String {
    format!(
        r#"
        workspace = {workspace:?}
        tools = ["tool-bash"]
        [providers]
        subprocess = "subprocess-local"
        shell = "bash-local"
        jobs = "jobs-local"
        policy = "sandbox-policy"
        approval = "approval-never"
        {extra}
        "#
    )
}

/// The live scenario of tests/mcp/client.py on `seam --world FILE mcp`, driven line by line.
struct Live {
    child: Child,
    lines: Lines<BufReader<ChildStdout>>,
}

impl Live {
    fn start(world: &Path) -> Self {
        let mut child = Command::new("python3")
            .arg(CLIENT)
            .arg("live")
            .arg(env!("CARGO_BIN_EXE_seam"))
            .arg("--world")
            .arg(world)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 runs (scripts/setup installs it and the mcp package)");
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        Self { child, lines }
    }

    fn say(&mut self, line: &str) {
        writeln!(self.child.stdin.as_mut().unwrap(), "{line}").unwrap();
    }

    fn next(&mut self) -> Value {
        let line = self.lines.next().expect("the client printed a line").unwrap();
        serde_json::from_str(&line).unwrap()
    }

    fn ask(&mut self, line: &str) -> Value {
        self.say(line);
        self.next()
    }

    fn bash(&mut self, command: &str) -> String {
        let out = self.ask(&format!("call {}", json!({ "command": command })));
        out["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .trim()
            .to_string()
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        self.say("quit");
        if std::thread::panicking() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Replace the world file; a sleep first, so the new modification time differs even on file
/// systems with coarse timestamps.
fn rewrite(path: &Path, text: &str) {
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_provider_swapped_under_a_stream_of_calls_loses_none_and_mixes_none() {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["a", "b"] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
    }
    let canonical = |sub: &str| {
        std::fs::canonicalize(dir.path().join(sub))
            .unwrap()
            .display()
            .to_string()
    };
    let (a, b) = (canonical("a"), canonical("b"));
    let path = dir.path().join("world.toml");
    // The new world moves the session to b and changes bash-local's config: a provider swap.
    std::fs::write(&path, bash_world("a", "[config.bash-local]\nmax_output_bytes = 65536")).unwrap();
    let mut live = Live::start(&path);
    assert_eq!(live.ask(r#"stream {"command": "pwd"}"#)["event"], "streaming");
    std::thread::sleep(Duration::from_millis(500));
    rewrite(&path, &bash_world("b", "[config.bash-local]\nmax_output_bytes = 65535"));
    std::thread::sleep(Duration::from_millis(2000));
    let out = live.ask("stop");
    assert_eq!(out["errors"], json!([]), "no call failed");
    let texts: Vec<&str> = out["texts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().trim())
        .collect();
    assert!(texts.len() > 20, "a stream of calls: {}", texts.len());
    let strays: Vec<&&str> = texts.iter().filter(|t| **t != a && **t != b).collect();
    assert!(
        strays.is_empty(),
        "every answer is the old world's or the new one's: {strays:?}"
    );
    let first_new = texts.iter().position(|t| *t == b).expect("the new world served");
    assert_eq!(texts[0], a, "the old world served first");
    // Each of the two workers may have one call admitted on the old world still running when
    // the first call on the new one finishes; nothing after that comes from the old world.
    let late_old = texts[first_new..].iter().filter(|t| **t == a).count();
    assert!(
        late_old <= 1,
        "{late_old} answers of the old world after the swap: {texts:?}"
    );
}

#[test]
fn a_broken_world_is_refused_the_old_one_keeps_serving_and_the_client_hears_why() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("world.toml");
    std::fs::write(&path, bash_world(".", "")).unwrap();
    let mut live = Live::start(&path);
    assert_eq!(live.bash("echo one"), "one");
    // A plugin whose seam no provider serves: the new world cannot link.
    let plugin = format!(
        "[[plugins]]\npath = {:?}",
        fixture("fixture-counter-tool").display().to_string()
    );
    rewrite(&path, &bash_world(".", &plugin));
    let heard = live.ask("wait log");
    let notification = &heard["notification"];
    assert_eq!(notification["level"], "error", "{heard}");
    assert_eq!(notification["data"]["code"], "LINK_MISSING", "{heard}");
    let message = notification["data"]["message"].as_str().unwrap();
    assert!(
        message.contains("fixture_counter_tool") && message.contains("acme:counter"),
        "{message}"
    );
    assert_eq!(live.bash("echo two"), "two", "the old world still serves");
    assert!(!live.ask("list")["tools"].as_array().unwrap().contains(&json!("ok")));
}

/// The counter provider and, as a plugin granted it, the counter tool (its tools: `ok`, ...).
fn counter_plugin() -> String {
    format!(
        "counter = {:?}\n[[plugins]]\npath = {:?}\ngrants = [\"counter\"]",
        fixture("fixture-counter").display().to_string(),
        fixture("fixture-counter-tool").display().to_string()
    )
}

#[test]
fn adding_a_tool_announces_the_new_tool_list() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("world.toml");
    std::fs::write(&path, bash_world(".", "")).unwrap();
    let mut live = Live::start(&path);
    assert_eq!(live.ask("list")["tools"], json!(["bash"]));
    let plugin = counter_plugin();
    rewrite(&path, &bash_world(".", &plugin));
    assert_eq!(live.ask("wait tools")["notification"]["kind"], "tools");
    let tools = live.ask("list")["tools"].clone();
    assert!(tools.as_array().unwrap().contains(&json!("ok")), "{tools}");
}

/// The guarded fs stack: an edit needs the file read first in this session, which
/// fs-observation-policy records in its state namespace.
fn fs_world(policy_generation: u32, max_output_bytes: u32) -> String {
    format!(
        r#"
        workspace = "."
        sandbox = "workspace-write"
        tools = ["tool-fs"]
        [providers]
        subprocess = "subprocess-local"
        shell = "bash-local"
        fs = ["fs-observation-policy", "fs-local"]
        policy = "sandbox-policy"
        approval = "approval-never"
        [config.fs-observation-policy]
        generation = {policy_generation}
        [config.bash-local]
        max_output_bytes = {max_output_bytes}
        "#
    )
}

#[test]
fn a_swap_clears_the_state_of_exactly_the_providers_that_changed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("world.toml");
    std::fs::write(dir.path().join("x.txt"), "one\n").unwrap();
    std::fs::write(&path, fs_world(1, 65536)).unwrap();
    let file = WorldFile::load(&path).unwrap();
    let world = seam_host::World::load(runtime(), file, None).unwrap();
    let live = LiveWorld::new(runtime().clone(), world, Some(&path), None);
    let edit = |from: &str, to: &str| {
        let args = json!({"file_path": "x.txt", "old_string": from, "new_string": to});
        call(&live.current(), "edit", args)
    };
    assert!(!call(&live.current(), "read", json!({"file_path": "x.txt"})).is_error);

    // bash-local changed, fs-observation-policy did not: the read is still on record.
    std::fs::write(&path, fs_world(1, 65535)).unwrap();
    let swapped = live.reload().unwrap();
    assert!(
        swapped.cleared.iter().any(|s| s.ends_with("/bash-local")),
        "{swapped:?}"
    );
    assert!(
        !swapped.cleared.iter().any(|s| s.ends_with("/fs-observation-policy")),
        "{swapped:?}"
    );
    let kept = edit("one", "two");
    assert!(!kept.is_error, "{}", kept.text());

    // fs-observation-policy's config changed: what it observed is forgotten.
    std::fs::write(&path, fs_world(2, 65535)).unwrap();
    let swapped = live.reload().unwrap();
    assert_eq!(swapped.cleared.len(), 1, "{swapped:?}");
    assert!(swapped.cleared[0].ends_with("/fs-observation-policy"), "{swapped:?}");
    let forgotten = edit("two", "three");
    assert_eq!(
        forgotten.code.as_deref(),
        Some("FS_NOT_OBSERVED"),
        "{}",
        forgotten.text()
    );
}

#[test]
fn a_changed_component_file_is_swapped_too() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("world.toml");
    let counter = dir.path().join("counter.wasm");
    std::fs::copy(fixture("fixture-counter"), &counter).unwrap();
    let plugin = format!(
        "counter = \"counter.wasm\"\n[[plugins]]\npath = {:?}\ngrants = [\"counter\"]",
        fixture("fixture-counter-tool").display().to_string()
    );
    std::fs::write(&path, bash_world(".", &plugin)).unwrap();
    let mut live = Live::start(&path);
    assert!(live.ask("list")["tools"].as_array().unwrap().contains(&json!("ok")));
    // Only the component changes, to a build whose interface version the tool cannot use.
    std::thread::sleep(Duration::from_millis(20));
    std::fs::copy(fixture("fixture-counter-v2"), &counter).unwrap();
    let heard = live.ask("wait log");
    assert_eq!(heard["notification"]["data"]["code"], "LINK_VERSION", "{heard}");
    assert_eq!(live.bash("echo still"), "still");
}

/// The `seam mcp` process serving `world`.
fn server_pid(world: &Path) -> u32 {
    let seam = env!("CARGO_BIN_EXE_seam");
    let world = world.display().to_string();
    for _ in 0..100 {
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            let args: Vec<String> = cmdline
                .split(|b| *b == 0)
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect();
            if args.first().is_some_and(|a| a == seam) && args.contains(&world) {
                return pid;
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("no seam process serves {world}");
}

#[test]
fn sighup_forces_a_reload_the_watcher_could_not_see() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("world.toml");
    // Both versions padded to one length, and the old modification time put back: only a
    // forced reload can notice the change.
    let padded = |text: String| format!("{text}\n{}\n", "#".repeat(2000 - text.len()));
    let plugin = format!(
        "[[plugins]]\npath = {:?}",
        fixture("fixture-counter-tool").display().to_string()
    );
    std::fs::write(&path, padded(bash_world(".", ""))).unwrap();
    let mut live = Live::start(&path);
    assert_eq!(live.bash("echo one"), "one");
    let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
    std::fs::write(&path, padded(bash_world(".", &plugin))).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    std::thread::sleep(Duration::from_millis(600));
    let status = Command::new("kill")
        .args(["-HUP", &server_pid(&path).to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let heard = live.ask("wait log");
    assert_eq!(heard["notification"]["data"]["code"], "LINK_MISSING", "{heard}");
}

/// `world`, loaded from `path`, served live and watched in this process: each swap's outcome
/// (whether the tools changed) arrives on the receiver.
fn watched(
    world: seam_host::World,
    path: &Path,
    workspace: &Path,
) -> (
    std::sync::Arc<LiveWorld>,
    std::sync::mpsc::Receiver<Result<bool, String>>,
) {
    let live = std::sync::Arc::new(LiveWorld::new(runtime().clone(), world, Some(path), Some(workspace)));
    let (swapped, swaps) = std::sync::mpsc::channel();
    seam_host::live::watch::spawn(&live, move |outcome| {
        let _ = swapped.send(outcome.map(|s| s.tools_changed).map_err(|e| e.to_string()));
    })
    .unwrap();
    (live, swaps)
}

/// A world file changed after the world was read but before watching began (while an MCP
/// client initialised, say) is seen at once, though it will not change again.
#[test]
fn a_change_made_before_watching_began_is_swapped_in() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("world.toml");
    std::fs::write(&path, bash_world(".", "")).unwrap();
    let world = seam_host::World::load(runtime(), WorldFile::load(&path).unwrap(), Some(dir.path())).unwrap();
    rewrite(&path, &bash_world(".", &counter_plugin()));
    let (live, swaps) = watched(world, &path, dir.path());
    assert_eq!(swaps.recv_timeout(Duration::from_secs(10)), Ok(Ok(true)));
    assert!(live.current().tools().iter().any(|t| t.name == "ok"));
}

/// A save that empties the file before writing it is not swapped in half-way: the empty file
/// is waited out, and what is written next serves.
#[test]
fn an_emptied_world_file_is_waited_out() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("world.toml");
    std::fs::write(&path, bash_world(".", "")).unwrap();
    let world = seam_host::World::load(runtime(), WorldFile::load(&path).unwrap(), Some(dir.path())).unwrap();
    let (live, swaps) = watched(world, &path, dir.path());
    rewrite(&path, "");
    std::thread::sleep(Duration::from_millis(600));
    assert_eq!(live.current().tools().len(), 1, "the emptied file did not swap in");
    rewrite(&path, &bash_world(".", &counter_plugin()));
    assert_eq!(swaps.recv_timeout(Duration::from_secs(10)), Ok(Ok(true)));
    assert!(live.current().tools().iter().any(|t| t.name == "ok"));
}

/// A world whose commands run confined does not swap in a world file those commands could
/// have written (in the workspace, or a temp dir): they would choose their own world. The same
/// world with its file elsewhere swaps as any other.
#[test]
fn a_confined_world_does_not_swap_in_a_file_its_commands_can_write() {
    let confined = |workspace: &Path, extra: &str| {
        format!(
            "workspace = {:?}\nsandbox = \"workspace-write\"\ntools = [\"tool-bash\"]\n\
             [providers]\nsubprocess = \"subprocess-local\"\nshell = \"bash-sandbox\"\n\
             jobs = \"jobs-local\"\nsandbox = \"sandbox-local\"\npolicy = \"sandbox-policy\"\n\
             approval = \"approval-never\"\n{extra}\n",
            workspace.display().to_string()
        )
    };
    let workspace = outside_tmp();
    let elsewhere = outside_tmp();
    // Outside the workspace by its name, inside by what it leads to.
    let linked = elsewhere.path().join("linked.toml");
    std::os::unix::fs::symlink(workspace.path().join("linked-target.toml"), &linked).unwrap();
    std::fs::write(workspace.path().join("linked-target.toml"), "").unwrap();
    for (path, swaps_in) in [
        (workspace.path().join("seam.toml"), false),
        (linked, false),
        (elsewhere.path().join("seam.toml"), true),
    ] {
        std::fs::write(&path, confined(workspace.path(), "")).unwrap();
        let world = seam_host::World::load(runtime(), WorldFile::load(&path).unwrap(), None).unwrap();
        assert!(world.confines_commands());
        let (live, swaps) = watched(world, &path, workspace.path());
        rewrite(&path, &confined(workspace.path(), &counter_plugin()));
        let swapped = swaps.recv_timeout(Duration::from_millis(if swaps_in { 10_000 } else { 1_500 }));
        assert_eq!(swapped.is_ok(), swaps_in, "{}: {swapped:?}", path.display());
        let has_plugin = live.current().tools().iter().any(|t| t.name == "ok");
        assert_eq!(has_plugin, swaps_in, "{}", path.display());
    }
}
