//! The example plugins of the three kits (target/plugins/, built by scripts/build-plugins) with
//! a warm compiled-component cache: `_instantiate` is a fresh lane instantiating the plugin
//! and the fs provider it reads through; `_new_lane_call` is a whole call as the host serves
//! it, in a fresh lane: instantiation plus the plugin's first call, reading a small file.
//! Python and JS are measured against the Rust plugin. Last, a world with all three loaded
//! with a warm cache (what `seam` start-up and a hot swap pay for them).

use super::{Row, median, time};
use crate::{Runtime, World, WorldFile};
use std::path::{Path, PathBuf};
use std::sync::Arc;

struct Example {
    plugin: &'static str,
    args: &'static str,
    instantiate_row: &'static str,
    call_row: &'static str,
    goal: &'static str,
}

const EXAMPLES: [Example; 3] = [
    Example {
        plugin: "wc",
        args: r#"{"path": "data.md"}"#,
        instantiate_row: "plugin_rust_instantiate",
        call_row: "plugin_rust_new_lane_call",
        goal: "—",
    },
    Example {
        plugin: "json_query",
        args: r#"{"path": "data.json", "query": "items.1.name"}"#,
        instantiate_row: "plugin_python_instantiate",
        call_row: "plugin_python_new_lane_call",
        goal: "≤ 2 ms",
    },
    Example {
        plugin: "markdown_outline",
        args: r#"{"path": "data.md"}"#,
        instantiate_row: "plugin_js_instantiate",
        call_row: "plugin_js_new_lane_call",
        goal: "≤ 2 ms",
    },
];

/// Rows for the plugins that are built; when none is, a line on stderr says how to build them.
pub(super) fn rows(runtime: &Arc<Runtime>, repository: &Path, n: u32) -> anyhow::Result<Vec<Row>> {
    let built = repository.join("target/plugins");
    if !EXAMPLES.iter().all(|e| wasm(&built, e.plugin).exists()) {
        eprintln!(
            "plugin rows skipped: the example plugins are not in {} (run scripts/build-plugins)",
            built.display()
        );
        return Ok(Vec::new());
    }
    let scratch = std::env::temp_dir().join(format!("seam-bench-plugins-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)?;
    let measured = measure(runtime, &built, &scratch, n);
    let _ = std::fs::remove_dir_all(&scratch);
    measured
}

fn measure(runtime: &Arc<Runtime>, built: &Path, scratch: &Path, n: u32) -> anyhow::Result<Vec<Row>> {
    std::fs::write(
        scratch.join("data.json"),
        r#"{"items": [{"name": "a"}, {"name": "b"}]}"#,
    )?;
    std::fs::write(
        scratch.join("data.md"),
        "# Title\n\nSome words.\n## Part\nMore words.\n",
    )?;
    let mut rust = None;
    let mut rows = Vec::new();
    for example in &EXAMPLES {
        let world = plugins_world(runtime, &[wasm(built, example.plugin)], scratch)?;
        let instantiate = median_ms(n, || {
            world.instantiate_all().expect("the plugin instantiates");
        });
        let call = median_ms(n, || {
            let result = world.call(example.plugin, example.args, world.call_context("bench"));
            assert!(!result.is_error, "{}: {}", example.plugin, result.text());
        });
        let (rust_instantiate, rust_call) = *rust.get_or_insert((instantiate, call));
        rows.push(Row::versus(
            example.instantiate_row,
            instantiate,
            rust_instantiate,
            "ms",
            example.goal,
        ));
        rows.push(Row::versus(example.call_row, call, rust_call, "ms", example.goal));
    }
    // Reading and hashing each component file, then mapping its compiled form from the cache.
    let all: Vec<PathBuf> = EXAMPLES.iter().map(|e| wasm(built, e.plugin)).collect();
    let load = median_ms(n.min(20), || {
        plugins_world(runtime, &all, scratch).expect("the plugins world loads");
    });
    rows.push(Row {
        name: "plugins_world_cached_load",
        value: load,
        baseline: None,
        ratio: None,
        unit: "ms",
        goal: "≤ 100 ms",
    });
    Ok(rows)
}

fn wasm(built: &Path, plugin: &str) -> PathBuf {
    built.join(format!("{plugin}.wasm"))
}

/// The plugins granted fs over fs-local; loading compiles them into the cache if needed.
fn plugins_world(runtime: &Arc<Runtime>, plugins: &[PathBuf], workspace: &Path) -> anyhow::Result<World> {
    let mut text = String::from("[providers]\nfs = \"fs-local\"\n");
    for plugin in plugins {
        let path = plugin.display().to_string();
        text.push_str(&format!("[[plugins]]\npath = {path:?}\ngrants = [\"fs\"]\n"));
    }
    let file = WorldFile::parse(&text, "<plugin bench world>", workspace)?;
    Ok(World::load(runtime, file, Some(workspace))?)
}

/// Median of `n` runs after one warm-up, in ms.
fn median_ms(n: u32, mut f: impl FnMut()) -> f64 {
    f();
    median((0..n).map(|_| time(&mut f).as_secs_f64() * 1e3).collect())
}
