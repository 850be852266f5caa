//! workspace-write mode, for each runner: writes land in the workspace (and /tmp) only, and the
//! usual ways out (symlinks, `..`, hard links, /proc/self/root, renames, moving the
//! workspace) stay shut. What a runner really does differently is asserted as it is.

use crate::sandbox_support::*;
use serde_json::json;
use std::path::Path;

#[test]
fn writes_inside_the_workspace_land_on_the_host() {
    for_each_runner(|runner, world| {
        for workspace in [Dir::off_tmp().seeded(), Dir::in_tmp().seeded()] {
            let run = run(
                world,
                runner,
                "workspace-write",
                &workspace.path,
                "echo changed > file.txt && mkdir -p made/deep && echo new > made/deep/f && \
                 mv dir renamed && rm renamed/inner.txt && chmod 600 file.txt && ln -s file.txt link",
            );
            assert_eq!(
                run.exit_code,
                Some(0),
                "{runner} in {}: {run:?}",
                workspace.path.display()
            );
            assert_eq!(
                std::fs::read_to_string(workspace.join("file.txt")).unwrap(),
                "changed\n"
            );
            assert_eq!(std::fs::read_to_string(workspace.join("made/deep/f")).unwrap(), "new\n");
            assert!(workspace.join("renamed").is_dir() && !workspace.join("renamed/inner.txt").exists());
            assert!(workspace.join("link").is_symlink());
        }
    });
}

/// bwrap gives the command a private /tmp (its writes vanish with it); Landlock lets it write
/// the host's /tmp, a writable root of the policy.
#[test]
fn tmp_is_writable_private_under_bwrap_and_shared_under_landlock() {
    for_each_runner(|runner, world| {
        let workspace = Dir::off_tmp();
        let name = format!("/tmp/seam-tmp-{runner}-{}", std::process::id());
        let run = run(
            world,
            runner,
            "workspace-write",
            &workspace.path,
            &format!("echo t > {name} && cat {name}"),
        );
        assert_eq!(
            (run.exit_code, run.stdout.as_str()),
            (Some(0), "t\n"),
            "{runner}: {run:?}"
        );
        let on_host = Path::new(&name).exists();
        let _ = std::fs::remove_file(&name);
        assert_eq!(
            on_host,
            runner == "landlock",
            "{runner}: a /tmp write on the host: {on_host}"
        );
    });
}

/// Each escape tries to change `O`, a directory beside the workspace (outside every writable
/// root); `W` is the workspace.
const ESCAPES: &[(&str, &str)] = &[
    ("symlink to a directory", "ln -s $O $W/esc && echo x > $W/esc/new"),
    (
        "symlink to a file",
        "ln -s $O/file.txt $W/esc-file && echo x > $W/esc-file",
    ),
    ("dot-dot", "echo x > $W/../$(basename $O)/new"),
    ("hard link out", "ln $O/file.txt $W/hard && echo x >> $W/hard"),
    ("/proc/self/root", "echo x > /proc/self/root$O/new"),
    ("/proc/self/cwd", "cd $O && echo x > /proc/self/cwd/new"),
    ("rename over", "echo x > $W/payload && mv -f $W/payload $O/file.txt"),
    ("rename out", "mv $W/file.txt $O/moved"),
    ("remove outside", "rm -rf $O/dir"),
    ("truncate outside", "truncate -s 0 $O/file.txt"),
    ("move the workspace", "mv $W $W.moved"),
    ("new sibling", "mkdir $W.sibling"),
];

#[test]
fn escapes_from_the_workspace_fail_and_change_nothing_outside() {
    for_each_runner(|runner, world| {
        let workspace = Dir::off_tmp().seeded();
        let outside = Dir::off_tmp().seeded();
        let before = snapshot(&outside.path);
        for (name, escape) in ESCAPES {
            let command = format!("W={} O={}; {escape}", workspace.path.display(), outside.path.display());
            let run = run(world, runner, "workspace-write", &workspace.path, &command);
            assert_ne!(run.exit_code, Some(0), "{runner}: {name} succeeded: {run:?}");
            assert!(workspace.path.is_dir(), "{runner}: {name} moved the workspace");
        }
        assert_eq!(
            before,
            snapshot(&outside.path),
            "{runner}: an escape changed the outside"
        );
        let sibling = format!("{}.sibling", workspace.path.display());
        assert!(!Path::new(&sibling).exists(), "{runner}: created {sibling}");
    });
}

