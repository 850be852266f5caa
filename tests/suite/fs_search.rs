//! tool-fs-search: ripgrep through the subprocess seam, .gitignore respected, results sorted and
//! bounded with a marker when there are more.

use crate::common::*;
use crate::fs_support::{code, scratch};
use serde_json::json;

/// A small repository: `.git` makes ripgrep apply `.gitignore`.
fn repository() -> (tempfile::TempDir, std::path::PathBuf) {
    let (dir, ws) = scratch();
    std::fs::create_dir(ws.join(".git")).unwrap();
    std::fs::write(ws.join(".gitignore"), "ignored/\n*.log\n").unwrap();
    std::fs::create_dir_all(ws.join("src/deep")).unwrap();
    std::fs::create_dir(ws.join("ignored")).unwrap();
    std::fs::write(ws.join("src/main.rs"), "fn main() {\n    needle();\n}\n").unwrap();
    std::fs::write(ws.join("src/deep/lib.rs"), "pub fn needle() {}\n// needle again\n").unwrap();
    std::fs::write(ws.join("ignored/hidden.rs"), "fn needle() {}\n").unwrap();
    std::fs::write(ws.join("debug.log"), "needle\n").unwrap();
    (dir, ws)
}

#[test]
fn glob_finds_files_and_respects_gitignore() {
    let (_dir, ws) = repository();
    let world = default_world(&ws);
    let found = call(&world, "glob", json!({"pattern": "*.rs"}));
    assert!(!found.is_error, "{found:?}");
    assert_eq!(found.text(), "src/deep/lib.rs\nsrc/main.rs");
    let below = call(&world, "glob", json!({"pattern": "*.rs", "path": "src/deep"}));
    assert_eq!(below.text(), "src/deep/lib.rs");
    assert_eq!(
        call(&world, "glob", json!({"pattern": "*.py"})).text(),
        "No files matched"
    );
}

/// Context lines come with their match: groups apart are set apart with `--`, and the lines
/// before a match past the limit are not shown without it.
#[test]
fn context_comes_with_its_match() {
    let (_dir, ws) = scratch();
    let text: String = (1..30)
        .map(|n| format!("{} {n}\n", if [3, 4, 20].contains(&n) { "M" } else { "x" }))
        .collect();
    std::fs::write(ws.join("a.txt"), text).unwrap();
    let world = default_world(&ws);
    let grep = |limit: u32| {
        call(
            &world,
            "grep",
            json!({"pattern": "^M", "output_mode": "content", "context": 1, "limit": limit}),
        )
        .text()
    };
    assert_eq!(
        grep(10),
        "a.txt-2-x 2\na.txt:3:M 3\na.txt:4:M 4\na.txt-5-x 5\n--\na.txt-19-x 19\na.txt:20:M 20\na.txt-21-x 21"
    );
    let two = grep(2);
    assert!(
        two.starts_with("a.txt-2-x 2\na.txt:3:M 3\na.txt:4:M 4\na.txt-5-x 5\n[more"),
        "{two}"
    );
    // Without context, as ripgrep prints them: no separators.
    let plain = call(&world, "grep", json!({"pattern": "^M", "output_mode": "content"}));
    assert_eq!(plain.text(), "a.txt:3:M 3\na.txt:4:M 4\na.txt:20:M 20");
}

/// A match far along a long line (a minified file) is shown, not cut off with the line.
#[test]
fn a_match_far_along_a_long_line_is_shown() {
    let (_dir, ws) = scratch();
    std::fs::write(ws.join("min.js"), format!("{}NEEDLE;\n", "var a=1;".repeat(2000))).unwrap();
    let world = default_world(&ws);
    let found = call(&world, "grep", json!({"pattern": "NEEDLE", "output_mode": "content"}));
    assert!(
        found.text().starts_with("min.js:1:[") && found.text().contains("NEEDLE"),
        "{}",
        found.text()
    );
}

