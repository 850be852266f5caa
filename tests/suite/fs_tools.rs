//! tool-fs as a model sees it, in the default world: numbered windows of text, clear refusals,
//! images as images, the unique-match rule of edits, and errors that carry codes.

use crate::common::*;
use crate::fs_support::{code, scratch};
use seam_host::Content;
use serde_json::json;

/// A 1x1 PNG.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\0\x05\0\x01\xff\x89\x99=\x1d\0\0\0\0IEND\xaeB`\x82";

#[test]
fn the_default_world_offers_the_file_tools() {
    let (_dir, ws) = scratch();
    let world = default_world(&ws);
    let names: Vec<&str> = world.tools().iter().map(|t| t.name.as_str()).collect();
    for tool in ["read", "write", "edit", "read_image", "glob", "grep"] {
        assert!(names.contains(&tool), "{tool} missing from {names:?}");
    }
}

#[test]
fn read_numbers_lines_in_windows() {
    let (_dir, ws) = scratch();
    let text: String = (1..=10).map(|n| format!("line {n}\n")).collect();
    std::fs::write(ws.join("ten.txt"), text).unwrap();
    let world = default_world(&ws);
    let all = call(&world, "read", json!({"file_path": "ten.txt"}));
    assert_eq!(all.text().lines().next(), Some("     1\tline 1"));
    assert_eq!(all.text().lines().count(), 10);
    let window = call(&world, "read", json!({"file_path": "ten.txt", "offset": 4, "limit": 2}));
    assert_eq!(
        window.text(),
        "     4\tline 4\n     5\tline 5\n[lines 4-5; more follow (71 bytes in all): continue with offset=6]"
    );
    let absolute = call(&world, "read", json!({"file_path": ws.join("ten.txt"), "offset": 10}));
    assert_eq!(absolute.text(), "    10\tline 10");
    for lines_from_one in [json!({"limit": 0}), json!({"offset": 0})] {
        let mut args = lines_from_one;
        args["file_path"] = json!("ten.txt");
        assert_eq!(code(&call(&world, "read", args)), Some("INVALID_ARGUMENTS"));
    }
    assert_eq!(
        code(&call(&world, "read", json!({"file_path": ""}))),
        Some("INVALID_ARGUMENTS")
    );
    assert_eq!(
        code(&call(&world, "glob", json!({"pattern": ""}))),
        Some("INVALID_ARGUMENTS")
    );
    assert_eq!(
        code(&call(&world, "read", json!({"path": "ten.txt"}))),
        Some("INVALID_ARGUMENTS")
    );
    assert_eq!(
        code(&call(&world, "read", json!({"file_path": "missing.txt"}))),
        Some("FS_NOT_FOUND")
    );
}

/// Files of /proc say they are empty, and are not: what they hold is shown.
#[test]
fn a_proc_file_is_read_by_what_it_holds_not_by_its_size() {
    let (_dir, ws) = scratch();
    let world = default_world(&ws);
    let status = call(&world, "read", json!({"file_path": "/proc/self/status", "limit": 2}));
    assert!(!status.is_error, "{status:?}");
    let text = status.text();
    assert!(text.starts_with("     1\tName:\t"), "{text}");
    assert!(text.ends_with("more follow: continue with offset=3]"), "{text}");
}

#[test]
fn binary_files_are_refused_with_a_pointer_to_read_image() {
    let (_dir, ws) = scratch();
    std::fs::write(ws.join("pixel.png"), PNG).unwrap();
    let world = default_world(&ws);
    let refused = call(&world, "read", json!({"file_path": "pixel.png"}));
    assert!(refused.is_error);
    assert_eq!(code(&refused), Some("FS_NOT_TEXT"));
    assert!(refused.text().contains("read_image"), "{}", refused.text());
}

/// `text` as a UTF-16 file holds it: the byte order mark, then the code units, little-endian
/// or not.
fn utf16(text: &str, little: bool) -> Vec<u8> {
    let bytes = |unit: u16| if little { unit.to_le_bytes() } else { unit.to_be_bytes() };
    "\u{feff}"
        .encode_utf16()
        .chain(text.encode_utf16())
        .flat_map(bytes)
        .collect()
}

