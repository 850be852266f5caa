//! `seam mcp` driven by a real MCP client: the official Python SDK (tests/mcp/client.py,
//! installed by scripts/setup).

use crate::common::*;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::Duration;

const CLIENT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/mcp/client.py");

fn client_command(scenario: &str, workspace: &Path, world: Option<&Path>, args: &[String]) -> Command {
    let mut command = Command::new("python3");
    command.arg(CLIENT).arg(scenario).arg(env!("CARGO_BIN_EXE_seam"));
    if let Some(world) = world {
        command.arg("--world").arg(world);
    }
    command.arg("--workspace").arg(workspace).arg("--").args(args);
    command
}

/// Run a scenario to its end; its JSON lines.
pub fn client(scenario: &str, workspace: &Path, world: Option<&Path>, args: &[Value]) -> Vec<Value> {
    let args: Vec<String> = args.iter().map(Value::to_string).collect();
    let out = client_command(scenario, workspace, world, &args)
        .output()
        .expect("python3 runs (scripts/setup installs it and the mcp package)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the MCP client failed: {}\nstdout: {stdout}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

#[test]
fn lists_every_tool_with_its_schema() {
    let dir = tempfile::tempdir().unwrap();
    let out = client("list", dir.path(), None, &[]);
    let tools = out[0]["tools"].as_array().unwrap();
    let bash = tools.iter().find(|t| t["name"] == "bash").expect("bash is listed");
    assert!(bash["description"].as_str().unwrap().contains("bash"));
    assert_eq!(bash["inputSchema"]["type"], "object");
    assert_eq!(bash["inputSchema"]["required"], json!(["command"]));
    assert!(bash["inputSchema"]["properties"]["description"].is_object());
    // A model learns an argument from its description: every argument of every tool has one.
    for tool in tools {
        // A line continuation gone wrong in the source leaves a run of indentation behind.
        let description = tool["description"].as_str().unwrap();
        assert!(!description.contains("   "), "{description}");
        let properties = tool["inputSchema"]["properties"].as_object().unwrap();
        for (name, property) in properties {
            assert!(
                property["description"].as_str().is_some_and(|d| !d.is_empty()),
                "{}.{name} has no description",
                tool["name"]
            );
        }
    }
}

#[test]
fn a_call_returns_its_output_and_an_error_carries_its_code() {
    let dir = tempfile::tempdir().unwrap();
    let out = client(
        "call",
        dir.path(),
        None,
        &[json!({"command": "echo hi; pwd"}), json!({"command": 1})],
    );
    let ok = &out[0]["result"];
    assert_eq!(ok["isError"], false);
    let cwd = std::fs::canonicalize(dir.path()).unwrap();
    assert_eq!(text(ok), format!("hi\n{}", cwd.display()), "runs in --workspace");

    let failed = &out[1]["result"];
    assert_eq!(failed["isError"], true, "{failed}");
    let message = text(failed);
    assert!(message.starts_with("invalid arguments"), "{message}");
    assert_eq!(message.lines().last(), Some("[error: INVALID_ARGUMENTS]"));
    assert_eq!(failed["_meta"]["seam/code"], "INVALID_ARGUMENTS");
}

#[test]
fn an_unknown_tool_is_a_protocol_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = client("unknown", dir.path(), None, &[json!("no_such_tool")]);
    assert_eq!(out[0]["error"]["code"], -32602, "invalid params: {}", out[0]);
    // The same answer `seam call` gives: the tools there are.
    let message = out[0]["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with(r#"no tool named "no_such_tool" in this world (tools: bash, edit, "#),
        "{message}"
    );
}

#[test]
fn parallel_calls_run_in_parallel() {
    let dir = tempfile::tempdir().unwrap();
    let out = client(
        "parallel",
        dir.path(),
        None,
        &[
            json!({"command": "sleep 2; echo a"}),
            json!({"command": "sleep 2; echo b"}),
        ],
    );
    let seconds = out[0]["seconds"].as_f64().unwrap();
    assert!(seconds < 3.5, "two 2 s calls took {seconds:.2} s");
    assert_eq!(text(&out[0]["results"][0]), "a");
    assert_eq!(text(&out[0]["results"][1]), "b");
}

#[test]
fn progress_notifications_carry_the_description() {
    let dir = tempfile::tempdir().unwrap();
    let args = json!({"command": "sleep 0.2; echo done", "description": "Wait a moment, then say done"});
    let out = client("progress", dir.path(), None, &[args]);
    let progress = out[0]["progress"].as_array().unwrap();
    assert!(
        progress.iter().any(|p| p["message"] == "Wait a moment, then say done"),
        "{progress:?}"
    );
    assert_eq!(text(&out[0]["result"]), "done");
}

struct Interactive {
    child: Child,
    lines: std::io::Lines<BufReader<ChildStdout>>,
}

impl Interactive {
    fn next(&mut self) -> Value {
        let line = self.lines.next().expect("the client printed a line").unwrap();
        serde_json::from_str(&line).unwrap()
    }

    fn say(&mut self, word: &str) {
        writeln!(self.child.stdin.as_mut().unwrap(), "{word}").unwrap();
    }
}

impl Drop for Interactive {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[test]
fn cancelling_a_call_ends_its_process_tree_and_the_server_keeps_serving() {
    let dir = tempfile::tempdir().unwrap();
    let marker = unique_seconds(300);
    // A background child and a foreground one: the whole tree must go.
    let command = format!("sleep {marker} & sleep {marker}; wait");
    let mut child = client_command("cancel", dir.path(), None, &[])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let stdout = child.stdout.take().unwrap();
    let mut client = Interactive {
        child,
        lines: BufReader::new(stdout).lines(),
    };
    client.say(&command);
    assert_eq!(client.next()["event"], "calling");
    assert!(
        eventually(Duration::from_secs(20), || processes_with(&marker).len() >= 2),
        "both sleeps started: {:?}",
        processes_with(&marker)
    );

    client.say("cancel");
    let cancelled = client.next();
    assert_eq!(cancelled["event"], "cancelled");
    assert!(cancelled["finished"].is_null(), "the call did not finish: {cancelled}");
    // The session is still open: only the cancellation can have ended them.
    assert!(
        eventually(Duration::from_secs(5), || processes_with(&marker).is_empty()),
        "left running: {:?}",
        processes_with(&marker)
    );

    client.say("next");
    assert_eq!(text(&client.next()["result"]), "after");
    assert!(client.child.wait().unwrap().success());
}

/// A world whose shell confines commands read-only and asks a human before widening one call.
fn asking_world(dir: &Path) -> std::path::PathBuf {
    let file = dir.join("world.toml");
    std::fs::write(
        &file,
        "sandbox = \"read-only\"\ntools = [\"tool-bash\"]\n[providers]\nsubprocess = \"subprocess-local\"\n\
         shell = \"bash-sandbox\"\njobs = \"jobs-local\"\nsandbox = \"sandbox-local\"\npolicy = \"sandbox-policy\"\n\
         approval = \"approval-prompt\"\n",
    )
    .unwrap();
    file
}

fn escalate(target: &Path) -> Value {
    json!({
        "command": format!("touch {}", target.display()),
        "sandbox_permissions": "workspace-write",
        "justification": "The build writes its output into the workspace",
    })
}

#[test]
fn approvals_are_asked_through_elicitation() {
    let dir = tempfile::tempdir().unwrap();
    let world = asking_world(dir.path());
    let (yes, declined) = (dir.path().join("yes"), dir.path().join("declined"));
    let out = client(
        "elicit:yes,decline",
        dir.path(),
        Some(&world),
        &[escalate(&yes), escalate(&declined)],
    );
    assert_eq!(out[0]["result"]["isError"], false, "{}", out[0]);
    assert!(yes.exists(), "the approved call ran: {}", out[0]);
    assert_eq!(
        out[1]["result"]["_meta"]["seam/code"], "ESCALATION_REJECTED",
        "{}",
        out[1]
    );
    assert!(!declined.exists());

    let asked = out[2]["asked"].as_array().unwrap();
    assert_eq!(asked.len(), 2, "{asked:?}");
    let message = asked[0]["message"].as_str().unwrap();
    assert!(message.contains("bash"), "{message}");
    assert!(
        message.contains("The build writes its output into the workspace"),
        "{message}"
    );
    assert_eq!(asked[0]["schema"]["properties"]["approve"]["type"], "boolean");
    assert_eq!(asked[0]["schema"]["required"], json!(["approve"]));
}

/// A call cancelled while its approval question is open withdraws the question: the client's
/// form does not stay open for a call that is gone.
#[test]
fn cancelling_a_call_withdraws_its_approval_question() {
    let dir = tempfile::tempdir().unwrap();
    let world = asking_world(dir.path());
    let target = dir.path().join("never");
    let out = client("withdrawn", dir.path(), Some(&world), &[escalate(&target)]);
    assert_eq!(out.last().unwrap()["withdrawn"], true, "{out:?}");
    assert!(!target.exists());
}

#[test]
fn without_elicitation_an_approval_is_unavailable() {
    let dir = tempfile::tempdir().unwrap();
    let world = asking_world(dir.path());
    let target = dir.path().join("never");
    let plain = json!({"command": format!("touch {}", target.display())});
    let out = client("call", dir.path(), Some(&world), &[escalate(&target), plain]);
    assert_eq!(
        out[0]["result"]["_meta"]["seam/code"], "APPROVAL_UNAVAILABLE",
        "{}",
        out[0]
    );
    // The plain call ran and was denied: a result, whose code says so.
    assert_eq!(out[1]["result"]["isError"], false, "{}", out[1]);
    assert_eq!(out[1]["result"]["_meta"]["seam/code"], "SANDBOX_DENIED", "{}", out[1]);
    assert!(!target.exists());
}

/// Malformed requests from a client that is not the SDK: raw JSON-RPC lines on the server's
/// stdin, each answered with the code JSON-RPC gives its fault.
/// `seam mcp` with no client library: the test writes JSON-RPC lines itself.
fn raw_server(workspace: &Path) -> Child {
    raw_server_of(workspace, None)
}

/// [`raw_server`] on the world file `world` (the default world when `None`).
fn raw_server_of(workspace: &Path, world: Option<&Path>) -> Child {
    let mut command = Command::new(env!("CARGO_BIN_EXE_seam"));
    if let Some(world) = world {
        command.arg("--world").arg(world);
    }
    command
        .arg("--workspace")
        .arg(workspace)
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn raw_initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}})
}

