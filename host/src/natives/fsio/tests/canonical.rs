use std::os::unix::fs::symlink;

use super::super::{canonicalize, is_within};
use super::{s, scratch};

#[test]
fn an_existing_path_is_its_realpath() {
    let (_dir, root) = scratch();
    std::fs::create_dir(root.join("real")).unwrap();
    std::fs::write(root.join("real/f.txt"), "x").unwrap();
    symlink(root.join("real"), root.join("alias")).unwrap();
    let real = canonicalize(s(&root.join("real/f.txt"))).unwrap();
    assert_eq!(real, root.join("real/f.txt"));
    assert_eq!(canonicalize(s(&root.join("alias/f.txt"))).unwrap(), real);
}

#[test]
fn a_missing_tail_is_appended_to_the_realpath_of_what_exists() {
    let (_dir, root) = scratch();
    std::fs::create_dir(root.join("real")).unwrap();
    symlink(root.join("real"), root.join("alias")).unwrap();
    assert_eq!(
        canonicalize(s(&root.join("alias/new/deeper.txt"))).unwrap(),
        root.join("real/new/deeper.txt")
    );
}

#[test]
fn a_dangling_symlink_resolves_to_where_its_target_would_be_created() {
    let (_dir, root) = scratch();
    std::fs::create_dir(root.join("elsewhere")).unwrap();
    symlink(root.join("elsewhere/later.txt"), root.join("link.txt")).unwrap();
    assert_eq!(
        canonicalize(s(&root.join("link.txt"))).unwrap(),
        root.join("elsewhere/later.txt")
    );
    // Relative targets are relative to the link's directory.
    symlink("elsewhere/rel.txt", root.join("rel-link")).unwrap();
    assert_eq!(
        canonicalize(s(&root.join("rel-link"))).unwrap(),
        root.join("elsewhere/rel.txt")
    );
}

#[test]
fn dot_dot_after_a_symlink_leaves_its_target() {
    // POSIX semantics for the part that exists: `alias/..` is the parent of the target.
    let (_dir, root) = scratch();
    std::fs::create_dir_all(root.join("a/b")).unwrap();
    symlink(root.join("a/b"), root.join("alias")).unwrap();
    assert_eq!(
        canonicalize(s(&root.join("alias/../missing.txt"))).unwrap(),
        root.join("a/missing.txt")
    );
}

#[test]
fn refusals_carry_their_codes() {
    let (_dir, root) = scratch();
    std::fs::write(root.join("file"), "x").unwrap();
    symlink(root.join("loop-b"), root.join("loop-a")).unwrap();
    symlink(root.join("loop-a"), root.join("loop-b")).unwrap();
    let code = |path: &str| canonicalize(path).err().map(|e| e.code());
    assert_eq!(code("relative/path"), Some("FSIO_INVALID_PATH"));
    assert_eq!(code("/with\0nul"), Some("FSIO_INVALID_PATH"));
    assert_eq!(code(s(&root.join("file/below"))), Some("FSIO_NOT_A_DIRECTORY"));
    assert_eq!(code(s(&root.join("file/below/more"))), Some("FSIO_NOT_A_DIRECTORY"));
    assert_eq!(code(s(&root.join("loop-a/x"))), Some("FSIO_INVALID_PATH"));
}

#[test]
fn containment_is_judged_on_canonical_components() {
    let (_dir, root) = scratch();
    std::fs::create_dir_all(root.join("ws/sub")).unwrap();
    std::fs::create_dir_all(root.join("ws-other")).unwrap();
    symlink(root.join("ws-other"), root.join("ws/escape")).unwrap();
    let ws = root.join("ws");
    let within = |path: &str| is_within(s(&ws), path).unwrap();
    assert!(within(s(&ws)));
    assert!(within(s(&ws.join("sub/new.txt"))));
    assert!(!within(s(&root.join("ws-other/f"))), "a name prefix is not containment");
    assert!(!within(s(&ws.join("escape/f"))), "a symlinked ancestor leads outside");
}