/// A workspace below /tmp is the host's directory under both runners. bwrap binds it over its
/// private /tmp, as a mount point that cannot be moved; under Landlock /tmp is writable, so the
/// workspace can be renamed within /tmp (which stays inside the policy's writable roots).
#[test]
fn a_workspace_below_tmp_is_the_hosts_and_its_move_stays_within_tmp() {
    for_each_runner(|runner, world| {
        let workspace = Dir::in_tmp().seeded();
        let outside = Dir::off_tmp().seeded();
        let before = snapshot(&outside.path);
        let (w, o) = (workspace.path.display(), outside.path.display());
        let write = run(
            world,
            runner,
            "workspace-write",
            &workspace.path,
            &format!("echo w > {w}/written; echo x > {o}/new"),
        );
        assert_eq!(
            std::fs::read_to_string(workspace.join("written")).ok().as_deref(),
            Some("w\n"),
            "{runner}: {write:?}"
        );
        assert_eq!(before, snapshot(&outside.path), "{runner}");

        let moved = format!("{w}.moved");
        let mv = run(
            world,
            runner,
            "workspace-write",
            &workspace.path,
            &format!("mv {w} {moved}"),
        );
        let was_moved = std::path::Path::new(&moved).exists();
        if was_moved {
            std::fs::rename(&moved, &workspace.path).unwrap();
        }
        assert!(workspace.path.is_dir());
        assert_eq!(was_moved, runner == "landlock", "{runner}: {mv:?}");
    });
}

#[test]
fn extra_writable_roots_are_writable_and_nothing_else() {
    for_each_runner(|runner, world| {
        let workspace = Dir::off_tmp();
        let root = Dir::off_tmp();
        let outside = Dir::off_tmp();
        let command = format!(
            "echo r > {}/r && ! echo o > {}/o",
            root.path.display(),
            outside.path.display()
        );
        let result = run_with(
            world,
            serde_json::json!({
                "runner": runner, "mode": "workspace-write", "workspace": workspace.path,
                "command": command, "writable_roots": ["/tmp", root.path],
            }),
        );
        let run = parse(result);
        assert_eq!(run.exit_code, Some(0), "{runner}: {run:?}");
        assert!(root.join("r").exists() && !outside.join("o").exists());
    });
}

/// The bash tool's workdir is where a confined command starts, or it does not start: left to
/// itself, bwrap starts a command whose directory its private /tmp hides in $HOME (or /).
#[test]
fn a_confined_command_starts_in_its_workdir_or_not_at_all() {
    for runner in RUNNERS {
        if let Some(reason) = kernel_lacks(runner) {
            eprintln!("skipped the {runner} case: {reason}");
            continue;
        }
        let workspace = Dir::off_tmp().seeded();
        let hidden = Dir::in_tmp();
        let world = bash_world(runner, &workspace.path);
        let pwd = |workdir: &Path| crate::common::call(&world, "bash", json!({"command": "pwd", "workdir": workdir}));

        let inside = pwd(&workspace.join("dir"));
        assert_eq!(
            inside.text(),
            workspace.join("dir").display().to_string(),
            "{runner}: {inside:?}"
        );
        let in_tmp = pwd(&hidden.path);
        // A symlink from outside /tmp into it: only bwrap itself can tell, at its --chdir.
        std::os::unix::fs::symlink(&hidden.path, workspace.join("into-tmp")).unwrap();
        let linked = pwd(&workspace.join("into-tmp"));
        if runner == "bwrap" {
            assert_eq!(in_tmp.code.as_deref(), Some("SANDBOX_CWD_HIDDEN"), "{in_tmp:?}");
            assert!(in_tmp.text().contains("private /tmp"), "{in_tmp:?}");
            assert_eq!(linked.code.as_deref(), Some("SANDBOX_RUNNER_FAILED"), "{linked:?}");
            assert!(linked.text().contains("chdir"), "{linked:?}");
        } else {
            assert_eq!(in_tmp.text(), hidden.path.display().to_string(), "{runner}: {in_tmp:?}");
            assert_eq!(linked.text(), hidden.path.display().to_string(), "{runner}: {linked:?}");
        }
    }
}

