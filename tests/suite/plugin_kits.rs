//! The example plugins of the three kits (examples/plugins/: Rust `wc`, Python `json_query`,
//! JS `markdown_outline`), built by scripts/build-plugins and loaded from
//! examples/worlds/plugins.toml, called end to end on real files through the fs seam.

use crate::common::*;
use seam_host::{World, WorldFile};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const PLUGINS: [&str; 3] = ["wc", "json_query", "markdown_outline"];

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn plugins_world_file() -> PathBuf {
    for plugin in PLUGINS {
        let path = repository().join(format!("target/plugins/{plugin}.wasm"));
        assert!(
            path.exists(),
            "{} is missing: run scripts/build-plugins",
            path.display()
        );
    }
    repository().join("examples/worlds/plugins.toml")
}

/// A workspace with one file per plugin, and the plugins world on it, loaded once: the first
/// load compiles the Python and JS components (seconds), later ones come from the cache.
fn shared() -> &'static (tempfile::TempDir, World) {
    static SHARED: OnceLock<(tempfile::TempDir, World)> = OnceLock::new();
    SHARED.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("notes.txt"), "one two\nthree  é\n\nlast").unwrap();
        let config = json!({"name": "seam", "deps": [{"name": "wasmtime", "version": "48"}], "ok": true});
        std::fs::write(dir.path().join("config.json"), config.to_string()).unwrap();
        let markdown =
            "# Title\n\ntext\n## Install\n```sh\n# a comment, not a heading\n```\n### From source\n## Use ##\n";
        std::fs::write(dir.path().join("guide.md"), markdown).unwrap();
        let file = WorldFile::load(&plugins_world_file()).unwrap_or_else(|e| panic!("{e}"));
        let world = World::load(runtime(), file, Some(dir.path())).unwrap_or_else(|e| panic!("[{}] {e}", e.code()));
        (dir, world)
    })
}

fn call_ok(tool: &str, args: serde_json::Value) -> String {
    let result = call(&shared().1, tool, args);
    assert!(!result.is_error, "{tool}: [{:?}] {}", result.code, result.text());
    result.text()
}

#[test]
fn rust_wc_counts_a_file_read_through_fs() {
    assert_eq!(
        call_ok("wc", json!({"path": "notes.txt"})),
        "lines 3 words 5 chars 22 bytes 23 notes.txt"
    );
}

#[test]
fn python_json_query_selects_by_dotted_path() {
    assert_eq!(
        call_ok("json_query", json!({"path": "config.json", "query": "deps.0.version"})),
        "\"48\""
    );
    let whole: serde_json::Value =
        serde_json::from_str(&call_ok("json_query", json!({"path": "config.json"}))).unwrap();
    assert_eq!(whole["ok"], true);
    let missing = call(
        &shared().1,
        "json_query",
        json!({"path": "config.json", "query": "deps.3"}),
    );
    assert_eq!(missing.code.as_deref(), Some("JSON_NO_MATCH"), "{}", missing.text());
    assert!(missing.text().contains("an array of 1"), "{}", missing.text());
    let gap = call(
        &shared().1,
        "json_query",
        json!({"path": "config.json", "query": "deps..version"}),
    );
    assert_eq!(gap.code.as_deref(), Some("INVALID_ARGUMENTS"), "{}", gap.text());
}

#[test]
fn js_markdown_outline_lists_headings() {
    assert_eq!(
        call_ok("markdown_outline", json!({"path": "guide.md"})),
        "1: Title\n4:   Install\n8:     From source\n9:   Use"
    );
    assert_eq!(
        call_ok("markdown_outline", json!({"path": "guide.md", "max_level": 1})),
        "1: Title"
    );
}

#[test]
fn every_kit_reads_a_tilde_path_in_the_home_directory() {
    let home = tempfile::tempdir().unwrap();
    for name in ["notes.txt", "config.json", "guide.md"] {
        std::fs::copy(shared().0.path().join(name), home.path().join(name)).unwrap();
    }
    let mut command = Command::new(env!("CARGO_BIN_EXE_seam"));
    command.arg("--world").arg(plugins_world_file());
    command
        .arg("--workspace")
        .arg(shared().0.path())
        .args(["call", "--batch"]);
    as_user_at_home(&mut command, home.path());
    let answers = run_batch(
        command,
        &[
            json!({"tool": "wc", "args": {"path": "~/notes.txt"}}),
            json!({"tool": "json_query", "args": {"path": "~/config.json", "query": "name"}}),
            json!({"tool": "markdown_outline", "args": {"path": "~/guide.md", "max_level": 1}}),
            json!({"tool": "json_query", "args": {"path": "~config.json"}}),
        ],
    );
    let texts: Vec<String> = answers.iter().map(first_text).collect();
    assert_eq!(texts[0], "lines 3 words 5 chars 22 bytes 23 ~/notes.txt", "{answers:?}");
    assert_eq!(texts[1], "\"seam\"", "{answers:?}");
    assert_eq!(texts[2], "1: Title", "{answers:?}");
    // `~name` is a relative name, looked for in the workspace, as in the first-party tools.
    assert_eq!(answers[3]["code"], "FS_NOT_FOUND", "{}", answers[3]);
}

