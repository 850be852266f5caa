//! The `seam` command line, run as users run it.

use crate::common::default_world;
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn seam(args: &[&str], stdin: Option<&str>) -> Output {
    seam_bytes(args, stdin.unwrap_or("").as_bytes())
}

fn seam_bytes(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_seam"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin).unwrap();
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
    // A command typed as is is shown as the JSON that would run it; JSON that is merely wrong
    // needs no such hint.
    let stderr = |o: &Output| String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!stderr(&failed).contains("one JSON object"), "{}", stderr(&failed));
    let typed = seam(&["call", "bash", "echo it's"], None);
    assert_eq!(typed.status.code(), Some(1));
    let hint = stderr(&typed);
    assert!(
        hint.contains(r#"seam call bash '{"command":"echo it'\''s"}'"#),
        "{hint}"
    );
    let several = seam(&["call", "edit", "f.txt"], None);
    assert!(stderr(&several).contains("The arguments are one JSON object; `seam tools`"));
    let json = seam(&["call", "--json", "bash", r#"{"command": "exit 4"}"#], None);
    let value: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(value["is_error"], false);
    assert_eq!(value["content"][0]["text"], "(no output)\n[exit code: 4]");
    assert!(value["code"].is_null());
    // `-` takes the arguments from stdin, quoted for JSON only.
    let piped = seam(
        &["call", "bash", "-"],
        Some(r#"{"command": "printf '%s' \"it's $((6 * 7))\""}"#),
    );
    assert_eq!(stdout(&piped), "it's 42\n", "{piped:?}");
}

/// What a tool says of its progress reaches a person at the command line, on stderr: stdout
/// keeps only the result.
#[test]
fn progress_goes_to_stderr() {
    let out = Command::new(env!("CARGO_BIN_EXE_seam"))
        .args([
            "call",
            "bash",
            r#"{"command": "echo hi", "description": "Greet the user"}"#,
        ])
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    assert_eq!(stdout(&out), "hi\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("seam::progress: bash: Greet the user"), "{stderr}");
    assert!(!stderr.contains("WARN"), "{stderr}");
}

#[test]
fn logs_to_a_pipe_are_plain_text() {
    let mut command = Command::new(env!("CARGO_BIN_EXE_seam"));
    command
        .args(["call", "bash", r#"{"command": "true"}"#])
        .env("RUST_LOG", "seam_host=debug")
        .env_remove("NO_COLOR");
    let logged = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&logged.stderr);
    assert!(stderr.contains("crossed"), "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "{stderr}");
}

#[test]
fn what_a_component_prints_is_in_the_guest_log() {
    // A tool that panics writes its panic message to stderr; the log shows it under
    // `seam::guest`, which a plugin author turns on alone.
    let dir = tempfile::tempdir().unwrap();
    let world = dir.path().join("world.toml");
    let toml = format!(
        "tools = [{:?}]\n[providers]\ncounter = {:?}\n",
        crate::common::fixture("fixture-counter-tool").display().to_string(),
        crate::common::fixture("fixture-counter").display().to_string()
    );
    std::fs::write(&world, toml).unwrap();
    let run = |log: &str| {
        Command::new(env!("CARGO_BIN_EXE_seam"))
            .args([
                "--world",
                world.to_str().unwrap(),
                "call",
                "self_fault",
                r#"{"kind": "trap"}"#,
            ])
            .env("RUST_LOG", log)
            .output()
            .unwrap()
    };
    let logged = run("seam::guest=info");
    let stderr = String::from_utf8_lossy(&logged.stderr);
    assert!(
        stderr.contains("seam::guest: self_fault printed:") && stderr.contains("panicked"),
        "{stderr}"
    );
    let quiet = run("warn,seam::guest=off");
    assert!(!String::from_utf8_lossy(&quiet.stderr).contains("printed:"));
}

#[test]
fn batch_answers_each_line_in_one_world() {
    let input = [
        // A byte order mark before the first line is not part of it.
        "\u{feff}".as_bytes(),
        r#"{"tool": "bash", "args": {"command": "echo one"}}"#.as_bytes(),
        b"\nnot json\n\xff\xfe\n",
        br#"{"tool": "bash", "args": {"command": "echo two"}}"#,
        b"\r\n",
        br#"{"sandbox_mode": "bogus"}"#,
    ]
    .concat();
    let out = seam_bytes(&["call", "--batch"], &input);
    assert_eq!(out.status.code(), Some(1), "bad lines fail the batch");
    let lines: Vec<serde_json::Value> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[0]["content"][0]["text"], "one");
    assert_eq!(lines[1]["code"], "INVALID_REQUEST");
    let why = lines[1]["content"][0]["text"].as_str().unwrap_or_default();
    assert!(
        why.contains("(expected ident at line 1 column 2)"),
        "the parser's reason: {why}"
    );
    // A line that is not UTF-8 is a bad line too; the lines after it still run.
    assert_eq!(lines[2]["code"], "INVALID_REQUEST");
    assert_eq!(lines[3]["content"][0]["text"], "two");
    // A bad line is named by its number.
    let mode = lines[4]["content"][0]["text"].as_str().unwrap_or_default();
    assert!(mode.starts_with("line 5: sandbox_mode \"bogus\""), "{mode}");
    let good = seam(
        &["call", "--batch"],
        Some(r#"{"tool": "bash", "args": {"command": "true"}}"#),
    );
    assert!(good.status.success(), "{good:?}");
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

/// Every built-in a world file can name is listed with what it does; the bench components,
/// which serve only `seam bench`, are not.
#[test]
fn world_components_lists_the_built_ins_with_what_each_does() {
    let listed = seam(&["world", "components", "--json"], None);
    assert!(listed.status.success());
    let rows: Vec<serde_json::Value> = serde_json::from_str(&stdout(&listed)).unwrap();
    let kind_of = |name: &str| {
        rows.iter()
            .find(|row| row["name"] == name)
            .map(|row| row["kind"].as_str().unwrap_or_default().to_owned())
    };
    assert_eq!(kind_of("bash-sandbox").as_deref(), Some("provider"));
    assert_eq!(kind_of("terminal-sandbox").as_deref(), Some("provider"));
    assert_eq!(kind_of("tool-fs").as_deref(), Some("tool"));
    assert_eq!(kind_of("bench-provider"), None);
    for row in &rows {
        assert!(row["description"].as_str().is_some_and(|d| d.len() > 20), "{row}");
    }
    let text = stdout(&seam(&["world", "components"], None));
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("fs-sandbox "))
        .unwrap_or_default();
    assert!(line.contains("fences writes"), "{text}");
}

#[test]
fn a_refused_world_is_json_with_its_code_under_json() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.toml");
    std::fs::write(
        &missing,
        "tools = [\"tool-bash\"]\n[providers]\nshell = \"bash-local\"\n",
    )
    .unwrap();
    let broken = dir.path().join("broken.toml");
    std::fs::write(&broken, "tools = [\n").unwrap();
    for (file, code) in [(&missing, "LINK_MISSING"), (&broken, "WORLD_INVALID")] {
        let out = seam(&["world", "check", "--json", file.to_str().unwrap()], None);
        assert!(!out.status.success());
        let answer: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON on stdout");
        assert_eq!(answer["refused"]["code"], code, "{answer}");
        assert!(answer["refused"]["message"].as_str().is_some_and(|m| !m.is_empty()));
        let world = ["--world", file.to_str().unwrap()];
        let tools = seam(&[&world[..], &["tools", "--json"]].concat(), None);
        assert_eq!(tools.status.code(), Some(2));
        let answer: serde_json::Value = serde_json::from_str(&stdout(&tools)).expect("JSON on stdout");
        assert_eq!(answer["refused"]["code"], code, "{answer}");
        let called = seam(&[&world[..], &["call", "--json", "bash", "{}"]].concat(), None);
        assert_eq!(called.status.code(), Some(2));
        let answer: serde_json::Value = serde_json::from_str(&stdout(&called)).expect("JSON on stdout");
        assert_eq!(
            (&answer["code"], &answer["is_error"]),
            (&serde_json::json!(code), &serde_json::json!(true))
        );
    }
}

/// What the model reads of each tool is plain text: lines, and no line break or control
/// character inside a code span (an escape written once too few in the source shows as one).
#[test]
fn tool_descriptions_are_plain_text_the_model_can_read() {
    let dir = tempfile::tempdir().unwrap();
    let world = default_world(dir.path());
    let mut texts: Vec<(String, String)> = Vec::new();
    for tool in world.tools() {
        texts.push((tool.name.clone(), tool.description.clone()));
        for (field, schema) in tool.input_schema["properties"].as_object().into_iter().flatten() {
            let text = schema["description"].as_str().unwrap_or_default();
            texts.push((format!("{}.{field}", tool.name), text.to_owned()));
        }
    }
    for (name, text) in &texts {
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "{name}: a control character in {text:?}"
        );
        for line in text.lines() {
            assert!(
                line.matches('`').count() % 2 == 0,
                "{name}: a code span breaks a line: {line:?}"
            );
        }
    }
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
fn bench_rounds_print_each_row_once_from_its_median_round() {
    let out = seam(
        &["bench", "--quick", "--json", "--only", "crossing", "--rounds", "3"],
        None,
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows: Vec<serde_json::Value> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 1, "one row, not one per round: {rows:?}");
    assert_eq!(rows[0]["name"], "seam_crossing_vs_direct_call");
    let ratio = rows[0]["ratio"].as_f64().unwrap();
    let (value, baseline) = (
        rows[0]["value"].as_f64().unwrap(),
        rows[0]["baseline"].as_f64().unwrap(),
    );
    assert!(
        (ratio - value / baseline).abs() < 1e-9,
        "the row comes whole from one round"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("round 3 of 3"));
    let refused = seam(&["bench", "--rounds", "0"], None);
    assert_eq!(refused.status.code(), Some(2), "clap refuses zero rounds");
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

/// `seam call` with its own component cache: what a call compiled lands there.
fn seam_cached(cache: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_seam"))
        .env("SEAM_CACHE_DIR", cache)
        .env_remove("RUST_LOG")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn cached_components(cache: &std::path::Path) -> Vec<std::path::PathBuf> {
    let entries = std::fs::read_dir(cache).unwrap().map(|e| e.unwrap().path());
    entries
        .filter(|p| p.extension().is_some_and(|e| e == "cwasm"))
        .collect()
}

/// A cache that cannot be written costs compile time, not a page of warnings: the call works
/// and says so once.
#[test]
fn a_cache_that_cannot_be_written_is_said_once_and_the_call_works() {
    let dir = tempfile::tempdir().unwrap();
    // A regular file where the cache directory would be: nothing can be created under it.
    let cache = dir.path().join("cache");
    std::fs::write(&cache, "").unwrap();
    let out = seam_cached(&cache, &["call", "bash", r#"{"command": "echo ran"}"#]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stdout(&out), "ran\n", "{stderr}");
    assert_eq!(stderr.matches("WARN").count(), 1, "{stderr}");
    assert!(
        stderr.contains("the component cache cannot be written") && stderr.contains("SEAM_CACHE_DIR"),
        "{stderr}"
    );
}

#[test]
fn a_single_call_loads_only_what_its_tool_reaches_once_the_world_is_known() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let world = dir.path().join("world.toml");
    std::fs::write(
        &world,
        "tools = [\"tool-bash\", \"tool-fs\"]\n[providers]\nsubprocess = \"subprocess-local\"\n\
         shell = \"bash-local\"\njobs = \"jobs-local\"\npolicy = \"sandbox-policy\"\n\
         approval = \"approval-never\"\nfs = \"fs-local\"\n",
    )
    .unwrap();
    let world = world.to_str().unwrap();
    let call = |tool: &str, args: &str| seam_cached(&cache, &["--world", world, "call", tool, args]);

    // The first call loads (and compiles) the whole world, and records what it learned.
    let first = call("bash", r#"{"command": "echo one"}"#);
    assert_eq!(stdout(&first), "one\n", "{}", String::from_utf8_lossy(&first.stderr));
    let all = cached_components(&cache);
    assert_eq!(all.len(), 8, "{all:?}");
    // A person waiting for the first load is told what it is doing.
    let compiling = |out: &Output| String::from_utf8_lossy(&out.stderr).matches("compiling ").count();
    assert_eq!(compiling(&first), 8, "{}", String::from_utf8_lossy(&first.stderr));
    assert!(String::from_utf8_lossy(&first.stderr).contains("compiling tool-bash, once"));

    // Without the compiled components bash cannot reach, a bash call does not compile them.
    for entry in &all {
        std::fs::remove_file(entry).unwrap();
    }
    let second = call("bash", r#"{"command": "echo two"}"#);
    assert_eq!(stdout(&second), "two\n");
    assert_eq!(cached_components(&cache).len(), 6, "tool-fs and fs-local stay out");
    assert_eq!(compiling(&second), 6);

    // A read reaches tool-fs and fs-local.
    let read = call("read", &format!(r#"{{"file_path": "{world}"}}"#));
    assert!(read.status.success(), "{}", stdout(&read));
    assert_eq!(cached_components(&cache).len(), 8);

    // A record that cannot be read costs the full load, nothing else.
    for record in std::fs::read_dir(cache.join("worlds")).unwrap() {
        std::fs::write(record.unwrap().path(), "{").unwrap();
    }
    let third = call("bash", r#"{"command": "echo three"}"#);
    assert_eq!(stdout(&third), "three\n");
    assert_eq!(compiling(&third), 0, "everything was compiled before");
}

#[test]
fn a_refused_world_is_refused_at_every_call_and_never_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let world = dir.path().join("broken.toml");
    std::fs::write(&world, "tools = [\"tool-bash\"]\n").unwrap();
    for _ in 0..2 {
        let out = seam_cached(&cache, &["--world", world.to_str().unwrap(), "call", "bash", "{}"]);
        assert_eq!(out.status.code(), Some(2), "a world that cannot load is a usage error");
        assert!(String::from_utf8_lossy(&out.stderr).contains("LINK_MISSING"), "{out:?}");
    }
    assert!(!cache.join("worlds").exists());
}