/// A directory that is not a git repository: its `.gitignore` counts all the same.
#[test]
fn gitignore_counts_outside_a_git_repository() {
    let (_dir, ws) = repository();
    std::fs::remove_dir(ws.join(".git")).unwrap();
    let world = default_world(&ws);
    assert_eq!(
        call(&world, "glob", json!({"pattern": "*.rs"})).text(),
        "src/deep/lib.rs\nsrc/main.rs"
    );
    assert_eq!(
        call(&world, "grep", json!({"pattern": "needle"})).text(),
        "src/deep/lib.rs\nsrc/main.rs"
    );
}

/// A glob written from `.` (`./src/*.rs`) means what it says without the `./`, and one from
/// `..` searches the directory it climbs to.
#[test]
fn a_glob_from_dot_or_dot_dot_finds_its_files() {
    let (_dir, ws) = repository();
    let world = default_world(&ws);
    assert_eq!(
        call(&world, "glob", json!({"pattern": "./src/*.rs"})).text(),
        "src/main.rs"
    );
    assert_eq!(
        call(&world, "glob", json!({"pattern": "../deep/*.rs", "path": "src/deep"})).text(),
        "src/deep/../deep/lib.rs"
    );
    let filtered = call(&world, "grep", json!({"pattern": "needle", "glob": "./src/deep/*.rs"}));
    assert_eq!(filtered.text(), "src/deep/lib.rs");
    // After a wildcard `..` would match no name a walk finds: said, not "No files matched".
    for (tool, args) in [
        ("glob", json!({"pattern": "src/*/../main.rs"})),
        ("grep", json!({"pattern": "needle", "glob": "src/**/../*.rs"})),
    ] {
        let refused = call(&world, tool, args);
        assert_eq!(code(&refused), Some("SEARCH_INVALID_PATTERN"), "{}", refused.text());
    }
}

