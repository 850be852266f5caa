//! The runner chain as a whole: which runner is chosen and reported, failing closed when none
//! works, refusing what must not be confined, and telling denied / runner failure / ordinary
//! failure apart for each runner.

use crate::common::*;
use crate::sandbox_support::*;
use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;

fn runners_report(chain: &[&str]) -> Vec<Value> {
    let result = call(&sandbox_world(chain), "sandbox_runners", json!({}));
    assert!(!result.is_error, "{result:?}");
    serde_json::from_str(&result.text()).unwrap()
}

#[test]
fn the_default_chain_prefers_bwrap_and_reports_landlock_as_partial() {
    if RUNNERS.iter().any(|r| kernel_lacks(r).is_some()) {
        return eprintln!("skipped: this kernel lacks a runner of the default chain");
    }
    let report = runners_report(&["bwrap", "landlock"]);
    let names: Vec<&str> = report.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["bwrap", "landlock"]);
    assert_eq!(report[0]["selected"], true);
    assert_eq!(report[0]["enforcement"], "full");
    assert!(report[0]["detail"].as_str().unwrap().ends_with("/bwrap"), "{report:?}");
    assert_eq!(
        (&report[1]["usable"], &report[1]["selected"]),
        (&json!(true), &json!(false))
    );
    assert_eq!(report[1]["enforcement"], "partial");
    let detail = report[1]["detail"].as_str().unwrap();
    assert!(
        detail.contains("Landlock ABI") && detail.contains("/launcher/seam-landlock-launcher-"),
        "{detail}"
    );
}

#[test]
fn runners_of_other_platforms_and_unknown_names_are_reported_unusable() {
    let report = runners_report(&["seatbelt", "windows-acl", "firejail"]);
    assert!(
        report.iter().all(|r| r["usable"] == false && r["selected"] == false),
        "{report:?}"
    );
    assert!(
        report[0]["detail"]
            .as_str()
            .unwrap()
            .contains("untested on this platform")
    );
    assert_eq!(report[2]["detail"], "unknown runner");
}

/// A world file and a PATH holding bash but no bwrap, for the real CLI.
struct NoBwrap {
    dir: Dir,
}

impl NoBwrap {
    fn new(config: &str) -> Self {
        let dir = Dir::off_tmp();
        std::fs::create_dir(dir.join("bin")).unwrap();
        for tool in ["bash", "touch"] {
            let real = which(tool);
            std::os::unix::fs::symlink(real, dir.join("bin").join(tool)).unwrap();
        }
        let world = format!(
            "tools = [{:?}]\n[providers]\nsubprocess = \"subprocess-local\"\nsandbox = \"sandbox-local\"\n\
             [config.sandbox-local]\n{config}\n",
            fixture("fixture-confine-tool").display().to_string()
        );
        std::fs::write(dir.join("world.toml"), world).unwrap();
        Self { dir }
    }

    fn call(&self, mode: &str) -> Value {
        let args = json!({"mode": mode, "workspace": self.dir.path, "command": "touch ran"});
        let out = Command::new(env!("CARGO_BIN_EXE_seam"))
            .arg("--world")
            .arg(self.dir.join("world.toml"))
            .args(["call", "--json", "confine_run", &args.to_string()])
            .env("PATH", self.dir.join("bin"))
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
    }
}

fn which(tool: &str) -> std::path::PathBuf {
    let found = std::env::var("PATH")
        .unwrap()
        .split(':')
        .map(|dir| Path::new(dir).join(tool))
        .find(|p| p.is_file());
    found.unwrap_or_else(|| panic!("{tool} is not on PATH"))
}

#[test]
fn no_usable_runner_fails_closed_and_runs_nothing() {
    for config in [
        "chain = [\"bwrap\"]\nlandlock = false",
        "chain = [\"bwrap\", \"landlock\"]\nlandlock = false",
    ] {
        let setup = NoBwrap::new(config);
        for mode in ["read-only", "workspace-write"] {
            let result = setup.call(mode);
            assert_eq!(result["code"], "SANDBOX_UNAVAILABLE", "{config} {mode}: {result}");
            let message = result["content"][0]["text"].as_str().unwrap();
            assert!(message.contains("bwrap is not on the host PATH"), "{message}");
        }
        assert!(!setup.dir.join("ran").exists(), "{config}: the raw command ran");
    }
    // The same world runs unconfined only when asked for danger-full-access, never by itself.
    let setup = NoBwrap::new("chain = [\"bwrap\"]\nlandlock = false");
    assert_eq!(setup.call("danger-full-access")["is_error"], false);
    assert!(setup.dir.join("ran").exists());
}

#[test]
fn landlock_stands_in_when_bwrap_is_missing() {
    if let Some(reason) = kernel_lacks("landlock") {
        return eprintln!("skipped: {reason}");
    }
    let setup = NoBwrap::new("chain = [\"bwrap\", \"landlock\"]");
    let result = setup.call("workspace-write");
    let run: Value = serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(
        (&run["runner"], &run["exit_code"]),
        (&json!("landlock"), &json!(0)),
        "{result}"
    );
    assert!(setup.dir.join("ran").exists());
}

fn confine_argv(world: &seam_host::World, args: Value) -> seam_host::ToolResult {
    call(world, "confine_argv", args)
}

