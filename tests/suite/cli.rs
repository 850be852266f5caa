//! The `seam` command line, run as users run it.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn seam(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_seam"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn call_prints_content_and_exits_by_result() {
    let ok = seam(&["call", "bash", r#"{"command": "echo hello"}"#], None);
    assert!(ok.status.success());
    assert_eq!(stdout(&ok), "hello\n");
    let failed = seam(&["call", "bash", r#"{"command": 1}"#], None);
    assert_eq!(failed.status.code(), Some(1));
    let json = seam(&["call", "--json", "bash", r#"{"command": "exit 4"}"#], None);
    let value: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(value["is_error"], false);
    assert_eq!(value["content"][0]["text"], "(no output)\n[exit code: 4]");
    assert!(value["code"].is_null());
}

#[test]
fn batch_answers_each_line_in_one_world() {
    let input = concat!(
        r#"{"tool": "bash", "args": {"command": "echo one"}}"#,
        "\n",
        "not json\n",
        r#"{"tool": "bash", "args": {"command": "echo two"}}"#,
        "\n"
    );
    let out = seam(&["call", "--batch"], Some(input));
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["content"][0]["text"], "one");
    assert_eq!(lines[1]["code"], "INVALID_REQUEST");
    assert_eq!(lines[2]["content"][0]["text"], "two");
}

#[test]
fn tools_and_world_check_describe_the_world() {
    let tools = seam(&["tools", "--json"], None);
    let list: serde_json::Value = serde_json::from_str(&stdout(&tools)).unwrap();
    assert_eq!(list[0]["name"], "bash");
    assert_eq!(list[0]["input_schema"]["required"][0], "command");
    let check = seam(&["world", "check"], None);
    let text = stdout(&check);
    assert!(check.status.success(), "{text}");
    assert!(text.contains("seam:shell/shell@0.1.0 <- bash-local"), "{text}");
    assert!(
        text.contains("seam:subprocess/subprocess@0.1.0 <- subprocess-local"),
        "{text}"
    );
}

#[test]
fn world_check_prints_the_refusal() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("broken.toml");
    std::fs::write(&file, "tools = [\"tool-bash\"]\n").unwrap();
    let out = seam(&["world", "check", file.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains("LINK_MISSING") && text.contains("tool-bash") && text.contains("seam:shell/shell"),
        "{text}"
    );
    assert!(
        text.contains("`shell = \"bash-local\"` under [providers]"),
        "the refusal names the built-in fix: {text}"
    );
}

#[test]
fn help_teaches() {
    let help = seam(&["--help"], None);
    let text = stdout(&help);
    for needle in ["tools", "call", "world", "bench", "--world", "--workspace", "Examples"] {
        assert!(text.contains(needle), "--help mentions {needle}");
    }
}

#[test]
fn a_reader_that_goes_away_ends_the_command_quietly() {
    for args in [
        &["tools"][..],
        &["call", "bash", r#"{"command": "echo hi"}"#],
        &["world", "check"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_seam"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Closed before seam writes anything: every write it makes fails with EPIPE.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "seam {args:?}: {:?} {stderr}", out.status);
        assert!(!stderr.contains("panicked"), "seam {args:?}: {stderr}");
    }
}
