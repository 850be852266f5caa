//! `seam world check`

use super::Cli;
use seam_host::World;
use seam_host::world::file::Plugin;
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(cli: &Cli, file: Option<PathBuf>, json: bool) -> anyhow::Result<ExitCode> {
    let world = match super::load(cli, file) {
        Ok(world) => world,
        Err(e) if json => {
            let (code, message) = super::refusal(&e);
            say!("{}", serde_json::json!({"refused": {"code": code, "message": message}}))?;
            return Ok(ExitCode::FAILURE);
        }
        Err(e) => {
            say!("refused: {e:#}")?;
            return Ok(ExitCode::FAILURE);
        }
    };
    let graph = world.graph();
    if json {
        let mut nodes = serde_json::to_value(&graph)?;
        for node in nodes.as_array_mut().into_iter().flatten() {
            let plugin = node["component"].as_str().and_then(|name| plugin_named(&world, name));
            if let (Some(plugin), Some(node)) = (plugin, node.as_object_mut()) {
                node.insert("grants".into(), serde_json::json!(plugin.grants));
                let limits = &plugin.limits;
                let limits = serde_json::json!({"memory_mb": limits.memory_mb, "guest_time_ms": limits.guest_time_ms});
                node.insert("limits".into(), limits);
            }
        }
        say!("{}", serde_json::to_string_pretty(&nodes)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    say!(
        "world {} (workspace {}, sandbox {})",
        world.origin(),
        world.workspace().display(),
        world.sandbox_mode().as_str()
    )?;
    for node in &graph {
        match plugin_named(&world, &node.component) {
            Some(plugin) => say!("{} [plugin] {}", node.component, grants_and_limits(plugin))?,
            None => say!("{} [{}]", node.component, node.role)?,
        }
        let wasi = node
            .imports
            .iter()
            .filter(|(import, _)| import.starts_with("wasi:"))
            .count();
        for (import, served_by) in node.imports.iter().filter(|(import, _)| !import.starts_with("wasi:")) {
            say!("    {import} <- {served_by}")?;
        }
        if wasi > 0 {
            say!("    wasi:* ({wasi} interfaces) <- host (WASI, nothing granted)")?;
        }
    }
    let tools: Vec<&str> = world.tools().iter().map(|t| t.name.as_str()).collect();
    if tools.is_empty() {
        say!("tools: none (list components under `tools` or add `[[plugins]]`)")?;
    } else {
        say!("tools: {}", tools.join(", "))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn plugin_named<'w>(world: &'w World, component: &str) -> Option<&'w Plugin> {
    world.plugins().iter().find(|p| p.component.name() == component)
}

/// `grants: fs; limits: 64 MB, 2000 ms per call`
fn grants_and_limits(plugin: &Plugin) -> String {
    let grants = if plugin.grants.is_empty() {
        "none".to_string()
    } else {
        plugin.grants.join(", ")
    };
    format!(
        "grants: {grants}; limits: {} MB, {} ms per call",
        plugin.limits.memory_mb, plugin.limits.guest_time_ms
    )
}
