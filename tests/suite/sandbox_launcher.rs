//! The Landlock launcher the host carries, installed as seam installs it and run directly: it
//! confines what it runs, sets no_new_privs, and fails with its own fatal line and exit code
//! instead of ever running a command it could not confine.

use crate::sandbox_support::*;
use seam_host::natives::sandbox_launch::landlock::{FATAL_EXIT, FATAL_PREFIX, REPORT_PREFIX};
use seam_host::natives::sandbox_launch::launcher::Launcher;
use seam_host::world::cache::ComponentCache;
use std::process::{Command, Output};

fn launcher(args: &[&str]) -> Output {
    let launcher = Launcher::carried(ComponentCache::default_dir());
    Command::new(launcher.path().expect("the launcher installs"))
        .args(args)
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn it_confines_the_command_and_reports_full_ruleset_enforcement() {
    if let Some(reason) = kernel_lacks("landlock") {
        return eprintln!("skipped: {reason}");
    }
    let writable = Dir::off_tmp();
    let outside = Dir::off_tmp();
    let script = format!(
        "echo in > {w}/in && ! echo out 2>/dev/null > {o}/out && grep NoNewPrivs /proc/self/status",
        w = writable.path.display(),
        o = outside.path.display()
    );
    let w = writable.path.to_str().unwrap();
    let out = launcher(&[
        "--report",
        "--read",
        "/",
        "--write",
        "/dev/null",
        "--write",
        w,
        "--",
        "bash",
        "-c",
        &script,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .collect::<Vec<_>>(),
        ["NoNewPrivs:", "1"]
    );
    assert!(writable.join("in").exists() && !outside.join("out").exists());
    // ABI 3 or later enforces every right the launcher handles.
    assert!(
        stderr(&out).starts_with(&format!("{REPORT_PREFIX} full (ABI ")),
        "{}",
        stderr(&out)
    );
}

/// Landlock confines paths only: the command also loses every capability (run by root it
/// would keep them, enough to load a kernel module), and may not make device nodes even where
/// it may write.
#[test]
fn it_leaves_the_command_no_capability_and_no_device_nodes() {
    if let Some(reason) = kernel_lacks("landlock") {
        return eprintln!("skipped: {reason}");
    }
    let writable = Dir::off_tmp();
    let script = format!(
        "grep -E '^Cap(Prm|Eff|Bnd)' /proc/self/status; mknod {w}/null c 1 3 2>/dev/null && echo made",
        w = writable.path.display()
    );
    let w = writable.path.to_str().unwrap();
    let out = launcher(&["--read", "/", "--write", w, "--", "bash", "-c", &script]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "CapPrm:\t0000000000000000\nCapEff:\t0000000000000000\nCapBnd:\t0000000000000000\n",
        "{}",
        stderr(&out)
    );
    assert!(!writable.join("null").exists());
}

/// From Landlock ABI 6 on, the command cannot signal processes outside its domain: not its
/// parent (seam's supervisor, or seam), while its own children stay within reach.
#[test]
fn it_keeps_the_command_from_signalling_processes_outside_the_sandbox() {
    if let Some(reason) = kernel_lacks("landlock") {
        return eprintln!("skipped: {reason}");
    }
    if seam_host::natives::sandbox_launch::landlock::abi() < 6 {
        return eprintln!("skipped: this kernel's Landlock does not scope signals (ABI < 6)");
    }
    let script = "kill -0 $PPID 2>/dev/null && echo parent reached; sleep 5 & kill $! && echo child reached";
    let out = launcher(&["--read", "/", "--write", "/dev/null", "--", "bash", "-c", script]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "child reached\n",
        "{}",
        stderr(&out)
    );
}

#[test]
fn it_never_runs_a_command_it_could_not_confine() {
    let dir = Dir::off_tmp();
    let marker = dir.join("ran");
    let touch = format!("touch {}", marker.display());
    std::os::unix::fs::symlink("/etc", dir.join("link")).unwrap();
    let link = dir.join("link");
    let missing = dir.join("missing");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--read", "/"], "no `--`"),
        (vec!["--read", "/", "--"], "no command"),
        (vec!["--exec", "--", "bash", "-c", &touch], "unknown argument"),
        (
            vec!["--read", "relative", "--", "bash", "-c", &touch],
            "not an absolute path",
        ),
        (
            vec![
                "--read",
                "/",
                "--write",
                link.to_str().unwrap(),
                "--",
                "bash",
                "-c",
                &touch,
            ],
            "is a symlink",
        ),
        (
            vec![
                "--read",
                "/",
                "--write",
                missing.to_str().unwrap(),
                "--",
                "bash",
                "-c",
                &touch,
            ],
            "No such file",
        ),
        (vec!["--read", "/", "--", "/nonexistent/program"], "cannot execute"),
    ];
    for (args, why) in cases {
        if why == "cannot execute" && kernel_lacks("landlock").is_some() {
            // Without Landlock the launcher stops before exec, with its own fatal line.
            continue;
        }
        let out = launcher(&args);
        assert_eq!(
            out.status.code(),
            Some(i32::from(FATAL_EXIT)),
            "{args:?}: {}",
            stderr(&out)
        );
        let line = stderr(&out);
        assert!(line.starts_with(FATAL_PREFIX) && line.contains(why), "{args:?}: {line}");
        assert!(!marker.exists(), "{args:?} ran the command");
    }
}
