//! Third-party tool plugins: they link only to the seams the world file grants them, and their
//! calls run under their own limits while first-party tools keep the world's.

use crate::common::*;
use seam_host::world::file::Limits;
use serde_json::json;
use std::path::Path;
use std::time::{Duration, Instant};

/// The counter tool as a plugin with `grants`, beside the counter provider and bash.
fn plugin_world(grants: &str, dir: &Path) -> Result<seam_host::World, seam_host::WorldError> {
    let toml = format!(
        r#"
        tools = ["tool-bash"]
        [providers]
        subprocess = "subprocess-local"
        shell = "bash-local"
        jobs = "jobs-local"
        policy = "sandbox-policy"
        approval = "approval-never"
        counter = {counter:?}
        [[plugins]]
        path = {tool:?}
        grants = {grants}
        memory_mb = 64
        time_ms = 150
        [limits]
        guest_time_ms = 5000
        "#,
        counter = fixture("fixture-counter").display().to_string(),
        tool = fixture("fixture-counter-tool").display().to_string(),
    );
    try_world(&toml, dir)
}

#[test]
fn a_granted_plugin_links_and_serves() {
    let dir = tempfile::tempdir().unwrap();
    let world = plugin_world(r#"["counter"]"#, dir.path()).unwrap_or_else(|e| panic!("[{}] {e}", e.code()));
    assert_eq!(call(&world, "ok", json!({})).text(), "ok");
    let roundtrip = call(&world, "counter_roundtrip", json!({}));
    assert!(!roundtrip.is_error, "{}", roundtrip.text());
}

#[test]
fn a_plugin_importing_a_seam_it_was_not_granted_is_refused_naming_both() {
    let dir = tempfile::tempdir().unwrap();
    for grants in ["[]", r#"["shell"]"#] {
        let Err(error) = plugin_world(grants, dir.path()) else {
            panic!("a plugin granted {grants} loaded although it imports acme:counter");
        };
        assert_eq!(error.code(), "LINK_NOT_GRANTED", "{error}");
        let message = error.to_string();
        assert!(
            message.contains("fixture_counter_tool") && message.contains("counter") && message.contains("acme:counter"),
            "the refusal names the plugin and the seam: {message}"
        );
    }
}

#[test]
fn a_plugin_runs_under_its_own_limits_and_first_party_tools_under_the_worlds() {
    let dir = tempfile::tempdir().unwrap();
    let world = plugin_world(r#"["counter"]"#, dir.path()).unwrap_or_else(|e| panic!("[{}] {e}", e.code()));
    assert_eq!(
        world.limits_of("ok"),
        Some(&Limits {
            memory_mb: 64,
            guest_time_ms: 150
        })
    );
    assert_eq!(
        world.limits_of("bash"),
        Some(&Limits {
            memory_mb: 256,
            guest_time_ms: 5000
        })
    );
    // A spin in the plugin or in the provider it reaches ends at the plugin's 150 ms, far
    // before the world's 5 s.
    for tool in ["self_fault", "provider_fault"] {
        let started = Instant::now();
        let result = call(&world, tool, json!({ "kind": "spin" }));
        assert_eq!(
            result.code.as_deref(),
            Some("COMPONENT_TIMEOUT"),
            "{tool}: {}",
            result.text()
        );
        assert!(
            started.elapsed() < Duration::from_millis(2500),
            "{tool} ran {:?}",
            started.elapsed()
        );
    }
    assert!(bash(&world, "echo still").text().contains("still"));
}

/// A sandboxed world where fixture-policy-tool, which picks its own sandbox policy, is either a
/// third-party plugin granted the shell and fs seams or a first-party tool.
fn policy_world(as_plugin: bool, workspace: &Path) -> seam_host::World {
    let tool = fixture("fixture-policy-tool").display().to_string();
    let (tools, plugins) = if as_plugin {
        (
            String::new(),
            format!("[[plugins]]\npath = {tool:?}\ngrants = [\"shell\", \"fs\"]\n"),
        )
    } else {
        (format!("tools = [{tool:?}]\n"), String::new())
    };
    world(
        &format!(
            r#"sandbox = "workspace-write"
            {tools}
            [providers]
            subprocess = "subprocess-local"
            shell = "bash-sandbox"
            sandbox = "sandbox-local"
            policy = "sandbox-policy"
            approval = "approval-never"
            fs = ["fs-observation-policy", "fs-sandbox", "fs-local"]
            {plugins}"#
        ),
        workspace,
    )
}

#[test]
fn a_plugin_cannot_choose_its_own_sandbox_policy() {
    let dir = tempfile::tempdir().unwrap();
    // Outside the workspace and outside the temp dir a workspace-write sandbox may write.
    let outside = tempfile::tempdir_in("/var/tmp").unwrap();
    let plugin = policy_world(true, dir.path());
    for mode in ["danger-full-access", "none"] {
        let target = outside.path().join(format!("shell-{mode}"));
        let ran = call(
            &plugin,
            "shell_as",
            json!({"mode": mode, "command": format!("touch {}", target.display())}),
        );
        assert!(
            !target.exists(),
            "the plugin's {mode} command wrote outside: {}",
            ran.text()
        );
        let target = outside.path().join(format!("write-{mode}"));
        let wrote = call(
            &plugin,
            "write_as",
            json!({"mode": mode, "path": target.display().to_string(), "content": "x"}),
        );
        assert_eq!(wrote.code.as_deref(), Some("FS_SANDBOX_DENIED"), "{}", wrote.text());
        assert!(!target.exists());
    }
    // Inside the workspace the session's policy lets it write.
    let inside = call(
        &plugin,
        "write_as",
        json!({"mode": "read-only", "path": "in.txt", "content": "x"}),
    );
    assert!(!inside.is_error, "{}", inside.text());
    assert!(dir.path().join("in.txt").exists());
    let ran = call(
        &plugin,
        "shell_as",
        json!({"mode": "read-only", "command": "touch ran.txt"}),
    );
    assert!(dir.path().join("ran.txt").exists(), "{}", ran.text());

    // A first-party tool is trusted with the policy it passes (it asks a human before widening).
    let first_party = policy_world(false, dir.path());
    let target = outside.path().join("first-party");
    let ran = call(
        &first_party,
        "shell_as",
        json!({"mode": "danger-full-access", "command": format!("touch {}", target.display())}),
    );
    assert!(target.exists(), "{}", ran.text());
}

/// A plugin acts in its call's session: naming none does not skip the guard that refuses a
/// write over a file the session never read. A first-party tool is trusted with what it names.
#[test]
fn a_plugin_cannot_step_out_of_its_calls_session() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("seen.txt"), "before\n").unwrap();
    let write = |world: &seam_host::World| {
        call(
            world,
            "write_as",
            json!({"mode": "none", "path": "seen.txt", "content": "after\n"}),
        )
    };
    let refused = write(&policy_world(true, dir.path()));
    assert_eq!(refused.code.as_deref(), Some("FS_EXISTS"), "{}", refused.text());
    assert!(
        refused.text().contains("has not been read in this session"),
        "{}",
        refused.text()
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("seen.txt")).unwrap(),
        "before\n"
    );
    let trusted = write(&policy_world(false, dir.path()));
    assert!(!trusted.is_error, "{}", trusted.text());
    assert_eq!(std::fs::read_to_string(dir.path().join("seen.txt")).unwrap(), "after\n");
}
