use std::time::{Duration, Instant};

use super::super::{Kind, list_dir, lstat, read, read_range, read_text, stat};
use super::{s, scratch};

#[test]
fn reads_a_whole_file_with_its_version() {
    let (_dir, root) = scratch();
    let path = root.join("f.txt");
    std::fs::write(&path, "hello").unwrap();
    let contents = read(s(&path), 5).unwrap();
    assert_eq!(contents.data, b"hello");
    assert_eq!(contents.metadata.version(), stat(s(&path)).unwrap().version());
    let too_large = read(s(&path), 4).err().map(|e| e.code());
    assert_eq!(too_large, Some("FSIO_TOO_LARGE"));
}

#[test]
fn reads_ranges() {
    let (_dir, root) = scratch();
    let path = root.join("f.txt");
    std::fs::write(&path, "0123456789").unwrap();
    assert_eq!(read_range(s(&path), 3, 4).unwrap().data, b"3456");
    assert_eq!(read_range(s(&path), 8, u32::MAX).unwrap().data, b"89");
    assert!(read_range(s(&path), 10, 4).unwrap().data.is_empty());
}

#[test]
fn fifos_devices_and_directories_are_refused_without_blocking() {
    let (_dir, root) = scratch();
    let fifo = root.join("pipe");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let start = Instant::now();
    let code = |path: &str| read(path, 1 << 20).err().map(|e| e.code());
    assert_eq!(code(s(&fifo)), Some("FSIO_NOT_A_FILE"));
    assert_eq!(code("/dev/null"), Some("FSIO_NOT_A_FILE"));
    assert_eq!(code(s(&root)), Some("FSIO_IS_A_DIRECTORY"));
    assert_eq!(
        read_range(s(&fifo), 0, 16).err().map(|e| e.code()),
        Some("FSIO_NOT_A_FILE")
    );
    assert!(start.elapsed() < Duration::from_secs(1), "nothing waited for a writer");
    assert_eq!(stat(s(&fifo)).unwrap().kind, Kind::Fifo);
    assert_eq!(stat("/dev/null").unwrap().kind, Kind::CharDevice);
}

#[test]
fn lstat_does_not_follow_the_final_symlink() {
    let (_dir, root) = scratch();
    std::fs::write(root.join("real"), "x").unwrap();
    std::os::unix::fs::symlink(root.join("real"), root.join("link")).unwrap();
    assert_eq!(lstat(s(&root.join("link"))).unwrap().kind, Kind::Symlink);
    assert_eq!(stat(s(&root.join("link"))).unwrap().kind, Kind::File);
}

#[test]
fn listings_are_sorted_unfollowed_and_hide_staging_directories() {
    let (_dir, root) = scratch();
    std::fs::write(root.join("b.txt"), "x").unwrap();
    std::fs::create_dir(root.join("a")).unwrap();
    std::fs::create_dir(root.join(".seam-staging-1-0")).unwrap();
    std::os::unix::fs::symlink(root.join("a"), root.join("c")).unwrap();
    let entries: Vec<(String, Kind)> = list_dir(s(&root))
        .unwrap()
        .into_iter()
        .map(|e| (e.name, e.kind))
        .collect();
    assert_eq!(
        entries,
        [
            ("a".to_string(), Kind::Dir),
            ("b.txt".to_string(), Kind::File),
            ("c".to_string(), Kind::Symlink)
        ]
    );
}

#[test]
fn text_is_utf8_without_nul_bytes() {
    let (_dir, root) = scratch();
    std::fs::write(root.join("ok.txt"), "héllo").unwrap();
    std::fs::write(root.join("nul.bin"), b"ab\0c").unwrap();
    std::fs::write(root.join("latin1.txt"), b"caf\xe9!").unwrap();
    let text = read_text(s(&root.join("ok.txt")), 100).unwrap();
    assert_eq!(text.content, "héllo");
    assert_eq!(
        text.metadata.version(),
        stat(s(&root.join("ok.txt"))).unwrap().version()
    );
    let refused = |name: &str| {
        read_text(s(&root.join(name)), 100)
            .err()
            .map(|e| (e.code(), e.to_string()))
    };
    let (code, message) = refused("nul.bin").unwrap();
    assert_eq!(code, "FSIO_NOT_TEXT");
    assert!(message.ends_with("a NUL byte at offset 2"), "{message}");
    let (code, message) = refused("latin1.txt").unwrap();
    assert_eq!(code, "FSIO_NOT_TEXT");
    assert!(message.ends_with("invalid UTF-8 at offset 3"), "{message}");
}

#[test]
fn large_text_is_checked_across_read_chunks() {
    let (_dir, root) = scratch();
    // Multi-byte characters at every alignment, so some straddle the reads' chunk boundaries.
    let text = "ascii line, then é€😀\n".repeat(40_000);
    let path = root.join("big.txt");
    std::fs::write(&path, &text).unwrap();
    let max = text.len() as u64;
    assert_eq!(read_text(s(&path), max).map(|t| t.content == text).ok(), Some(true));
    let refused = |bytes: &[u8]| {
        std::fs::write(&path, bytes).unwrap();
        read_text(s(&path), max).err().map(|e| e.to_string())
    };
    let mut late_nul = text.clone().into_bytes();
    let at = late_nul.len() - 3;
    late_nul[at] = 0;
    let message = refused(&late_nul).unwrap_or_default();
    assert!(message.ends_with(&format!("a NUL byte at offset {at}")), "{message}");
    // A NUL is named before an earlier invalid byte, as a whole-file check does.
    late_nul[10] = 0xff;
    let message = refused(&late_nul).unwrap_or_default();
    assert!(message.ends_with(&format!("a NUL byte at offset {at}")), "{message}");
    let cut = &text.as_bytes()[..text.len() - 2];
    let message = refused(cut).unwrap_or_default();
    assert!(
        message.ends_with(&format!("invalid UTF-8 at offset {}", text.len() - 5)),
        "{message}"
    );
}