#[test]
fn utf16_text_is_read_edited_searched_and_written_in_its_own_encoding() {
    let (_dir, ws) = scratch();
    let files = [("le.txt", true), ("be.txt", false)];
    for (name, little) in files {
        std::fs::write(ws.join(name), utf16("héllo\r\nwörld 😀\r\n", little)).unwrap();
    }
    let world = default_world(&ws);
    for (name, little) in files {
        let read = call(&world, "read", json!({"file_path": name}));
        assert_eq!(read.text(), "     1\théllo\n     2\twörld 😀", "{name}");
        let edit = json!({"file_path": name, "old_string": "wörld", "new_string": "thére"});
        let edited = call(&world, "edit", edit);
        assert!(!edited.is_error, "{}", edited.text());
        let on_disk = std::fs::read(ws.join(name)).unwrap();
        assert_eq!(on_disk, utf16("héllo\r\nthére 😀\r\n", little), "{name}");
        let written = call(&world, "write", json!({"file_path": name, "content": "ünö\n"}));
        let expected = utf16("ünö\r\n", little);
        assert_eq!(
            written.text(),
            format!(
                "Wrote {} bytes to {}/{name} (its CRLF line ends and byte order mark kept)",
                expected.len(),
                ws.display()
            )
        );
        assert_eq!(std::fs::read(ws.join(name)).unwrap(), expected, "{name}");
    }
    let found = call(
        &world,
        "grep",
        json!({"pattern": "ünö", "output_mode": "files_with_matches"}),
    );
    assert_eq!(found.text().lines().count(), 2, "{}", found.text());
    // A lone surrogate is not text: refused where it stands, the file left alone.
    let mut broken = utf16("ok", true);
    broken.extend([0x3D, 0xD8, b'!', 0]);
    std::fs::write(ws.join("broken.txt"), &broken).unwrap();
    let refused = call(&world, "read", json!({"file_path": "broken.txt"}));
    assert_eq!(code(&refused), Some("FS_NOT_TEXT"));
    assert!(
        refused.text().starts_with(&format!(
            "{}/broken.txt is not text: invalid UTF-16 (little-endian) at offset 6\n",
            ws.display()
        )),
        "{}",
        refused.text()
    );
    let edit = json!({"file_path": "broken.txt", "old_string": "ok", "new_string": "ko"});
    assert_eq!(code(&call(&world, "edit", edit)), Some("FS_NOT_TEXT"));
    assert_eq!(std::fs::read(ws.join("broken.txt")).unwrap(), broken);
}

#[test]
fn a_window_is_shown_from_a_whole_file_checked_to_be_text() {
    let (_dir, ws) = scratch();
    let mut bytes: Vec<u8> = (1..=5000).flat_map(|n| format!("line {n}\n").into_bytes()).collect();
    std::fs::write(ws.join("long.txt"), &bytes).unwrap();
    let world = default_world(&ws);
    let first = call(&world, "read", json!({"file_path": "long.txt", "limit": 1}));
    assert_eq!(
        first.text(),
        format!(
            "     1\tline 1\n[lines 1-1; more follow ({} bytes in all): continue with offset=2]",
            bytes.len()
        )
    );
    let past = call(&world, "read", json!({"file_path": "long.txt", "offset": 5002}));
    assert_eq!(past.text(), "[the file has 5000 lines; offset 5002 is past the end]");
    // A NUL far past the window still makes the file binary.
    bytes.extend_from_slice(b"\0");
    std::fs::write(ws.join("long.txt"), &bytes).unwrap();
    let refused = call(&world, "read", json!({"file_path": "long.txt", "limit": 1}));
    assert_eq!(code(&refused), Some("FS_NOT_TEXT"));
}

