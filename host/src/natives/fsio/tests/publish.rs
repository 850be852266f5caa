use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::path::Path;
use std::sync::{Arc, Barrier};

use super::super::{Expect, Publisher, stat};
use super::{s, scratch};

fn write(
    publisher: &Publisher,
    path: &Path,
    data: &str,
    expect: Option<Expect>,
) -> Result<super::super::Written, String> {
    publisher
        .atomic_write(s(path), data.as_bytes(), None, expect.as_ref())
        .map_err(|e| e.code().to_string())
}

/// Names in `dir`, hidden ones included.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn creates_as_open_would_under_the_umask_and_leaves_nothing_behind() {
    let (_dir, root) = scratch();
    let publisher = Publisher::new();
    let path = root.join("new.txt");
    let written = write(&publisher, &path, "one", None).unwrap();
    assert!(written.created);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "one");
    let umask = super::super::publish::process_umask().expect("the umask is in /proc/self/status");
    assert_eq!(
        std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o666 & !umask
    );
    assert_eq!(written.metadata.version(), stat(s(&path)).unwrap().version());
    assert_eq!(names(&root), ["new.txt"]);
}

#[test]
fn replacing_keeps_the_permission_bits_and_publishes_a_new_inode() {
    let (_dir, root) = scratch();
    let publisher = Publisher::new();
    let path = root.join("script.sh");
    std::fs::write(&path, "old").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o4750)).unwrap();
    let old_ino = std::fs::metadata(&path).unwrap().ino();
    let written = write(&publisher, &path, "new", None).unwrap();
    assert!(!written.created);
    let meta = std::fs::metadata(&path).unwrap();
    assert_eq!(
        meta.permissions().mode() & 0o7777,
        0o750,
        "setuid dropped, the rest kept"
    );
    assert_ne!(meta.ino(), old_ino);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
}

#[test]
fn intents_are_checked_with_the_publish() {
    let (_dir, root) = scratch();
    let publisher = Publisher::new();
    let path = root.join("f.txt");
    let first = write(&publisher, &path, "v1", Some(Expect::Absent)).unwrap();
    assert_eq!(
        write(&publisher, &path, "again", Some(Expect::Absent)).err().as_deref(),
        Some("FSIO_EXISTS")
    );
    let version = first.metadata.version();
    let second = write(&publisher, &path, "v2", Some(Expect::Version(version.clone()))).unwrap();
    assert_eq!(
        write(&publisher, &path, "v3", Some(Expect::Version(version)))
            .err()
            .as_deref(),
        Some("FSIO_VERSION_MISMATCH"),
        "a stale version loses"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "v2");
    std::fs::remove_file(&path).unwrap();
    assert_eq!(
        write(
            &publisher,
            &path,
            "v4",
            Some(Expect::Version(second.metadata.version()))
        )
        .err()
        .as_deref(),
        Some("FSIO_VERSION_MISMATCH"),
        "a vanished file is a mismatch"
    );
}

