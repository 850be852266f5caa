use super::super::lines::{Window, window};
use super::super::{read_lines, stat};
use super::{s, scratch};

fn at(text: &str, first: u64, count: u32) -> (&str, bool, Option<u64>) {
    let Window {
        bytes,
        more,
        line_count,
    } = window(text, first, count);
    (&text[bytes], more, line_count)
}

#[test]
fn windows_cut_on_line_ends() {
    let text = "1\n2\r\n3\n4\n5\n";
    assert_eq!(at(text, 1, 2), ("1\n2\r\n", true, None));
    assert_eq!(at(text, 2, 2), ("2\r\n3\n", true, None));
    assert_eq!(at(text, 4, 2), ("4\n5\n", false, Some(5)));
    assert_eq!(at(text, 4, 10), ("4\n5\n", false, Some(5)));
    assert_eq!(at(text, 1, 100), (text, false, Some(5)));
}

#[test]
fn a_last_line_without_a_line_end_counts() {
    assert_eq!(at("a\nb", 2, 1), ("b", false, Some(2)));
    assert_eq!(at("a\nb", 1, 1), ("a\n", true, None));
    assert_eq!(at("a", 1, 1), ("a", false, Some(1)));
}

#[test]
fn a_window_past_the_end_is_empty_and_counts_the_lines() {
    assert_eq!(at("a\nb\n", 3, 5), ("", false, Some(2)));
    assert_eq!(at("a\nb", 9, 5), ("", false, Some(2)));
    assert_eq!(at("", 1, 5), ("", false, Some(0)));
    assert_eq!(at("\n", 1, 5), ("\n", false, Some(1)));
    // Line 0 is read as line 1: the window starts at the top.
    assert_eq!(at("a\nb\n", 0, 1), ("a\n", true, None));
}

#[test]
fn a_window_is_read_from_a_whole_checked_file() {
    let (_dir, root) = scratch();
    let path = root.join("f.txt");
    std::fs::write(&path, "one\ntwo\nthree\n").unwrap();
    let lines = read_lines(s(&path), 100, 2, 1).unwrap();
    assert_eq!(
        (lines.content.as_str(), lines.more, lines.line_count),
        ("two\n", true, None)
    );
    assert_eq!(lines.metadata.version(), stat(s(&path)).unwrap().version());
    assert_eq!(lines.metadata.size, 14);

    // Binary content past the window still refuses the file, and the bound is the file's.
    std::fs::write(&path, b"one\ntwo\n\0").unwrap();
    let refused = read_lines(s(&path), 100, 1, 1).err().map(|e| e.code());
    assert_eq!(refused, Some("FSIO_NOT_TEXT"));
    let too_large = read_lines(s(&path), 4, 1, 1).err().map(|e| e.code());
    assert_eq!(too_large, Some("FSIO_TOO_LARGE"));
}