#[test]
fn read_image_returns_the_image_base64_with_its_mime_type() {
    let (_dir, ws) = scratch();
    std::fs::write(ws.join("pixel.png"), PNG).unwrap();
    std::fs::write(ws.join("notes.txt"), "not an image").unwrap();
    let world = default_world(&ws);
    let image = call(&world, "read_image", json!({"file_path": "pixel.png"}));
    assert!(!image.is_error, "{image:?}");
    let [Content::Image { data, mime_type }] = image.content.as_slice() else {
        panic!("not one image: {image:?}");
    };
    assert_eq!(mime_type, "image/png");
    let output = std::process::Command::new("base64")
        .arg("-d")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(data.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    assert_eq!(output.stdout, PNG, "the base64 decodes to the file");
    let text = call(&world, "read_image", json!({"file_path": "notes.txt"}));
    assert_eq!(code(&text), Some("IMAGE_UNSUPPORTED"));
    std::fs::write(ws.join("cut.png"), &PNG[..30]).unwrap();
    let cut = call(&world, "read_image", json!({"file_path": "cut.png"}));
    assert_eq!(code(&cut), Some("IMAGE_DAMAGED"), "{}", cut.text());
}

#[test]
fn edits_need_a_unique_match_unless_replacing_all() {
    let (_dir, ws) = scratch();
    std::fs::write(ws.join("f.rs"), "let a = 1;\nlet b = 1;\n").unwrap();
    let world = default_world(&ws);
    let edit = |old: &str, new: &str, all: bool| {
        call(
            &world,
            "edit",
            json!({"file_path": "f.rs", "old_string": old, "new_string": new, "replace_all": all}),
        )
    };
    let ambiguous = edit("= 1", "= 2", false);
    assert_eq!(code(&ambiguous), Some("FS_EDIT_AMBIGUOUS"));
    assert!(
        ambiguous.text().contains("2 times") && ambiguous.text().contains("\nIt is at lines 1 and 2. Include more"),
        "{}",
        ambiguous.text()
    );
    assert_eq!(code(&edit("= 3", "= 4", false)), Some("FS_EDIT_NO_MATCH"));
    let empty = edit("", "x", false);
    assert_eq!(code(&empty), Some("FS_EDIT_INVALID"));
    assert!(empty.text().contains("use write"), "{}", empty.text());
    assert_eq!(code(&edit("a", "a", false)), Some("FS_EDIT_INVALID"));
    assert_eq!(
        edit("let a = 1", "let a = 5", false).text(),
        format!("Edited {}/f.rs: replaced 1 occurrence", ws.display())
    );
    assert_eq!(
        edit("= 1", "= 9", true).text(),
        format!("Edited {}/f.rs: replaced 1 occurrence", ws.display())
    );
    assert_eq!(
        std::fs::read_to_string(ws.join("f.rs")).unwrap(),
        "let a = 5;\nlet b = 9;\n"
    );
    assert!(edit(";", "", true).text().ends_with("replaced 2 occurrences"));
}

#[test]
fn a_path_slightly_wrong_is_answered_with_what_is_near_it() {
    let (_dir, ws) = scratch();
    std::fs::create_dir(ws.join("src")).unwrap();
    std::fs::write(ws.join("src/lib.rs"), "").unwrap();
    std::fs::write(ws.join("README.md"), "").unwrap();
    let world = default_world(&ws);
    let read = |path: &str| call(&world, "read", json!({"file_path": path}));
    let ws = ws.display();
    let cases = [
        ("readme.md", format!("Similar names there: {ws}/README.md")),
        ("src/lib.ts", format!("Similar names there: {ws}/src/lib.rs")),
        (
            "srcs/a/lib.rs",
            format!("There is no directory {ws}/srcs; similar names in {ws}: {ws}/src/"),
        ),
        (
            "elsewhere/lib.rs",
            format!("There is no directory {ws}/elsewhere; the deepest directory on that path is {ws}"),
        ),
    ];
    for (path, hint) in cases {
        let missing = read(path);
        assert_eq!(code(&missing), Some("FS_NOT_FOUND"));
        assert!(
            missing.text().ends_with(&format!("no such file or directory\n{hint}")),
            "{}",
            missing.text()
        );
    }
    let unlike = read("unlike-anything.txt");
    assert!(
        unlike.text().ends_with("no such file or directory"),
        "{}",
        unlike.text()
    );
    let edit = json!({"file_path": "readme.md", "old_string": "a", "new_string": "b"});
    assert!(call(&world, "edit", edit).text().contains("Similar names there"));
}

#[test]
fn a_missed_edit_says_what_near_miss_it_was() {
    let (_dir, ws) = scratch();
    std::fs::write(ws.join("f.rs"), "fn f() {\r\n\tif x {\r\n\t\ty();\r\n\t}\r\n}\r\n").unwrap();
    let world = default_world(&ws);
    let edit = |old: &str, new: &str| {
        call(
            &world,
            "edit",
            json!({"file_path": "f.rs", "old_string": old, "new_string": new}),
        )
    };
    let missed = |old: &str, new: &str| {
        let result = edit(old, new);
        assert_eq!(code(&result), Some("FS_EDIT_NO_MATCH"), "{}", result.text());
        let (what, hint) = result
            .text()
            .split_once('\n')
            .map(|(a, b)| (a.to_owned(), b.to_owned()))
            .unwrap();
        assert_eq!(
            what,
            format!("the text to replace was not found in {}/f.rs", ws.display())
        );
        hint
    };
    assert_eq!(
        missed("    if  x {\n        y();\n", "z"),
        "Lines 2-3 hold the text with other whitespace. Copy old_string from them exactly, without the line \
         numbers:\n     2\t\tif x {\n     3\t\t\ty();"
    );
    let changed = missed("fn f() {\n\tif y {\n\t\ty();", "z");
    assert!(
        changed.starts_with("Lines 1-3 hold the text most like it (2 of its 3 lines the same)."),
        "{changed}"
    );
    // Two lines as `read` shows them, without the line that says how to read on.
    let read = call(&world, "read", json!({"file_path": "f.rs", "offset": 2, "limit": 2})).text();
    let numbered = missed(&read.lines().take(2).collect::<Vec<_>>().join("\n"), "z");
    assert_eq!(
        numbered,
        "old_string starts its lines with the line numbers `read` shows (a number and a tab): leave them out."
    );
    let escaped = missed(r"fn f() {\n\tif x {", "z");
    assert!(
        escaped.starts_with("old_string holds `\\n` (a backslash and an n) where the file has a line break"),
        "{escaped}"
    );
    assert_eq!(
        missed("if y {", "z"),
        "old_string must match the file exactly, whitespace and indentation included: read the file and copy the text."
    );
    assert_eq!(
        std::fs::read_to_string(ws.join("f.rs")).unwrap(),
        "fn f() {\r\n\tif x {\r\n\t\ty();\r\n\t}\r\n}\r\n",
        "misses change nothing"
    );
    assert!(edit("\t\ty();\n", "\t\tz();\n").text().starts_with("Edited"));
    let retried = missed("\t\ty();\n", "\t\tz();\n");
    assert!(
        retried.starts_with("new_string is in the file already (line 3)"),
        "{retried}"
    );
}

#[test]
fn edits_of_a_crlf_file_match_what_read_shows_and_keep_its_line_ends() {
    let (_dir, ws) = scratch();
    std::fs::write(ws.join("win.txt"), "one\r\ntwo\r\nthree\r\n").unwrap();
    std::fs::write(ws.join("mixed.txt"), "a\r\nb\r\nc\r\nx\ny\n").unwrap();
    let world = default_world(&ws);
    let edit = |file: &str, old: &str, new: &str| {
        call(
            &world,
            "edit",
            json!({"file_path": file, "old_string": old, "new_string": new}),
        )
    };
    // What read shows: lines without their carriage returns.
    let shown = call(&world, "read", json!({"file_path": "win.txt"}));
    assert_eq!(shown.text(), "     1\tone\n     2\ttwo\n     3\tthree");
    let spanning = edit("win.txt", "one\ntwo", "uno\ndos\ntres");
    assert!(!spanning.is_error, "{}", spanning.text());
    let widened = edit("win.txt", "three", "three\nfour");
    assert!(!widened.is_error, "{}", widened.text());
    assert_eq!(
        std::fs::read_to_string(ws.join("win.txt")).unwrap(),
        "uno\r\ndos\r\ntres\r\nthree\r\nfour\r\n"
    );
    // Mostly CRLF, but the lines edited end with a bare line feed: taken as given.
    let bare = edit("mixed.txt", "x\ny", "x\nz");
    assert!(!bare.is_error, "{}", bare.text());
    assert_eq!(
        std::fs::read_to_string(ws.join("mixed.txt")).unwrap(),
        "a\r\nb\r\nc\r\nx\nz\n"
    );
    assert_eq!(code(&edit("win.txt", "uno\ntres", "x")), Some("FS_EDIT_NO_MATCH"));
    // Text across both kinds of line end is matched line end by line end.
    let across = edit("mixed.txt", "b\nc\nx\nz", "B\nC\nX\nZ");
    assert!(!across.is_error, "{}", across.text());
    assert_eq!(
        std::fs::read_to_string(ws.join("mixed.txt")).unwrap(),
        "a\r\nB\r\nC\r\nX\r\nZ\n",
        "the new text takes the line ends most of the old had"
    );
    std::fs::write(ws.join("twice.txt"), "p\r\nq\nr\np\nq\r\nr\n").unwrap();
    assert_eq!(code(&edit("twice.txt", "p\nq\nr", "s")), Some("FS_EDIT_AMBIGUOUS"));
    let all = call(
        &world,
        "edit",
        json!({"file_path": "twice.txt", "old_string": "p\nq\nr", "new_string": "s", "replace_all": true}),
    );
    assert!(all.text().ends_with("replaced 2 occurrences"), "{}", all.text());
    assert_eq!(std::fs::read_to_string(ws.join("twice.txt")).unwrap(), "s\ns\n");
}

#[test]
fn a_crlf_file_written_back_as_read_shows_it_keeps_its_line_ends() {
    let (_dir, ws) = scratch();
    std::fs::write(ws.join("win.txt"), "one\r\ntwo\r\n").unwrap();
    std::fs::write(ws.join("unix.txt"), "one\ntwo\n").unwrap();
    let world = default_world(&ws);
    let write = |file: &str, content: &str| call(&world, "write", json!({"file_path": file, "content": content}));
    let kept = write("win.txt", "uno\ndos\ntres\n");
    assert_eq!(
        kept.text(),
        format!(
            "Wrote 16 bytes to {} (its CRLF line ends kept)",
            ws.join("win.txt").display()
        )
    );
    assert_eq!(
        std::fs::read_to_string(ws.join("win.txt")).unwrap(),
        "uno\r\ndos\r\ntres\r\n"
    );
    // Content that has any \r\n is written as given, as is content over a file with bare line feeds.
    assert!(!write("win.txt", "a\r\nb\n").is_error);
    assert_eq!(std::fs::read_to_string(ws.join("win.txt")).unwrap(), "a\r\nb\n");
    let plain = write("unix.txt", "x\ny\n");
    assert!(plain.text().ends_with("unix.txt"), "{}", plain.text());
    assert_eq!(std::fs::read_to_string(ws.join("unix.txt")).unwrap(), "x\ny\n");
    // A new file has no line ends to keep.
    assert!(!write("new.txt", "p\nq\n").is_error);
    assert_eq!(std::fs::read_to_string(ws.join("new.txt")).unwrap(), "p\nq\n");
}

#[test]
fn a_byte_order_mark_is_not_shown_by_read_and_is_kept_by_write_and_edit() {
    let (_dir, ws) = scratch();
    std::fs::write(ws.join("bom.txt"), "\u{feff}first\r\nsecond\r\n").unwrap();
    std::fs::write(ws.join("one.txt"), "\u{feff}only").unwrap();
    let world = default_world(&ws);
    let read = call(&world, "read", json!({"file_path": "bom.txt"}));
    assert_eq!(read.text(), "     1\tfirst\n     2\tsecond");
    let write = |file: &str, content: &str| call(&world, "write", json!({"file_path": file, "content": content}));
    let kept = write("bom.txt", "uno\ndos\n");
    assert!(
        kept.text().ends_with("(its CRLF line ends and byte order mark kept)"),
        "{}",
        kept.text()
    );
    assert_eq!(
        std::fs::read_to_string(ws.join("bom.txt")).unwrap(),
        "\u{feff}uno\r\ndos\r\n"
    );
    // One line, no line end: the mark alone is kept; content that brings its own is not doubled.
    assert!(write("one.txt", "solo").text().ends_with("(its byte order mark kept)"));
    assert_eq!(std::fs::read_to_string(ws.join("one.txt")).unwrap(), "\u{feff}solo");
    assert!(!write("one.txt", "\u{feff}again").is_error);
    assert_eq!(std::fs::read_to_string(ws.join("one.txt")).unwrap(), "\u{feff}again");
    // An edit of the first line as read shows it leaves the mark before it.
    let edit = call(
        &world,
        "edit",
        json!({"file_path": "bom.txt", "old_string": "uno\ndos", "new_string": "one\ntwo"}),
    );
    assert!(!edit.is_error, "{}", edit.text());
    assert_eq!(
        std::fs::read_to_string(ws.join("bom.txt")).unwrap(),
        "\u{feff}one\r\ntwo\r\n"
    );
    // A new file gets no mark.
    assert!(!write("new.txt", "plain").is_error);
    assert_eq!(std::fs::read(ws.join("new.txt")).unwrap(), b"plain");
}

#[test]
fn write_creates_parents_and_says_what_it_did() {
    let (_dir, ws) = scratch();
    let world = default_world(&ws);
    let created = call(&world, "write", json!({"file_path": "a/b/c.txt", "content": "hi"}));
    assert_eq!(created.text(), format!("Created {}/a/b/c.txt (2 bytes)", ws.display()));
    let replaced = call(&world, "write", json!({"file_path": "a/b/c.txt", "content": "hello"}));
    assert_eq!(replaced.text(), format!("Wrote 5 bytes to {}/a/b/c.txt", ws.display()));
    assert_eq!(std::fs::read_to_string(ws.join("a/b/c.txt")).unwrap(), "hello");
    let one = call(&world, "write", json!({"file_path": "one.txt", "content": "x"}));
    assert_eq!(one.text(), format!("Created {}/one.txt (1 byte)", ws.display()));
    // A path ending in / names a directory: no file is made of it.
    let dir = call(&world, "write", json!({"file_path": "trail/", "content": "x"}));
    assert_eq!(dir.code.as_deref(), Some("FS_IS_A_DIRECTORY"), "{}", dir.text());
    assert!(!ws.join("trail").exists());
    // Over a directory that is there, the answer asks for a file's path, not a listing.
    let over = call(&world, "write", json!({"file_path": "a/b", "content": "x"}));
    assert_eq!(over.code.as_deref(), Some("FS_IS_A_DIRECTORY"), "{}", over.text());
    assert!(over.text().contains("a new name inside"), "{}", over.text());
    assert!(ws.join("a/b/c.txt").exists());
}

/// A new file gets what `open` would give it under the user's umask, not a fixed mode.
#[test]
fn a_new_file_takes_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let (_dir, ws) = scratch();
    let mut command = batch_command(&ws);
    // SAFETY: umask is async-signal-safe and touches no memory.
    unsafe {
        command.pre_exec(|| {
            libc::umask(0o077);
            Ok(())
        });
    }
    let out = run_batch(
        command,
        &[json!({"tool": "write", "args": {"file_path": "keys/secret.txt", "content": "x"}})],
    );
    assert_eq!(out[0]["is_error"], false, "{}", out[0]);
    let mode = |path: &str| std::fs::metadata(ws.join(path)).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode("keys/secret.txt"), 0o600);
    assert_eq!(mode("keys"), 0o700);
}