#[test]
fn refuses_what_is_not_a_regular_file_or_not_canonical() {
    let (_dir, root) = scratch();
    let publisher = Publisher::new();
    std::fs::create_dir(root.join("dir")).unwrap();
    nix::unistd::mkfifo(&root.join("fifo"), nix::sys::stat::Mode::S_IRWXU).unwrap();
    std::fs::write(root.join("real"), "x").unwrap();
    symlink(root.join("real"), root.join("link")).unwrap();
    let code = |path: &Path| write(&publisher, path, "x", None).err();
    assert_eq!(code(&root.join("dir")).as_deref(), Some("FSIO_IS_A_DIRECTORY"));
    assert_eq!(code(&root.join("fifo")).as_deref(), Some("FSIO_NOT_A_FILE"));
    assert_eq!(code(&root.join("link")).as_deref(), Some("FSIO_INVALID_PATH"));
    assert_eq!(code(&root.join("missing/f")).as_deref(), Some("FSIO_NOT_FOUND"));
    assert_eq!(code(Path::new("/")).as_deref(), Some("FSIO_IS_A_DIRECTORY"));
    assert_eq!(std::fs::read_to_string(root.join("real")).unwrap(), "x");
    assert!(
        std::fs::symlink_metadata(root.join("link"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn a_parent_swapped_for_a_symlink_after_resolving_is_refused() {
    let (_dir, root) = scratch();
    let publisher = Publisher::new();
    std::fs::create_dir(root.join("sub")).unwrap();
    std::fs::create_dir(root.join("outside")).unwrap();
    let resolved = root.join("sub/f.txt");
    std::fs::rename(root.join("sub"), root.join("sub-moved")).unwrap();
    symlink(root.join("outside"), root.join("sub")).unwrap();
    assert_eq!(
        write(&publisher, &resolved, "x", None).err().as_deref(),
        Some("FSIO_INVALID_PATH")
    );
    assert!(names(&root.join("outside")).is_empty());
}

#[test]
fn staging_left_by_a_dead_writer_is_removed_by_the_next_write() {
    let (_dir, root) = scratch();
    let publisher = Publisher::new();
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let abandoned = root.join(format!(".seam-staging-{dead}-7"));
    std::fs::create_dir(&abandoned).unwrap();
    std::fs::write(abandoned.join("content"), "partial").unwrap();
    // A live writer (this process's parent, say) keeps its directory.
    let live = root.join(format!(".seam-staging-{}-0", std::os::unix::process::parent_id()));
    std::fs::create_dir(&live).unwrap();

    write(&publisher, &root.join("f.txt"), "x", None).unwrap();
    let left = names(&root);
    assert_eq!(
        left,
        [live.file_name().unwrap().to_string_lossy().into_owned(), "f.txt".into()]
    );
}

#[test]
fn concurrent_writers_with_one_version_have_exactly_one_winner() {
    let (_dir, root) = scratch();
    let publisher = Arc::new(Publisher::new());
    let path = root.join("f.txt");
    let base = write(&publisher, &path, "base", None).unwrap().metadata.version();
    let writers = 8;
    let barrier = Arc::new(Barrier::new(writers));
    let handles: Vec<_> = (0..writers)
        .map(|i| {
            let (publisher, path, base, barrier) = (publisher.clone(), path.clone(), base.clone(), barrier.clone());
            std::thread::spawn(move || {
                barrier.wait();
                write(&publisher, &path, &format!("writer {i}"), Some(Expect::Version(base)))
            })
        })
        .collect();
    let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let winners = results.iter().filter(|r| r.is_ok()).count();
    assert_eq!(winners, 1, "{results:?}");
    assert!(
        results
            .iter()
            .filter_map(|r| r.as_ref().err())
            .all(|code| code == "FSIO_VERSION_MISMATCH")
    );
    assert!(std::fs::read_to_string(&path).unwrap().starts_with("writer "));
}

/// Descriptors of this process that point into `root` (held files and directories, deleted ones
/// included).
fn held_under(root: &Path) -> Vec<String> {
    std::fs::read_dir("/proc/self/fd")
        .unwrap()
        .filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
        .map(|target| target.to_string_lossy().into_owned())
        .filter(|target| target.starts_with(s(root)))
        .collect()
}

#[test]
fn what_a_publish_replaces_is_released_after_it_returns() {
    let (_dir, root) = scratch();
    let publisher = Publisher::new();
    let path = root.join("f.txt");
    for n in 0..50 {
        write(&publisher, &path, &format!("version {n}"), None).unwrap();
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "version 49");
    assert_eq!(names(&root), ["f.txt"]);
    // The replaced files and the removed staging directories are closed off the writer's path:
    // soon, and every one of them.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !held_under(&root).is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(held_under(&root), Vec::<String>::new());
}

#[test]
fn a_directory_that_takes_no_new_file_is_named_in_the_error() {
    // No file can be created in a process's /proc directory.
    let dir = std::fs::canonicalize("/proc/self").unwrap();
    let error = Publisher::new()
        .atomic_write(s(&dir.join("x")), b"x", None, None)
        .unwrap_err()
        .to_string();
    assert!(
        error.starts_with(&format!("{} (where the new file is staged): ", dir.display())),
        "{error}"
    );
}

#[test]
fn replacing_keeps_the_extended_attributes() {
    let (_dir, root) = scratch();
    let publisher = Publisher::new();
    let path = root.join("tagged.txt");
    std::fs::write(&path, "old").unwrap();
    let c_path = std::ffi::CString::new(s(&path)).unwrap();
    // SAFETY: NUL-terminated strings and a value of the length given.
    let set = unsafe { libc::setxattr(c_path.as_ptr(), c"user.origin".as_ptr(), b"seam".as_ptr().cast(), 4, 0) };
    if set != 0 {
        // The filesystem under the temp dir takes no user attributes (tmpfs before 6.6): nothing to keep.
        return;
    }
    write(&publisher, &path, "new", None).unwrap();
    let mut value = [0u8; 16];
    // SAFETY: NUL-terminated strings; the buffer pointer and length describe `value`.
    let size = unsafe {
        libc::getxattr(
            c_path.as_ptr(),
            c"user.origin".as_ptr(),
            value.as_mut_ptr().cast(),
            value.len(),
        )
    };
    assert_eq!(usize::try_from(size).ok(), Some(4), "the attribute is kept");
    assert_eq!(&value[..4], b"seam");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
}