/// The raw server's stdin and answer lines, once `initialize` is answered and acknowledged.
fn raw_session(
    server: &mut Child,
    initialize: Value,
) -> (std::process::ChildStdin, std::io::Lines<BufReader<ChildStdout>>) {
    let mut stdin = server.stdin.take().unwrap();
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    writeln!(stdin, "{initialize}").unwrap();
    assert!(
        lines
            .next()
            .is_some_and(|line| line.is_ok_and(|l| l.contains("\"id\":1")))
    );
    writeln!(
        stdin,
        "{}",
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
    )
    .unwrap();
    (stdin, lines)
}

#[test]
fn malformed_params_are_invalid_params_unknown_methods_are_not_found_and_garbage_is_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = raw_server(dir.path());
    let initialize = raw_initialize();
    let requests = [
        initialize,
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "read", "arguments": "oops"}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "no/such/method"}),
        // The logging capability it announces takes a level.
        json!({"jsonrpc": "2.0", "id": 4, "method": "logging/setLevel", "params": {"level": "warning"}}),
    ];
    let mut stdin = server.stdin.take().unwrap();
    for request in &requests {
        // Text that is not JSON gets no answer (there is no id to answer to), and the requests
        // after it are served.
        writeln!(stdin, "{{ not json").unwrap();
        writeln!(stdin, "{request}").unwrap();
    }
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let mut answers = std::collections::BTreeMap::new();
    while answers.len() < 4 {
        let answer: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
        answers.insert(answer["id"].as_u64().unwrap(), answer);
    }
    drop(stdin);
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    assert!(rest.is_empty(), "answers beyond the four requests: {rest:?}");
    server.wait().unwrap();
    let malformed = &answers[&2]["error"];
    assert_eq!(malformed["code"], -32602, "{malformed}");
    assert!(
        malformed["message"]
            .as_str()
            .unwrap()
            .starts_with("invalid params for tools/call: "),
        "{malformed}"
    );
    let unknown = &answers[&3]["error"];
    assert_eq!(unknown["code"], -32601, "{unknown}");
    assert_eq!(unknown["message"], "method not found: no/such/method");
    assert_eq!(answers[&4]["result"], json!({}), "{}", answers[&4]);
}