#[test]
fn refuse_bad_arguments_and_keep_seam_error_codes() {
    let world = &shared().1;
    for plugin in PLUGINS {
        let bad = call(world, plugin, json!({"path": "notes.txt", "colour": 1}));
        assert_eq!(
            bad.code.as_deref(),
            Some("INVALID_ARGUMENTS"),
            "{plugin}: {}",
            bad.text()
        );
        let wrong_type = call(world, plugin, json!({"path": 7}));
        assert_eq!(
            wrong_type.code.as_deref(),
            Some("INVALID_ARGUMENTS"),
            "{plugin}: {}",
            wrong_type.text()
        );
        // The fs provider's verdict reaches the caller with its code, whatever the kit.
        let missing = call(world, plugin, json!({"path": "absent.txt"}));
        assert_eq!(
            missing.code.as_deref(),
            Some("FS_NOT_FOUND"),
            "{plugin}: {}",
            missing.text()
        );
    }
}

#[test]
fn without_the_fs_grant_are_refused_naming_plugin_and_seam() {
    let dir = tempfile::tempdir().unwrap();
    for plugin in PLUGINS {
        let path = repository().join(format!("target/plugins/{plugin}.wasm"));
        let toml = format!(
            "[providers]\nfs = \"fs-local\"\n[[plugins]]\npath = {:?}\ngrants = []\n",
            path.display().to_string()
        );
        let Err(error) = try_world(&toml, dir.path()) else {
            panic!("{plugin} loaded without the fs grant");
        };
        assert_eq!(error.code(), "LINK_NOT_GRANTED", "{error}");
        let message = error.to_string();
        assert!(
            message.contains(&format!("plugin {plugin} ")) && message.contains("seam fs"),
            "the refusal names {plugin} and fs: {message}"
        );
    }
}

#[test]
fn load_again_from_the_compiled_component_cache() {
    let file = plugins_world_file();
    shared();
    let started = Instant::now();
    let world = World::load(runtime(), WorldFile::load(&file).unwrap(), Some(shared().0.path())).unwrap();
    let took = started.elapsed();
    // Compiling the Python and JS components takes seconds; a cached load deserializes them.
    assert!(
        took < Duration::from_secs(2),
        "a cached load of the plugins world took {took:?}"
    );
    assert_eq!(world.tools().len(), shared().1.tools().len());
}

#[test]
fn serve_through_the_seam_cli_and_world_check_shows_grants() {
    let file = plugins_world_file();
    let seam = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_seam"))
            .arg("--world")
            .arg(&file)
            .arg("--workspace")
            .arg(shared().0.path())
            .args(args)
            .output()
            .unwrap()
    };
    let out = seam(&["call", "json_query", r#"{"path": "config.json", "query": "name"}"#]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "\"seam\"\n");
    let check = seam(&["world", "check"]);
    let text = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "{text}");
    for plugin in PLUGINS {
        assert!(text.contains(&format!("{plugin} [plugin] grants: fs;")), "{text}");
    }
    let json = seam(&["world", "check", "--json"]);
    let nodes: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let wc = nodes
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["component"] == "wc")
        .unwrap();
    assert_eq!(wc["grants"], json!(["fs"]));
    assert_eq!(wc["limits"], json!({"memory_mb": 64, "guest_time_ms": 2000}));
    let tool_fs = nodes
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["component"] == "tool-fs")
        .unwrap();
    assert!(
        tool_fs.get("grants").is_none(),
        "first-party tools reach every seam: {tool_fs}"
    );
}

#[test]
fn the_readme_world_example_loads_and_serves_its_plugin() {
    plugins_world_file();
    let readme = std::fs::read_to_string(repository().join("README.md")).expect("README.md");
    let fence = "## World files\n\n```toml\n";
    let start = readme.find(fence).expect("the README shows a world file") + fence.len();
    let example = &readme[start..start + readme[start..].find("```").expect("the block ends")];
    let file = WorldFile::parse(example, "README.md", &repository()).expect("the README's world file parses");
    let workspace = tempfile::tempdir().unwrap();
    std::fs::write(workspace.path().join("words.txt"), "one two\nthree\n").unwrap();
    let world = World::load(runtime(), file, Some(workspace.path())).expect("the README's world file loads");
    let result = world.call(
        "wc",
        &json!({"path": "words.txt"}).to_string(),
        world.call_context("readme"),
    );
    assert_eq!(result.text(), "lines 2 words 3 chars 14 bytes 14 words.txt");
}