/// Replacing a file needs permission to write it, as writing it in place would: the directory's
/// permission alone does not let a read-only file, or another user's, be replaced. As root,
/// who may write anything, the CLI runs as nobody.
#[test]
fn a_file_the_user_may_not_write_is_not_replaced() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir(&ws).unwrap();
    std::fs::set_permissions(&ws, std::fs::Permissions::from_mode(0o777)).unwrap();
    let file = ws.join("ro.txt");
    std::fs::write(&file, "kept\n").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
    let mut command = seam_without_root();
    let cache = dir.path().join("cache");
    std::fs::create_dir(&cache).unwrap();
    std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o777)).unwrap();
    command.env("SEAM_CACHE_DIR", &cache).env("HOME", &ws).args([
        "--workspace",
        ws.to_str().unwrap(),
        "call",
        "--batch",
    ]);
    let out = run_batch(
        command,
        &[
            json!({"tool": "write", "args": {"file_path": "ro.txt", "content": "changed\n"}}),
            json!({"tool": "edit", "args": {"file_path": "ro.txt", "old_string": "kept", "new_string": "changed"}}),
        ],
    );
    for answer in &out {
        assert_eq!(answer["code"], "FS_PERMISSION_DENIED", "{answer}");
    }
    assert_eq!(out.len(), 2);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "kept\n");
}