/// No request goes unanswered: one that is JSON but no message seam knows gets -32600 under
/// its own id, and a lone UTF-16 surrogate in a string (a JavaScript string cut inside an
/// emoji) is read as U+FFFD instead of making the whole request unreadable.
#[test]
fn an_unreadable_request_is_answered_under_its_id() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = raw_server(dir.path());
    let (mut stdin, mut lines) = raw_session(&mut server, raw_initialize());
    writeln!(stdin, "{}", json!({"jsonrpc": "2.0", "id": 2, "method": 7})).unwrap();
    writeln!(
        stdin,
        r#"{{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {{"name": "bash", "arguments": {{"command": "echo 'cut \ud83d here'"}}}}}}"#
    )
    .unwrap();
    let mut answers = std::collections::BTreeMap::new();
    while answers.len() < 2 {
        let answer: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
        answers.insert(answer["id"].as_u64().unwrap(), answer);
    }
    drop(stdin);
    server.wait().unwrap();
    assert_eq!(answers[&2]["error"]["code"], -32600, "{}", answers[&2]);
    assert!(
        text(&answers[&3]["result"]).starts_with("cut \u{fffd} here"),
        "{}",
        answers[&3]
    );
}

/// A notification before `initialize` asks for nothing and does not end the session: it is
/// dropped, and the session starts with the request.
#[test]
fn a_notification_before_initialize_is_dropped_and_the_session_starts() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = raw_server(dir.path());
    let mut stdin = server.stdin.take().unwrap();
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    for early in [
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 0, "method": "ping"}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        raw_initialize(),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "bash", "arguments": {"command": "echo started"}}}),
    ] {
        writeln!(stdin, "{early}").unwrap();
    }
    let mut answer = || serde_json::from_str::<Value>(&lines.next().unwrap().unwrap()).unwrap();
    assert_eq!(answer()["id"], 0);
    assert_eq!(answer()["id"], 1);
    let call = answer();
    assert_eq!(
        (call["id"].as_u64(), text(&call["result"])),
        (Some(2), "started"),
        "{call}"
    );
    drop(stdin);
    assert!(server.wait().unwrap().success());
}

