//! The escalation flow through tool-bash on a confining shell: paired arguments, strictly wider
//! modes checked when the call runs, a human asked before anything runs, and a grant that holds
//! for one call only. Also: swapping the shell provider is a world file change only.

use crate::common::*;
use seam_host::{ApprovalOutcome, ApprovalRequest, CallContext, ToolResult, World};
use serde_json::{Value, json};
use std::path::Path;
use std::sync::{Arc, Mutex};

fn sandboxed(dir: &Path, mode: &str, approval: &str) -> World {
    let toml = format!(
        "sandbox = {mode:?}\ntools = [\"tool-bash\"]\n[providers]\nsubprocess = \"subprocess-local\"\n\
         shell = \"bash-sandbox\"\njobs = \"jobs-local\"\nsandbox = \"sandbox-local\"\npolicy = \"sandbox-policy\"\napproval = {approval:?}\n"
    );
    world(&toml, dir)
}

/// A human who answers `outcome` and remembers what was asked.
fn human(outcome: ApprovalOutcome) -> (Arc<Mutex<Vec<ApprovalRequest>>>, seam_host::Asker) {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let log = asked.clone();
    let asker: seam_host::Asker = Arc::new(move |request: &ApprovalRequest| {
        log.lock().unwrap().push(request.clone());
        outcome
    });
    (asked, asker)
}

fn run(world: &World, args: Value, asker: Option<seam_host::Asker>) -> ToolResult {
    let context = CallContext {
        asker,
        ..world.call_context("escalation-test")
    };
    world.call("bash", &args.to_string(), context)
}

fn touch(path: &Path) -> String {
    format!("touch {}", path.display())
}

#[test]
fn a_denied_command_says_so_and_offers_escalation() {
    let dir = tempfile::tempdir().unwrap();
    let world = sandboxed(dir.path(), "read-only", "approval-prompt");
    let target = dir.path().join("made");
    let (asked, asker) = human(ApprovalOutcome::Rejected);
    let result = run(&world, json!({ "command": touch(&target) }), Some(asker));
    assert!(!result.is_error, "a denial is a result: {result:?}");
    assert_eq!(result.code.as_deref(), Some("SANDBOX_DENIED"), "{result:?}");
    let text = result.text();
    assert!(
        text.contains("[sandbox: file access denied under read-only mode]"),
        "{text}"
    );
    assert!(
        text.contains(
            "[sandbox: escalation available — retry this exact command once with sandbox_permissions set to \
             workspace-write or danger-full-access (wider than the current read-only mode)"
        ),
        "{text}"
    );
    assert!(asked.lock().unwrap().is_empty(), "offering asks nobody yet");
    assert!(!target.exists());
    // A call with nobody to ask (an MCP client without forms) is offered nothing.
    let text = run(&world, json!({ "command": touch(&target) }), None).text();
    assert!(
        text.contains("[sandbox: file access denied under read-only mode]"),
        "{text}"
    );
    assert!(!text.contains("escalation available"), "{text}");
    // Where no human can ever approve, none is offered.
    let never = sandboxed(dir.path(), "read-only", "approval-never");
    let text = run(&never, json!({ "command": touch(&target) }), None)
        .text()
        .to_owned();
    assert!(
        text.contains("[sandbox: file access denied under read-only mode]"),
        "{text}"
    );
    assert!(!text.contains("escalation available"), "{text}");
}

#[test]
fn approved_once_runs_this_call_only() {
    let dir = tempfile::tempdir().unwrap();
    let world = sandboxed(dir.path(), "read-only", "approval-prompt");
    let (asked, asker) = human(ApprovalOutcome::AllowedOnce);
    let first = dir.path().join("first");
    let args = json!({
        "command": touch(&first),
        "sandbox_permissions": "workspace-write",
        "justification": "The build writes its output into the workspace",
    });
    let result = run(&world, args, Some(asker.clone()));
    assert!(!result.is_error, "{result:?}");
    assert!(
        first.exists(),
        "the approved call ran with the wider mode: {}",
        result.text()
    );
    let asked = asked.lock().unwrap().clone();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].reason, "The build writes its output into the workspace");
    assert_eq!(asked[0].tool, "bash");
    assert!(
        asked[0]
            .subject
            .as_deref()
            .is_some_and(|s| s.starts_with("workspace-write")
                && s.ends_with(&format!("(in {})", dir.path().display()))),
        "the human sees the mode, the command and where it runs: {asked:?}"
    );

    let second = dir.path().join("second");
    let again = run(&world, json!({ "command": touch(&second) }), Some(asker));
    assert!(
        again.text().contains("denied under read-only mode"),
        "the standing mode is unchanged: {}",
        again.text()
    );
    assert!(!second.exists());
}