#[test]
fn what_must_not_be_confined_is_refused() {
    let world = sandbox_world(&["bwrap", "landlock"]);
    let cases = [
        (
            json!({"mode": "danger-full-access", "workspace": "/tmp", "argv": ["true"]}),
            "SANDBOX_INVALID_POLICY",
        ),
        (
            json!({"mode": "read-only", "workspace": "tmp", "argv": ["true"]}),
            "SANDBOX_INVALID_POLICY",
        ),
        (
            json!({"mode": "workspace-write", "workspace": "/tmp/../etc", "argv": ["true"]}),
            "SANDBOX_INVALID_POLICY",
        ),
        (
            json!({"mode": "workspace-write", "workspace": "/tmp", "argv": ["true"], "writable_roots": ["/var/"]}),
            "SANDBOX_INVALID_POLICY",
        ),
        (
            json!({"mode": "read-only", "workspace": "/tmp", "argv": []}),
            "SANDBOX_INVALID_ARGV",
        ),
    ];
    for (args, code) in cases {
        let result = confine_argv(&world, args.clone());
        assert_eq!(result.code.as_deref(), Some(code), "{args}: {result:?}");
    }
}

/// Settings sandbox-local cannot read refuse the world when it loads, before anything runs.
#[test]
fn malformed_settings_refuse_the_world() {
    let refused = try_world(&sandbox_world_toml("chain = \"bwrap\""), Path::new("/"));
    let error = refused.err().expect("a chain that is not a list refuses the world");
    assert_eq!(error.code(), "WORLD_CONFIG_INVALID", "{error}");
    assert!(error.to_string().contains("[config.sandbox-local]"), "{error}");
    assert!(error.to_string().contains("chain"), "{error}");
}

#[test]
fn landlock_refuses_roots_that_do_not_exist_or_are_symlinks() {
    if let Some(reason) = kernel_lacks("landlock") {
        return eprintln!("skipped: {reason}");
    }
    let world = sandbox_world(&["landlock"]);
    let dir = Dir::off_tmp();
    std::os::unix::fs::symlink("/etc", dir.join("link")).unwrap();
    for workspace in [dir.join("missing"), dir.join("link")] {
        let args = json!({"mode": "workspace-write", "workspace": workspace, "argv": ["true"]});
        let result = confine_argv(&world, args);
        assert_eq!(result.code.as_deref(), Some("SANDBOX_INVALID_POLICY"), "{result:?}");
    }
}

#[test]
fn the_confined_record_carries_only_its_runners_dialect() {
    for_each_runner(|runner, world| {
        let args = json!({"mode": "read-only", "workspace": "/tmp", "argv": ["bash", "-c", "echo 'a -- b'"]});
        let result = confine_argv(world, args);
        let record: Value = serde_json::from_str(&result.text()).unwrap();
        let argv: Vec<&str> = record["argv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        let separator = argv.iter().position(|a| *a == "--").unwrap();
        assert_eq!(argv[separator + 1..], ["bash", "-c", "echo 'a -- b'"]);
        let (signatures, fatal, exit) = match runner {
            "bwrap" => (json!(["read-only file system"]), "bwrap:", json!([1])),
            _ => (
                json!(["permission denied"]),
                "seam landlock launcher: fatal:",
                json!([126]),
            ),
        };
        assert_eq!(record["denial_signatures"], signatures);
        assert_eq!(record["runner_failure_rules"][0]["fatal_stderr"], fatal);
        assert_eq!(record["runner_failure_rules"][0]["exit_codes"], exit);
    });
}

#[test]
fn denied_runner_failure_and_ordinary_failure_are_told_apart() {
    for_each_runner(|runner, world| {
        let workspace = Dir::off_tmp().seeded();
        let classify = |mode: &str, command: &str, program: Option<&str>| {
            let mut args = json!({"runner": runner, "mode": mode, "workspace": workspace.path, "command": command});
            if let Some(program) = program {
                args["program"] = json!(program);
            }
            parse(run_with(world, args))
        };
        let fatal = match runner {
            "bwrap" => "bwrap: fake",
            _ => "seam landlock launcher: fatal: fake",
        };
        let cases = [
            ("read-only", "echo x > file.txt".to_owned(), None, "denied"),
            (
                "workspace-write",
                "echo x > /etc/seam-denied".to_owned(),
                None,
                "denied",
            ),
            ("workspace-write", "exit 3".to_owned(), None, "failed"),
            ("read-only", "ls /nonexistent-seam-path".to_owned(), None, "failed"),
            // A command that prints the runner's fatal words is not the runner failing...
            ("read-only", format!("echo '{fatal}' >&2; exit 2"), None, "failed"),
            // ...nor is one that prints a denial and succeeds denied.
            ("read-only", "echo 'Permission denied' >&2".to_owned(), None, "ok"),
            // A program the runner cannot execute: the runner could not start the command.
            (
                "read-only",
                "true".to_owned(),
                Some("/nonexistent/seam-program"),
                "runner-failure",
            ),
        ];
        for (mode, command, program, expected) in cases {
            let run = classify(mode, &command, program);
            assert_eq!(run.classification, expected, "{runner} {mode} `{command}`: {run:?}");
        }
    });
}

#[test]
fn a_bwrap_that_cannot_apply_its_profile_is_a_runner_failure() {
    if let Some(reason) = kernel_lacks("bwrap") {
        return eprintln!("skipped: {reason}");
    }
    // A writable root that does not exist: bwrap cannot bind it and says so in its own words.
    let world = sandbox_world(&["bwrap"]);
    let workspace = Dir::off_tmp();
    let run = parse(run_with(
        &world,
        json!({"runner": "bwrap", "mode": "workspace-write", "workspace": workspace.path,
               "command": "true", "writable_roots": ["/nonexistent-seam-root"]}),
    ));
    assert_eq!(run.classification, "runner-failure", "{run:?}");
    assert!(run.stderr.starts_with("bwrap:"), "{run:?}");
}