/// A write as large as the file tools take arrives whole and is answered: the transport's own
/// bound on a message (16 MiB) would drop it unanswered.
#[test]
fn a_write_of_tens_of_megabytes_is_answered() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = raw_server(dir.path());
    let content = "a\"".repeat(10 << 20);
    let mut stdin = server.stdin.take().unwrap();
    writeln!(stdin, "{}", raw_initialize()).unwrap();
    writeln!(
        stdin,
        "{}",
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
    )
    .unwrap();
    let write = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "write", "arguments": {"file_path": "big.txt", "content": content}}});
    // One string, one write: a `Value` displayed straight into the pipe writes piece by piece.
    let line = write.to_string();
    writeln!(stdin, "{line}").unwrap();
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let answers: Vec<Value> = (0..2)
        .map(|_| serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap())
        .collect();
    drop(stdin);
    server.wait().unwrap();
    assert_eq!(answers[1]["id"], 2, "{}", answers[1]);
    assert_eq!(answers[1]["result"]["isError"], false, "{}", answers[1]);
    assert_eq!(std::fs::metadata(dir.path().join("big.txt")).unwrap().len(), 20 << 20);
}

/// A client that closes stdin while a call runs is gone: the call is cancelled and its process
/// tree ended at once, and the server exits without waiting for an answer no one will read.
#[test]
fn a_client_gone_mid_call_ends_the_call_and_the_server_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let marker = unique_seconds(300);
    let mut server = raw_server(dir.path());
    let (mut stdin, _lines) = raw_session(&mut server, raw_initialize());
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "bash", "arguments": {"command": format!("sleep {marker}")}}});
    writeln!(stdin, "{call}").unwrap();
    assert!(
        eventually(Duration::from_secs(20), || !processes_with(&marker).is_empty()),
        "the command started"
    );
    let closed = std::time::Instant::now();
    drop(stdin);
    assert!(server.wait().unwrap().success());
    assert!(
        closed.elapsed() < Duration::from_secs(3),
        "exited after {:?}",
        closed.elapsed()
    );
    assert!(
        processes_with(&marker).is_empty(),
        "left running: {:?}",
        processes_with(&marker)
    );
}

