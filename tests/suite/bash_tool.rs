//! The vertical slice: tool-bash → bash-local → subprocess-local → the native process shim,
//! with real bash.

use crate::common::*;
use serde_json::json;
use std::time::{Duration, Instant};

#[test]
fn runs_a_command_and_reports_the_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let world = default_world(dir.path());
    let result = bash(&world, "echo out; echo err >&2; exit 3");
    assert!(
        !result.is_error,
        "a non-zero exit is a result, not an error: {result:?}"
    );
    assert_eq!(result.text(), "out\nerr\n[exit code: 3]");
    let ok = bash(&world, "printf done");
    assert_eq!(ok.text(), "done");
}

/// The "not all text" note follows bytes that really were not UTF-8, not a U+FFFD the command
/// printed as text.
#[test]
fn only_output_that_is_not_utf8_is_called_not_text() {
    let dir = tempfile::tempdir().unwrap();
    let world = default_world(dir.path());
    let printed = bash(&world, r"printf 'caf\xef\xbf\xbd\n'");
    assert_eq!(printed.text(), "caf\u{fffd}");
    let latin1 = bash(&world, r"printf 'caf\xe9\n'").text();
    assert!(
        latin1.starts_with("caf\u{fffd}\n[the output is not all text"),
        "{latin1}"
    );
}

#[test]
fn workdir_defaults_to_the_session_cwd_and_resolves_relative_paths() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let world = default_world(dir.path());
    let here = bash(&world, "pwd").text();
    assert_eq!(here, std::fs::canonicalize(dir.path()).unwrap().display().to_string());
    let sub = call(&world, "bash", json!({"command": "pwd", "workdir": "sub"})).text();
    assert!(sub.ends_with("/sub"), "{sub}");
    let missing = call(&world, "bash", json!({"command": "pwd", "workdir": "nope"}));
    assert!(missing.is_error);
    assert!(
        missing.code.as_deref().is_some_and(|c| c.ends_with("CWD_INVALID")),
        "{missing:?}"
    );
}

#[test]
fn stdin_is_empty_so_cat_returns_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let world = default_world(dir.path());
    let start = Instant::now();
    let result = bash(&world, "cat; echo after");
    assert_eq!(result.text(), "after");
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn secret_like_environment_never_reaches_the_child() {
    // The host reads its environment when it starts: run the real CLI with these set. The
    // command prints its own environment, and then what /proc shows of its parent's (the
    // supervisor, a fork of seam) and of seam's: the environments they were started with.
    let command = "env; for pid in $PPID $(ps -o ppid= -p $PPID); do tr '\\0' '\\n' < /proc/$pid/environ; done";
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_seam"))
        .args(["call", "bash", &serde_json::json!({ "command": command }).to_string()])
        .env("MY_API_KEY", "k1")
        .env("DB_PASSWORD", "p1")
        .env("GITHUB_TOKEN", "t1")
        .env("aws_secret_access_key", "s1")
        .env("SEAM_INTERNAL", "x1")
        .env("PLAIN_SETTING", "visible")
        .env("DATABASE_URL", "postgres://u:hunter2@db/x")
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let env = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        env.matches("PLAIN_SETTING=visible").count(),
        1,
        "ordinary variables pass, and only the command's own environment shows: {env}"
    );
    for name in [
        "MY_API_KEY",
        "DB_PASSWORD",
        "GITHUB_TOKEN",
        "aws_secret_access_key",
        "SEAM_INTERNAL",
        "DATABASE_URL",
    ] {
        assert!(!env.contains(&format!("{name}=")), "{name} leaked");
    }
    for pinned in ["NO_COLOR=1", "TERM=dumb", "PAGER=cat", "GIT_PAGER=cat"] {
        assert!(env.lines().any(|l| l == pinned), "{pinned} is set");
    }
}