#[test]
fn a_glob_never_brings_back_ignored_or_hidden_files() {
    let (_dir, ws) = repository();
    std::fs::write(ws.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::write(ws.join(".env"), "needle\n").unwrap();
    std::fs::write(ws.join("src/.secret.rs"), "fn needle() {}\n").unwrap();
    std::fs::create_dir_all(ws.join(".github/workflows")).unwrap();
    std::fs::write(ws.join(".github/workflows/ci.yml"), "needle: true\n").unwrap();
    let world = default_world(&ws);
    let glob = |pattern: &str| call(&world, "glob", json!({"pattern": pattern})).text().to_owned();
    assert_eq!(glob("*"), "src/deep/lib.rs\nsrc/main.rs");
    assert_eq!(glob("*.rs"), "src/deep/lib.rs\nsrc/main.rs");
    assert_eq!(glob("*.log"), "No files matched");
    assert_eq!(glob("ignored/*"), "No files matched");
    // A glob that names a hidden part finds it.
    assert_eq!(glob(".github/**/*.yml"), ".github/workflows/ci.yml");
    let grep = |glob: &str| {
        call(&world, "grep", json!({"pattern": "needle", "glob": glob}))
            .text()
            .to_owned()
    };
    assert_eq!(grep("*.rs"), "src/deep/lib.rs\nsrc/main.rs");
    assert_eq!(grep("*"), "src/deep/lib.rs\nsrc/main.rs");
    assert_eq!(grep("src/**"), "src/deep/lib.rs\nsrc/main.rs");
    assert_eq!(grep("*.yml"), "No matches found");
}

#[test]
fn the_paths_shown_are_the_first_in_order_whatever_the_walk() {
    let (_dir, ws) = scratch();
    for dir in ["b", "a", "c"] {
        std::fs::create_dir(ws.join(dir)).unwrap();
        for i in 0..20 {
            std::fs::write(ws.join(format!("{dir}/{i:02}.txt")), "").unwrap();
        }
    }
    let world = default_world(&ws);
    let shown = call(&world, "glob", json!({"pattern": "*.txt", "limit": 3}));
    assert!(
        shown
            .text()
            .starts_with("a/00.txt\na/01.txt\na/02.txt\n[more results: the first 3 paths"),
        "{}",
        shown.text()
    );
}

#[test]
fn a_file_named_as_the_path_of_a_glob_is_listed_only_when_it_matches() {
    let (_dir, ws) = repository();
    let world = default_world(&ws);
    let glob = |args: serde_json::Value| call(&world, "glob", args).text().to_owned();
    assert_eq!(glob(json!({"pattern": "*.rs", "path": "src/main.rs"})), "src/main.rs");
    assert_eq!(
        glob(json!({"pattern": "*.py", "path": "src/main.rs"})),
        "No files matched"
    );
    // Matched as an entry of its directory, as the search of that directory would.
    assert_eq!(glob(json!({"pattern": "main.*", "path": "src/main.rs"})), "src/main.rs");
    assert_eq!(
        glob(json!({"pattern": "deep/*.rs", "path": "src/main.rs"})),
        "No files matched"
    );
    let absolute = ws.join("src/main.rs").display().to_string();
    assert_eq!(glob(json!({"pattern": "*.rs", "path": absolute})), absolute);
    // Named, an ignored file is listed when it matches, as ripgrep lists a path it is given.
    assert_eq!(glob(json!({"pattern": "*.log", "path": "debug.log"})), "debug.log");
    assert_eq!(
        glob(json!({"pattern": "*.rs", "path": "debug.log"})),
        "No files matched"
    );
    // A link to a file, named, is listed as ripgrep lists it: by its own name.
    std::os::unix::fs::symlink(ws.join("src/main.rs"), ws.join("link.rs")).unwrap();
    assert_eq!(glob(json!({"pattern": "*.rs", "path": "link.rs"})), "link.rs");
    assert_eq!(
        glob(json!({"pattern": "main.*", "path": "link.rs"})),
        "No files matched"
    );
}

#[test]
fn globs_are_relative_to_the_directory_searched() {
    let (_dir, ws) = repository();
    let world = default_world(&ws);
    let glob = |args: serde_json::Value| call(&world, "glob", args).text().to_owned();
    assert_eq!(glob(json!({"pattern": "deep/*.rs", "path": "src"})), "src/deep/lib.rs");
    let src = ws.join("src");
    assert_eq!(
        glob(json!({"pattern": "**/*.rs", "path": src})),
        format!("{0}/deep/lib.rs\n{0}/main.rs", src.display())
    );
    // .gitignore of the repository still applies below its root.
    assert_eq!(
        glob(json!({"pattern": "**/*.rs", "path": "."})),
        "./src/deep/lib.rs\n./src/main.rs"
    );
    // An absolute glob searches from its leading directories, anchored there.
    assert_eq!(
        glob(json!({"pattern": format!("{}/*.rs", src.display())})),
        format!("{}/main.rs", src.display())
    );
    assert_eq!(
        glob(json!({"pattern": format!("{}/**/lib.rs", ws.display())})),
        format!("{}/src/deep/lib.rs", ws.display())
    );
    let grep = call(
        &world,
        "grep",
        json!({"pattern": "needle", "path": "src", "glob": "deep/*.rs", "output_mode": "content"}),
    );
    assert_eq!(
        grep.text(),
        "src/deep/lib.rs:1:pub fn needle() {}\nsrc/deep/lib.rs:2:// needle again"
    );
    // A path that is a file is searched, whatever the glob.
    let in_file = call(
        &world,
        "grep",
        json!({"pattern": "needle", "path": "src/main.rs", "glob": "deep/*.rs", "output_mode": "content"}),
    );
    assert_eq!(in_file.text(), "src/main.rs:2:    needle();", "{in_file:?}");
}

#[test]
fn grep_has_three_output_modes() {
    let (_dir, ws) = repository();
    let world = default_world(&ws);
    let files = call(&world, "grep", json!({"pattern": "needle"}));
    assert_eq!(files.text(), "src/deep/lib.rs\nsrc/main.rs");
    let content = call(&world, "grep", json!({"pattern": "needle", "output_mode": "content"}));
    assert_eq!(
        content.text(),
        "src/deep/lib.rs:1:pub fn needle() {}\nsrc/deep/lib.rs:2:// needle again\nsrc/main.rs:2:    needle();"
    );
    let context = call(
        &world,
        "grep",
        json!({"pattern": "needle\\(\\);", "output_mode": "content", "context": 1, "path": "src/main.rs"}),
    );
    assert_eq!(
        context.text(),
        "src/main.rs-1-fn main() {\nsrc/main.rs:2:    needle();\nsrc/main.rs-3-}"
    );
    let counts = call(
        &world,
        "grep",
        json!({"pattern": "NEEDLE", "ignore_case": true, "output_mode": "count"}),
    );
    assert_eq!(counts.text(), "src/deep/lib.rs:2\nsrc/main.rs:1");
    let only_main = call(&world, "grep", json!({"pattern": "needle", "glob": "main.*"}));
    assert_eq!(only_main.text(), "src/main.rs");
    assert_eq!(
        call(&world, "grep", json!({"pattern": "haystack"})).text(),
        "No matches found"
    );
}

#[test]
fn results_are_bounded_with_a_marker() {
    let (_dir, ws) = scratch();
    for i in 0..30 {
        std::fs::write(ws.join(format!("f{i:02}.txt")), "hit\nhit\n").unwrap();
    }
    let world = default_world(&ws);
    let files = call(&world, "grep", json!({"pattern": "hit", "limit": 5}));
    let text = files.text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    // The first files in path order, whatever order ripgrep's parallel walk found them in.
    assert_eq!(
        lines[..5],
        ["f00.txt", "f01.txt", "f02.txt", "f03.txt", "f04.txt"],
        "{text}"
    );
    assert!(
        lines[5].starts_with("[more results: the first 5 files in path order are shown"),
        "{text}"
    );
    let content = call(
        &world,
        "grep",
        json!({"pattern": "hit", "output_mode": "content", "limit": 3}),
    );
    assert!(
        content.text().ends_with(
            "[more results: stopped after 3 matching lines; narrow the pattern, path or glob, or raise limit]"
        )
    );
    assert_eq!(
        content
            .text()
            .lines()
            .filter(|l| l.ends_with(":hit"))
            .collect::<Vec<_>>(),
        ["f00.txt:1:hit", "f00.txt:2:hit", "f01.txt:1:hit"]
    );
    let counts = call(
        &world,
        "grep",
        json!({"pattern": "hit", "output_mode": "count", "limit": 2}),
    );
    assert!(
        counts.text().starts_with("f00.txt:2\nf01.txt:2\n[more results"),
        "{}",
        counts.text()
    );
    let glob = call(&world, "glob", json!({"pattern": "*.txt", "limit": 29}));
    assert!(glob.text().contains("[more results"), "{}", glob.text());
    let all = call(&world, "glob", json!({"pattern": "*.txt", "limit": 30}));
    assert!(!all.text().contains("[more results"));
}

#[test]
fn ripgrep_failures_are_errors_with_a_code() {
    let (_dir, ws) = scratch();
    let world = default_world(&ws);
    let bad = call(&world, "grep", json!({"pattern": "(unclosed"}));
    assert_eq!(code(&bad), Some("SEARCH_INVALID_PATTERN"));
    assert!(bad.text().contains("regex parse error"), "{}", bad.text());
    let bad_filter = call(&world, "grep", json!({"pattern": "x", "glob": "{a,b"}));
    assert_eq!(
        code(&bad_filter),
        Some("SEARCH_INVALID_PATTERN"),
        "{}",
        bad_filter.text()
    );
    let bad_glob = call(&world, "glob", json!({"pattern": "*.{rs,toml"}));
    assert_eq!(code(&bad_glob), Some("SEARCH_INVALID_PATTERN"), "{}", bad_glob.text());
    assert!(bad_glob.text().contains("error parsing glob"), "{}", bad_glob.text());
    let missing = call(&world, "grep", json!({"pattern": "x", "path": "no/such/dir"}));
    assert_eq!(code(&missing), Some("SEARCH_PATH_NOT_FOUND"), "{}", missing.text());
    assert_eq!(missing.text(), "no/such/dir: no such file or directory");
    // Also when the search would run in that directory (a glob with a slash).
    let missing = call(&world, "glob", json!({"pattern": "a/*.rs", "path": "no/such/dir"}));
    assert_eq!(code(&missing), Some("SEARCH_PATH_NOT_FOUND"), "{}", missing.text());
    assert!(missing.text().contains("no/such/dir"), "{}", missing.text());
    let missing = call(&world, "glob", json!({"pattern": "/no/such/dir/*.rs"}));
    assert_eq!(code(&missing), Some("SEARCH_PATH_NOT_FOUND"), "{}", missing.text());
    assert_eq!(missing.text(), "/no/such/dir: not an existing directory");
    assert_eq!(
        code(&call(&world, "grep", json!({"pattern": "x", "mode": "files"}))),
        Some("INVALID_ARGUMENTS")
    );
    let across_lines = call(&world, "grep", json!({"pattern": "a\nb"}));
    assert_eq!(code(&across_lines), Some("SEARCH_INVALID_PATTERN"));
    assert!(!across_lines.text().contains("--multiline"), "{}", across_lines.text());
}

#[test]
fn grep_matches_line_ends_in_crlf_files_and_leaves_out_a_negated_glob() {
    let (_dir, ws) = scratch();
    std::fs::write(ws.join("dos.txt"), "x\r\nmatch crlf\r\n").unwrap();
    std::fs::write(ws.join("a.rs"), "Hello\n").unwrap();
    std::fs::write(ws.join("b.ts"), "Hello\n").unwrap();
    let world = default_world(&ws);
    let line_end = call(
        &world,
        "grep",
        json!({"pattern": "crlf$", "output_mode": "content", "path": "dos.txt"}),
    );
    assert_eq!(line_end.text(), "dos.txt:2:match crlf", "{line_end:?}");
    assert_eq!(
        call(&world, "grep", json!({"pattern": "Hello", "glob": "!*.rs"})).text(),
        "b.ts"
    );
}

#[test]
fn content_with_wide_context_is_bounded_in_bytes() {
    let (_dir, ws) = scratch();
    let filler = "f".repeat(200);
    let text: String = (0..100_000)
        .map(|i| {
            if i % 200 == 0 {
                "HIT\n".to_owned()
            } else {
                format!("{filler}\n")
            }
        })
        .collect();
    std::fs::write(ws.join("big.txt"), text).unwrap();
    let world = default_world(&ws);
    let found = call(
        &world,
        "grep",
        json!({"pattern": "HIT", "output_mode": "content", "context": 99, "path": "big.txt"}),
    );
    assert!(found.text().len() < 300 * 1024, "{} bytes", found.text().len());
    assert!(
        found.text().contains("stopped at 256 KB of output"),
        "{}",
        &found.text()[found.text().len() - 200..]
    );
}

/// A name that is not UTF-8 is shown with U+FFFD and a note that only bash can name it; the
/// file tools, given the name as shown, say the same.
#[test]
fn a_name_that_is_not_utf8_is_shown_with_what_to_do() {
    use std::os::unix::ffi::OsStrExt;
    let (_dir, ws) = scratch();
    std::fs::write(ws.join(std::ffi::OsStr::from_bytes(b"caf\xe9.txt")), "needle\n").unwrap();
    std::fs::write(ws.join("plain.txt"), "needle \u{fffd}\n").unwrap();
    let world = default_world(&ws);
    let note = "[a path shown with \u{fffd} has a name that is not UTF-8";
    let listed = call(&world, "glob", json!({"pattern": "*.txt"})).text();
    assert!(listed.starts_with("caf\u{fffd}.txt\nplain.txt\n"), "{listed}");
    assert!(listed.contains(note), "{listed}");
    for mode in ["content", "files_with_matches", "count"] {
        let found = call(&world, "grep", json!({"pattern": "needle", "output_mode": mode})).text();
        assert!(
            found.contains("caf\u{fffd}.txt") && found.contains(note),
            "{mode}: {found}"
        );
    }
    let plain = call(
        &world,
        "grep",
        json!({"pattern": "needle", "glob": "plain*", "output_mode": "content"}),
    )
    .text();
    assert!(!plain.contains(note), "a U+FFFD in a line is no name: {plain}");
    let read = call(&world, "read", json!({"file_path": "caf\u{fffd}.txt"}));
    assert_eq!(read.code.as_deref(), Some("FS_NOT_FOUND"), "{read:?}");
    assert!(
        read.text().contains("not UTF-8") && read.text().contains("use bash"),
        "{read:?}"
    );
}