/// A client that quits while an approval question is open will never answer it: the question
/// ends with the call, which is answered as cancelled, and the server exits at once instead of
/// waiting out its shutdown grace.
#[test]
fn a_client_gone_with_a_question_open_ends_the_call_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let world = asking_world(dir.path());
    let target = dir.path().join("never");
    let mut server = raw_server_of(dir.path(), Some(&world));
    let mut initialize = raw_initialize();
    initialize["params"]["capabilities"] = json!({"elicitation": {}});
    let (mut stdin, mut lines) = raw_session(&mut server, initialize);
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "bash", "arguments": escalate(&target)}});
    writeln!(stdin, "{call}").unwrap();
    let asked = lines
        .by_ref()
        .map_while(Result::ok)
        .find(|line| line.contains("elicitation/create"));
    assert!(asked.is_some(), "the server asked for approval");

    let closed = std::time::Instant::now();
    drop(stdin);
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    assert!(server.wait().unwrap().success());
    assert!(
        closed.elapsed() < Duration::from_secs(3),
        "exited after {:?}",
        closed.elapsed()
    );
    assert!(
        rest.iter()
            .any(|line| line.contains("\"id\":2") && line.contains("CALL_CANCELLED")),
        "the call was answered as cancelled: {rest:?}"
    );
    assert!(!target.exists());
}

/// Requests that arrive with the end of the client's input are read after the client has gone:
/// each call is answered as cancelled, whether it had started when the end was seen or not.
#[test]
fn calls_sent_with_the_end_of_input_are_all_cancelled() {
    let dir = tempfile::tempdir().unwrap();
    let marker = unique_seconds(200);
    let mut server = raw_server(dir.path());
    let mut input = format!(
        "{}\n{}\n",
        raw_initialize(),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
    );
    for id in 2..6 {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "bash", "arguments": {"command": format!("sleep {marker}; echo ran")}}});
        input.push_str(&format!("{call}\n"));
    }
    let mut stdin = server.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let answers: Vec<Value> = BufReader::new(server.stdout.take().unwrap())
        .lines()
        .map(|line| serde_json::from_str(&line.unwrap()).unwrap())
        .filter(|answer: &Value| answer["id"].as_u64().is_some_and(|id| id >= 2))
        .collect();
    assert!(server.wait().unwrap().success());
    assert_eq!(answers.len(), 4, "{answers:?}");
    for answer in &answers {
        assert_eq!(answer["result"]["_meta"]["seam/code"], "CALL_CANCELLED", "{answer}");
    }
    assert!(processes_with(&marker).is_empty());
}