#[test]
fn rejected_cancelled_and_unavailable_run_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let world = sandboxed(dir.path(), "read-only", "approval-prompt");
    let cases = [
        (Some(ApprovalOutcome::Rejected), "ESCALATION_REJECTED"),
        (Some(ApprovalOutcome::Cancelled), "ESCALATION_CANCELLED"),
        (Some(ApprovalOutcome::Unavailable), "APPROVAL_UNAVAILABLE"),
        (None, "APPROVAL_UNAVAILABLE"),
    ];
    for (answer, code) in cases {
        let target = dir.path().join(code);
        let asker = answer.map(|outcome| human(outcome).1);
        let args = json!({
            "command": touch(&target),
            "sandbox_permissions": "danger-full-access",
            "justification": "Needs to write outside",
        });
        let result = run(&world, args, asker);
        assert!(result.is_error, "{code}: {result:?}");
        assert_eq!(result.code.as_deref(), Some(code));
        assert!(!target.exists(), "{code}: nothing ran");
    }
}

#[test]
fn the_never_policy_rejects_before_any_human_is_asked() {
    let dir = tempfile::tempdir().unwrap();
    let world = sandboxed(dir.path(), "read-only", "approval-never");
    let (asked, asker) = human(ApprovalOutcome::AllowedOnce);
    let target = dir.path().join("never");
    let args = json!({ "command": touch(&target), "sandbox_permissions": "workspace-write", "justification": "x y" });
    let result = run(&world, args, Some(asker));
    assert_eq!(result.code.as_deref(), Some("ESCALATION_REJECTED"));
    assert!(asked.lock().unwrap().is_empty());
    assert!(!target.exists());
}

#[test]
fn a_mode_that_is_not_wider_or_unpaired_arguments_are_refused_before_asking() {
    let dir = tempfile::tempdir().unwrap();
    let world = sandboxed(dir.path(), "workspace-write", "approval-prompt");
    let (asked, asker) = human(ApprovalOutcome::AllowedOnce);
    let target = dir.path().join("refused");
    let cases = [
        (
            json!({ "sandbox_permissions": "workspace-write", "justification": "again" }),
            "ESCALATION_NOT_WIDER",
        ),
        (
            json!({ "sandbox_permissions": "danger-full-access" }),
            "ESCALATION_UNPAIRED",
        ),
        (json!({ "justification": "because" }), "ESCALATION_UNPAIRED"),
        (
            json!({ "sandbox_permissions": "danger-full-access", "justification": "  " }),
            "ESCALATION_EMPTY_JUSTIFICATION",
        ),
        (
            json!({ "sandbox_permissions": "root", "justification": "because" }),
            "INVALID_ARGUMENTS",
        ),
    ];
    for (extra, code) in cases {
        let mut args = extra.clone();
        args["command"] = json!(touch(&target));
        let result = run(&world, args, Some(asker.clone()));
        assert_eq!(result.code.as_deref(), Some(code), "{extra}: {result:?}");
        assert!(!target.exists(), "{extra}: nothing ran");
    }
    assert!(asked.lock().unwrap().is_empty(), "no human was asked");
}

#[test]
fn escalation_is_offered_only_by_a_confining_shell() {
    let dir = tempfile::tempdir().unwrap();
    let local = default_world(dir.path());
    let sandboxed = sandboxed(dir.path(), "read-only", "approval-prompt");
    let schema = |w: &World| {
        w.tools()
            .iter()
            .find(|t| t.name == "bash")
            .unwrap()
            .input_schema
            .clone()
    };
    assert!(schema(&local)["properties"]["sandbox_permissions"].is_null());
    assert!(schema(&sandboxed)["properties"]["sandbox_permissions"].is_object());
    let description = &sandboxed.tools()[0].description;
    assert!(
        description.contains("read-only mode"),
        "the policy is described: {description}"
    );
    let args = json!({ "command": "true", "sandbox_permissions": "workspace-write", "justification": "x" });
    let result = run(&local, args, None);
    assert_eq!(result.code.as_deref(), Some("ESCALATION_UNAVAILABLE"));
}