/// The bash tool in a workspace-write world confined by `runner` alone.
fn bash_world(runner: &str, workspace: &Path) -> seam_host::World {
    let toml = format!(
        "sandbox = \"workspace-write\"\ntools = [\"tool-bash\"]\n[providers]\n\
         subprocess = \"subprocess-local\"\nshell = \"bash-sandbox\"\njobs = \"jobs-local\"\n\
         sandbox = \"sandbox-local\"\npolicy = \"sandbox-policy\"\napproval = \"approval-never\"\n\
         [config.sandbox-local]\nchain = [{runner:?}]\n"
    );
    crate::common::world(&toml, workspace)
}

/// Runs `test` once per runner the kernel supports, with `bash` running a command through
/// bash-sandbox confined by that runner, in a fresh workspace outside /tmp.
fn for_each_confined_bash(mut test: impl FnMut(&str, &dyn Fn(&str) -> seam_host::ToolResult)) {
    for runner in RUNNERS {
        if let Some(reason) = kernel_lacks(runner) {
            eprintln!("skipped the {runner} case: {reason}");
            continue;
        }
        let workspace = Dir::off_tmp();
        let world = bash_world(runner, &workspace.path);
        test(runner, &|command| {
            crate::common::call(&world, "bash", json!({"command": command}))
        });
    }
}

/// The spill file a truncation notice points to can be read by the next confined command,
/// whatever the sandbox does to /tmp.
#[test]
fn a_confined_command_can_read_the_spill_file_its_notice_names() {
    for_each_confined_bash(|runner, bash| {
        let long = bash("seq 1 100000");
        let text = long.text();
        let path = text
            .split("full output: ")
            .nth(1)
            .and_then(|rest| rest.split(']').next())
            .unwrap_or_else(|| panic!("{runner}: a truncation notice with a spill path: {long:?}"));
        let counted = bash(&format!("wc -l < {path}"));
        assert_eq!(counted.text(), "100000", "{runner}: {counted:?}");
    });
}

/// A confined command is told about processes it left running, and only about those: bwrap's
/// own processes, which may outlive the command for a moment, are never counted.
#[test]
fn only_processes_the_confined_command_left_running_are_reported() {
    const STOPPED: &str = "[stopped 1 process the command left running";
    for_each_confined_bash(|runner, bash| {
        for _ in 0..20 {
            let plain = bash("echo hi");
            assert_eq!(plain.text(), "hi", "{runner}: {plain:?}");
        }
        let marker = crate::common::unique_seconds(300);
        let left = bash(&format!("sleep {marker} & echo hi"));
        match runner {
            // The pid namespace ends the sleep with the command, unseen.
            "bwrap" => assert_eq!(left.text(), "hi", "{runner}: {left:?}"),
            _ => assert!(left.text().starts_with(&format!("hi\n{STOPPED}")), "{runner}: {left:?}"),
        }
        assert!(
            crate::common::eventually(std::time::Duration::from_secs(3), || {
                crate::common::processes_with(&marker).is_empty()
            }),
            "{runner}: the sleep is gone"
        );
    });
}

/// A confined command holds no capability, whoever runs seam: run by root, bwrap would
/// otherwise leave it enough to remount `/` read-write and write anywhere. Nor can it write a
/// kernel setting, which uid 0 may without any capability.
#[test]
fn a_command_confined_by_bwrap_holds_no_capability() {
    if let Some(reason) = kernel_lacks("bwrap") {
        eprintln!("skipped: {reason}");
        return;
    }
    let world = sandbox_world(&["bwrap"]);
    let workspace = Dir::off_tmp();
    let outside = Dir::off_tmp();
    let target = outside.join("escaped");
    let command = format!(
        "grep CapEff /proc/self/status; mount -o remount,bind,rw / 2>/dev/null; echo x > {}; \
         cat /proc/sys/kernel/hostname 2>/dev/null > /proc/sys/kernel/hostname && echo sysctl written",
        target.display()
    );
    let run = run(&world, "bwrap", "workspace-write", &workspace.path, &command);
    assert_eq!(run.stdout.trim(), "CapEff:\t0000000000000000", "{run:?}");
    assert!(!target.exists(), "{run:?}");
}
