//! Helpers of the fs suites: worlds that put the fs probe or tool-fs over a provider stack, calls
//! in a chosen session, and canonical scratch directories.

use crate::common::*;
use seam_host::{ToolResult, World};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A temp dir and its canonical path (what targets' keys hold).
pub fn scratch() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let real = std::fs::canonicalize(dir.path()).unwrap();
    (dir, real)
}

/// `fs = ...` for a stack written outermost first.
fn providers(stack: &[&str]) -> String {
    let names: Vec<String> = stack.iter().map(|name| format!("{name:?}")).collect();
    format!("fs = [{}]", names.join(", "))
}

/// The fs probe over `stack`, in a world whose default sandbox mode is `mode`, with `extra`
/// TOML appended (config tables).
pub fn probe_world(stack: &[&str], mode: &str, extra: &str, workspace: &Path) -> World {
    let toml = format!(
        "sandbox = {mode:?}\ntools = [{:?}]\n[providers]\n{}\n{extra}",
        fixture("fixture-fs-probe").display().to_string(),
        providers(stack)
    );
    world(&toml, workspace)
}

/// tool-fs over `stack`.
pub fn tool_world(stack: &[&str], mode: &str, extra: &str, workspace: &Path) -> World {
    let toml = format!(
        "sandbox = {mode:?}\ntools = [\"tool-fs\"]\n[providers]\npolicy = \"sandbox-policy\"\n{}\n{extra}",
        providers(stack)
    );
    world(&toml, workspace)
}

/// One probe call: the fs function's result as JSON, or its error code and message.
pub fn probe(world: &World, args: Value) -> Result<Value, (String, String)> {
    let result = call(world, "fs", args);
    if result.is_error {
        return Err((result.code.clone().unwrap_or_default(), result.text()));
    }
    Ok(serde_json::from_str(&result.text()).expect("the probe answers JSON"))
}

/// The error code of a probe call that must fail.
pub fn probe_code(world: &World, args: Value) -> String {
    match probe(world, args) {
        Ok(value) => panic!("succeeded: {value}"),
        Err((code, _)) => code,
    }
}

/// A tool call in session `session` (cwd: the world's workspace).
pub fn call_as(world: &World, session: &str, tool: &str, args: Value) -> ToolResult {
    let mut context = world.call_context("test");
    context.session.id = session.to_string();
    world.call(tool, &args.to_string(), context)
}

pub fn code(result: &ToolResult) -> Option<&str> {
    result.code.as_deref()
}

pub fn s(path: &Path) -> String {
    path.display().to_string()
}
