//! Paths a model gives with a leading `~`: every tool places them in the home directory of the
//! user seam runs as, as a shell would.

use crate::common::*;
use serde_json::json;

#[test]
fn a_leading_tilde_is_the_home_directory_in_every_tool() {
    let home = tempfile::tempdir().unwrap();
    let workspace = tempfile::tempdir().unwrap();
    let notes = home.path().join("notes");
    std::fs::create_dir(&notes).unwrap();
    std::fs::write(notes.join("a.md"), "hello\n").unwrap();
    let mut command = batch_command(workspace.path());
    as_user_at_home(&mut command, home.path());
    let answers = run_batch(
        command,
        &[
            json!({"tool": "read", "args": {"file_path": "~/notes/a.md"}}),
            json!({"tool": "edit", "args": {"file_path": "~/notes/a.md", "old_string": "hello", "new_string": "bye"}}),
            json!({"tool": "write", "args": {"file_path": "~/notes/b.md", "content": "new\n"}}),
            json!({"tool": "bash", "args": {"command": "pwd; cat a.md", "workdir": "~/notes"}}),
            json!({"tool": "glob", "args": {"pattern": "*.md", "path": "~/notes"}}),
            json!({"tool": "grep", "args": {"pattern": "bye", "path": "~", "output_mode": "content"}}),
            json!({"tool": "read", "args": {"file_path": "~notes/a.md"}}),
        ],
    );
    assert_eq!(answers.len(), 7, "{answers:?}");
    for answer in &answers[..6] {
        assert_eq!(answer["is_error"], false, "{answer}");
    }
    assert!(first_text(&answers[0]).contains("hello"), "{}", answers[0]);
    assert_eq!(std::fs::read_to_string(notes.join("a.md")).unwrap(), "bye\n");
    assert_eq!(std::fs::read_to_string(notes.join("b.md")).unwrap(), "new\n");
    assert_eq!(first_text(&answers[3]), format!("{}\nbye", notes.display()));
    let found = first_text(&answers[4]);
    for name in ["a.md", "b.md"] {
        assert!(found.contains(&notes.join(name).display().to_string()), "{found}");
    }
    assert!(
        first_text(&answers[5]).contains(&format!("{}:1:bye", notes.join("a.md").display())),
        "{}",
        answers[5]
    );
    // `~name` is no home directory here: a relative path like any other.
    assert_eq!(answers[6]["code"], "FS_NOT_FOUND", "{}", answers[6]);
    assert!(first_text(&answers[6]).contains("~notes/a.md"), "{}", answers[6]);
}