#[test]
fn swapping_the_shell_provider_is_a_world_file_change() {
    let workspace = tempfile::tempdir().unwrap();
    // Outside the workspace and outside /tmp (writable, or a private tmpfs, under workspace-write).
    let outside = outside_tmp();
    let local = world(
        &std::fs::read_to_string("../examples/worlds/local.toml").unwrap(),
        workspace.path(),
    );
    let sandboxed = world(
        &std::fs::read_to_string("../examples/worlds/sandboxed.toml").unwrap(),
        workspace.path(),
    );
    // The same tool component serves both worlds.
    assert_eq!(local.tools()[0].component, sandboxed.tools()[0].component);

    let inside = workspace.path().join("inside");
    let escaped = outside.path().join("escaped");
    let command = format!("{} && {}", touch(&inside), touch(&escaped));
    assert_eq!(bash(&local, &command).text(), "(no output)");
    assert!(inside.exists() && escaped.exists());
    std::fs::remove_file(&inside).unwrap();
    std::fs::remove_file(&escaped).unwrap();

    let result = bash(&sandboxed, &command);
    assert!(
        inside.exists(),
        "workspace-write lets the workspace change: {}",
        result.text()
    );
    assert!(!escaped.exists(), "but nothing outside it: {}", result.text());
    assert!(
        result
            .text()
            .contains("[sandbox: file access denied under workspace-write mode]"),
        "{}",
        result.text()
    );
}

#[test]
fn the_session_mode_changes_through_the_policy_service_and_is_per_session() {
    use seam_host::world::file::SandboxMode;
    let dir = tempfile::tempdir().unwrap();
    let world = sandboxed(dir.path(), "read-only", "approval-never");
    let before = dir.path().join("before");
    assert!(
        bash(&world, &touch(&before))
            .text()
            .contains("denied under read-only mode")
    );
    world
        .set_sandbox_mode(&world.session().id, SandboxMode::WorkspaceWrite)
        .unwrap();
    let after = dir.path().join("after");
    let result = bash(&world, &touch(&after));
    assert!(
        after.exists(),
        "the session's new standing mode applies: {}",
        result.text()
    );

    let other = CallContext {
        session: seam_host::Session {
            id: "another-session".into(),
            ..world.session()
        },
        ..world.call_context("other")
    };
    let elsewhere = dir.path().join("elsewhere");
    let result = world.call("bash", &json!({ "command": touch(&elsewhere) }).to_string(), other);
    assert!(
        !elsewhere.exists(),
        "another session keeps the default: {}",
        result.text()
    );
}

#[test]
fn a_batch_script_can_change_the_session_mode() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("world.toml");
    let toml = std::fs::read_to_string("../examples/worlds/sandboxed.toml")
        .unwrap()
        .replace("sandbox = \"workspace-write\"", "sandbox = \"read-only\"");
    std::fs::write(&file, toml).unwrap();
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    let input = format!(
        "{}\n{{\"sandbox_mode\": \"workspace-write\"}}\n{}\n",
        json!({"tool": "bash", "args": {"command": touch(&a)}}),
        json!({"tool": "bash", "args": {"command": touch(&b)}})
    );
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_seam"))
        .args([
            "--world",
            file.to_str().unwrap(),
            "--workspace",
            dir.path().to_str().unwrap(),
        ])
        .args(["call", "--batch"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    let lines: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines[0]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("denied under read-only mode")
    );
    assert_eq!(lines[1]["is_error"], false, "{}", lines[1]);
    assert!(!a.exists() && b.exists());
}

#[test]
fn file_writes_follow_the_sessions_standing_mode_too() {
    use seam_host::world::file::SandboxMode;
    let dir = tempfile::tempdir().unwrap();
    let world = world(
        &std::fs::read_to_string("../examples/worlds/guarded.toml").unwrap(),
        dir.path(),
    );
    let target = dir.path().join("notes.txt");
    let write = |name: &str| {
        call(
            &world,
            "write",
            json!({ "file_path": target.join("..").join(name), "content": "x" }),
        )
    };
    assert!(!write("a.txt").is_error, "workspace-write lets the workspace change");
    world
        .set_sandbox_mode(&world.session().id, SandboxMode::ReadOnly)
        .unwrap();
    let denied = write("b.txt");
    assert_eq!(denied.code.as_deref(), Some("FS_SANDBOX_DENIED"), "{denied:?}");
    assert!(!dir.path().join("b.txt").exists());
}