#[test]
fn write_stores_content_exactly_as_sent() {
    let (_dir, ws) = scratch();
    let world = default_world(&ws);
    // Escapes of every kind, long runs between them, multi-byte text and a surrogate pair,
    // spread over block boundaries.
    let content: String = (0..300)
        .map(|n| {
            format!(
                "{n:>5}\t\"quoted\" back\\slash / é€😀 \u{1}\u{1f}{}\r\n",
                "x".repeat(n % 37)
            )
        })
        .collect();
    let written = call(&world, "write", json!({"file_path": "exact.txt", "content": content}));
    assert!(!written.is_error, "{}", written.text());
    assert_eq!(std::fs::read_to_string(ws.join("exact.txt")).unwrap(), content);
    // Arguments the fast decoder leaves to the general one still decode the same way.
    let escaped_key = r#"{"file_\u0070ath": "key.txt", "content": "\ud83d\ude00\n"}"#;
    let result = world.call("write", escaped_key, world.call_context("test"));
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(std::fs::read_to_string(ws.join("key.txt")).unwrap(), "😀\n");
    let lone = r#"{"file_path": "lone.txt", "content": "\ud800"}"#;
    let refused = world.call("write", lone, world.call_context("test"));
    assert_eq!(code(&refused), Some("INVALID_ARGUMENTS"));
    assert!(!ws.join("lone.txt").exists());
}