#[test]
fn seams_memory_is_closed_to_the_commands_it_runs() {
    // /proc/<pid>/mem of seam and of its supervisors (forks of it) stays closed to a command of
    // the same user, while the command's own child stays open. Root may open anything, so as
    // root the CLI runs as nobody.
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::os::unix::fs::PermissionsExt::from_mode(0o777)).unwrap();
    let command = "p=$PPID; while [ $p -gt 1 ]; do c=$(cat /proc/$p/comm); \
        (exec 3</proc/$p/mem) 2>/dev/null && echo \"$c open\" || echo \"$c closed\"; \
        [ \"$c\" = seam ] && break; p=$(cut -d' ' -f4 /proc/$p/stat); done; \
        sleep 5 & (exec 3</proc/$!/mem) && echo 'child open'; kill $!";
    let args = ["call", "bash", &json!({ "command": command }).to_string()];
    let mut cli = seam_without_root();
    let output = cli
        .args(args)
        .current_dir(dir.path())
        .env("SEAM_CACHE_DIR", dir.path().join("cache"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{output:?}");
    assert!(
        text.contains("seam-supervisor closed\n") && text.contains("seam closed\n"),
        "{text}"
    );
    assert!(
        text.contains("child open") && text.matches("open").count() == 1,
        "{text}"
    );
}

#[test]
fn long_output_keeps_head_and_tail_and_spills_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let world = default_world(dir.path());
    let result = bash(&world, "echo FIRST; seq 1 200000; echo LAST");
    let text = result.text();
    assert!(text.starts_with("FIRST\n1\n2\n"), "head kept: {}", &text[..80]);
    assert!(text.ends_with("199999\n200000\nLAST"), "tail kept");
    let notice = text
        .lines()
        .find(|l| l.contains("bytes truncated"))
        .expect("a truncation notice");
    let total: usize =
        "FIRST\n".len() + (1..=200000).map(|n: u32| n.to_string().len() + 1).sum::<usize>() + "LAST\n".len();
    let dropped = number_after(notice, "[") as usize;
    // The default budget, 64 KiB, split between the two ends, and the notice between them.
    assert!(text.len() < 64 * 1024 + 200, "bounded output: {} bytes", text.len());
    assert!(dropped > total / 2 && dropped < total, "dropped {dropped} of {total}");
    let path = notice.split("full output: ").nth(1).unwrap().trim_end_matches("] ...");
    let spilled = std::fs::read_to_string(path).expect("the spill file exists");
    assert_eq!(spilled.len(), total, "the spill file holds the whole output");
    assert!(spilled.starts_with("FIRST\n") && spilled.ends_with("200000\nLAST\n"));
}

/// Past max_spill_bytes the spill file holds the first bytes only, and the notice says how
/// many of how many, not "full output".
#[test]
fn a_spill_cut_at_its_cap_says_how_much_it_holds() {
    let dir = tempfile::tempdir().unwrap();
    let world = world(
        "tools = [\"tool-bash\"]\n[providers]\nsubprocess = \"subprocess-local\"\nshell = \"bash-local\"\n\
         jobs = \"jobs-local\"\npolicy = \"sandbox-policy\"\napproval = \"approval-never\"\n\
         [config.bash-local]\nmax_spill_bytes = 100000\n",
        dir.path(),
    );
    let text = bash(&world, "seq 1 200000").text();
    let total: usize = (1..=200000).map(|n: u32| n.to_string().len() + 1).sum();
    let notice = text
        .lines()
        .find(|l| l.contains("bytes truncated"))
        .expect("a truncation notice");
    let shown = format!("the first 100000 of {total} bytes of output: ");
    let path = notice
        .split(&shown)
        .nth(1)
        .unwrap_or_else(|| panic!("{notice}"))
        .trim_end_matches("] ...");
    let spilled = std::fs::read(path).expect("the spill file exists");
    assert_eq!(spilled.len(), 100_000);
    assert!(spilled.starts_with(b"1\n2\n3\n"));
}

#[test]
fn background_children_do_not_hold_the_call_and_do_not_survive_it() {
    let dir = tempfile::tempdir().unwrap();
    let world = default_world(dir.path());
    let marker = unique_seconds(300);
    let start = Instant::now();
    let result = bash(&world, &format!("sleep {marker} & setsid sleep {marker} & echo hi"));
    assert_eq!(
        result.text(),
        "hi\n[stopped 2 processes the command left running; run it with run_in_background to keep it running]"
    );
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "returned at once: {:?}",
        start.elapsed()
    );
    assert!(
        eventually(Duration::from_secs(3), || processes_with(&marker).is_empty()),
        "left: {:?}",
        processes_with(&marker)
    );
}

#[test]
fn timeout_terminates_the_whole_tree_including_escaped_descendants() {
    let dir = tempfile::tempdir().unwrap();
    let world = default_world(dir.path());
    let (a, b, c) = (unique_seconds(301), unique_seconds(302), unique_seconds(303));
    let command = format!("setsid sleep {a} & ( ( sleep {b} & ) & ) ; trap '' TERM; sleep {c}; echo never");
    let start = Instant::now();
    let result = call(&world, "bash", json!({"command": command, "timeout_ms": 500}));
    assert!(!result.is_error, "{result:?}");
    assert!(result.text().contains("[timed out after 500 ms]"), "{}", result.text());
    assert!(!result.text().contains("never"));
    assert!(start.elapsed() < Duration::from_secs(10), "{:?}", start.elapsed());
    for marker in [&a, &b, &c] {
        assert!(
            eventually(Duration::from_secs(5), || processes_with(marker).is_empty()),
            "a descendant survived: sleep {marker}: {:?}",
            processes_with(marker)
        );
    }
}

#[test]
fn invalid_arguments_are_error_results_with_a_code() {
    let dir = tempfile::tempdir().unwrap();
    let world = default_world(dir.path());
    let result = world.call("bash", "{\"command\": 5}", world.call_context("t"));
    assert!(result.is_error);
    assert_eq!(result.code.as_deref(), Some("INVALID_ARGUMENTS"));
    let unknown = world.call("nope", "{}", world.call_context("t"));
    assert_eq!(unknown.code.as_deref(), Some("UNKNOWN_TOOL"));
}
