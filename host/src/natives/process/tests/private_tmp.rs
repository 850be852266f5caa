//! A program's own TMPDIR: there while its tree runs, gone with everything in it once it ends.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::*;
use crate::natives::process::ProcessTable;

/// The first line of a collected stdout, once the program has written it.
fn first_line(process: &Process) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let text = collected(process, Stream::Stdout);
        if let Some((line, _)) = text.split_once('\n') {
            return line.to_owned();
        }
        assert!(Instant::now() < deadline, "no line on stdout");
        thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_private_tmp_replaces_tmpdir_and_goes_with_the_tree() {
    let table = ProcessTable::new();
    let mut spec =
        bash(r#"mkdir "$TMPDIR/left" && touch "$TMPDIR/left/file" && printf '%s\n' "$TMPDIR"; read -r _; exit 0"#);
    spec.env.push(("TMPDIR".to_owned(), "/given".to_owned()));
    spec.stdin = StdinSpec::Pipe;
    spec.private_tmp = true;
    let process = table.spawn(spec).expect("spawn");
    let dir = PathBuf::from(first_line(&process));
    assert_eq!(dir.parent(), Some(std::env::temp_dir().as_path()));
    let name = dir.file_name().and_then(|name| name.to_str()).unwrap_or_default();
    assert!(name.starts_with(&format!("seam-tmp-{}-", std::process::id())), "{name}");
    let meta = fs::metadata(&dir).expect("the directory exists while the program runs");
    assert_eq!(meta.permissions().mode() & 0o777, 0o700);
    assert!(dir.join("left").join("file").exists());
    process.close_stdin();
    assert_eq!(finished(&process), exited(0));
    assert!(!dir.exists(), "{} outlived the program", dir.display());
}

#[test]
fn without_a_private_tmp_the_given_tmpdir_stays() {
    let mut spec = bash(r#"printf '%s\n' "$TMPDIR""#);
    spec.env.push(("TMPDIR".to_owned(), "/given".to_owned()));
    let process = ProcessTable::new().spawn(spec).expect("spawn");
    assert_eq!(finished(&process), exited(0));
    assert_eq!(collected(&process, Stream::Stdout), "/given\n");
}

/// A directory left by a host that is gone is removed; one of a host that runs, or anything
/// else, stays.
#[test]
fn directories_of_hosts_that_are_gone_are_removed() {
    let root = tempfile::tempdir().expect("a temp dir");
    let gone = {
        let mut child = std::process::Command::new("true").spawn().expect("true runs");
        let pid = child.id();
        child.wait().expect("true ends");
        pid
    };
    let made = |name: &str, mode: u32| {
        let dir = root.path().join(name);
        fs::create_dir(&dir).expect("mkdir");
        fs::set_permissions(&dir, fs::Permissions::from_mode(mode)).expect("chmod");
        fs::write(dir.join("left"), "x").expect("a file in it");
        dir
    };
    let orphan = made(&format!("seam-tmp-{gone}-0a1b"), 0o700);
    let running = made(&format!("seam-tmp-{}-0a1b", std::process::id()), 0o700);
    let not_private = made(&format!("seam-tmp-{gone}-0a1c"), 0o755);
    let not_ours = made(&format!("seam-tmp-{gone}-notes"), 0o700);
    super::super::private_tmp::remove_orphans(root.path());
    assert!(!orphan.exists());
    for kept in [running, not_private, not_ours] {
        assert!(kept.exists(), "{}", kept.display());
    }
}
