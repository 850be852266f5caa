//! read-only mode, for each runner: nothing in the filesystem changes, whatever the command
//! tries, and what the runner cannot stop is asserted as it really is.

use crate::sandbox_support::*;

/// Writes of every kind, each one expected to fail; `W` is the workspace, `O` a directory
/// outside it, `T` a directory in /tmp.
const ATTEMPTS: &[&str] = &[
    "echo x > $W/file.txt",
    "echo x >> $W/file.txt",
    "truncate -s 0 $W/file.txt",
    "touch $W/new",
    "mkdir $W/newdir",
    "rm $W/file.txt",
    "rm -r $W/dir",
    "mv $W/file.txt $W/moved",
    "ln -s /etc $W/link",
    "ln $W/file.txt $W/hard",
    "mkfifo $W/fifo",
    "cp $W/file.txt $W/copy",
    "echo x > $O/f",
    "echo x > $T/f",
    "echo x > /proc/self/root$W/file.txt",
    "mv $W $W.moved",
];

#[test]
fn nothing_in_the_filesystem_changes() {
    for_each_runner(|runner, world| {
        let workspace = Dir::off_tmp().seeded();
        let outside = Dir::off_tmp().seeded();
        let in_tmp = Dir::in_tmp().seeded();
        let before: Vec<_> = [&workspace, &outside, &in_tmp]
            .iter()
            .map(|d| snapshot(&d.path))
            .collect();
        for attempt in ATTEMPTS {
            let command = format!(
                "W={} O={} T={}; {attempt}",
                workspace.path.display(),
                outside.path.display(),
                in_tmp.path.display()
            );
            let run = run(world, runner, "read-only", &workspace.path, &command);
            assert_ne!(run.exit_code, Some(0), "{runner}: `{attempt}` succeeded: {run:?}");
            assert_ne!(run.classification, "runner-failure", "{runner}: `{attempt}`: {run:?}");
        }
        let after: Vec<_> = [&workspace, &outside, &in_tmp]
            .iter()
            .map(|d| snapshot(&d.path))
            .collect();
        assert_eq!(before, after, "{runner} let a write through");
    });
}

/// bwrap's /dev is its own (so is /dev/shm in it): a write there may succeed but never reaches
/// the host; Landlock refuses it.
#[test]
fn shared_memory_files_never_reach_the_host() {
    for_each_runner(|runner, world| {
        let workspace = Dir::off_tmp();
        let name = std::path::Path::new("/dev/shm").join(format!("seam-read-only-{runner}-{}", std::process::id()));
        let run = run(
            world,
            runner,
            "read-only",
            &workspace.path,
            &format!("echo x > {}", name.display()),
        );
        let reached = name.exists();
        let _ = std::fs::remove_file(&name);
        assert!(!reached, "{runner}: {run:?}");
        assert_eq!(run.exit_code == Some(0), runner == "bwrap", "{runner}: {run:?}");
    });
}

#[test]
fn reading_and_running_programs_still_work() {
    for_each_runner(|runner, world| {
        let workspace = Dir::off_tmp().seeded();
        let run = run(
            world,
            runner,
            "read-only",
            &workspace.path,
            "cat file.txt && ls dir && pwd && head -c 3 /etc/hostname > /dev/null",
        );
        assert_eq!(run.exit_code, Some(0), "{runner}: {run:?}");
        assert_eq!(
            run.stdout,
            format!("original\ninner.txt\n{}\n", workspace.path.display())
        );
        assert_eq!(run.classification, "ok");
    });
}

#[test]
fn a_write_is_classified_as_denied_in_the_runners_own_words() {
    for_each_runner(|runner, world| {
        let workspace = Dir::off_tmp().seeded();
        let run = run(world, runner, "read-only", &workspace.path, "echo x > file.txt");
        assert_eq!(run.classification, "denied", "{runner}: {run:?}");
        let wording = match runner {
            "bwrap" => "Read-only file system",
            _ => "Permission denied",
        };
        assert!(run.stderr.contains(wording), "{runner}: {run:?}");
    });
}

/// Metadata is where the runners differ: bwrap's read-only mounts refuse chmod and utimes;
/// Landlock governs neither, which is why it reports `partial`.
#[test]
fn metadata_changes_are_refused_by_bwrap_and_pass_landlock_which_reports_partial() {
    for_each_runner(|runner, world| {
        let workspace = Dir::off_tmp().seeded();
        let file = workspace.join("file.txt");
        let mode_before = std::fs::metadata(&file).unwrap().permissions();
        let run = run(world, runner, "read-only", &workspace.path, "chmod 600 file.txt");
        let mode_after = std::fs::metadata(&file).unwrap().permissions();
        match runner {
            "bwrap" => {
                assert_eq!(run.classification, "denied", "{run:?}");
                assert_eq!(mode_before, mode_after);
                assert_eq!(run.enforcement.as_deref(), Some("full"));
            }
            _ => {
                assert_eq!(run.exit_code, Some(0), "{run:?}");
                assert_ne!(mode_before, mode_after, "Landlock does not govern chmod");
                assert_eq!(run.enforcement.as_deref(), Some("partial"));
            }
        }
    });
}
