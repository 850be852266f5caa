//! Terminals under the sandbox: terminal-sandbox starts the shell through the sandbox seam, so
//! everything typed into a session is confined as a bash command is, while the session keeps
//! its terminal: the prompt, input waits, the list's states and Ctrl-C work as unconfined.

use crate::sandbox_support::{Dir, RUNNERS, kernel_lacks};
use crate::terminal_support::{Agent, pty_lock};
use serde_json::json;
use std::path::Path;

fn sandboxed_terminals(runner: &str, workspace: &Path) -> seam_host::World {
    let toml = format!(
        "sandbox = \"workspace-write\"\ntools = [\"tool-terminal\"]\n[providers]\n\
         subprocess = \"subprocess-local\"\nterminal = \"terminal-sandbox\"\nsandbox = \"sandbox-local\"\n\
         policy = \"sandbox-policy\"\n[config.sandbox-local]\nchain = [{runner:?}]\n"
    );
    crate::common::world(&toml, workspace)
}

fn status(text: &str) -> &str {
    text.lines().last().unwrap_or_default()
}

#[test]
fn a_sandboxed_terminal_confines_what_is_typed_and_keeps_its_terminal() {
    let _pty = pty_lock();
    for runner in RUNNERS {
        if let Some(reason) = kernel_lacks(runner) {
            eprintln!("skipped the {runner} case: {reason}");
            continue;
        }
        let (workspace, outside) = (Dir::off_tmp(), Dir::off_tmp());
        let world = sandboxed_terminals(runner, &workspace.path);
        let agent = Agent::new(&world, "a");
        let id = agent.open();

        let text = agent.send(&id, "touch inside.txt && echo made", None);
        assert!(text.contains("made"), "{runner}: {text}");
        assert!(
            status(&text).contains("done, exit code 0; decided by prompt-marker"),
            "{runner}: {text}"
        );
        assert!(workspace.join("inside.txt").exists(), "{runner}");

        let escape = outside.join("escaped.txt");
        let text = agent.send(&id, &format!("touch {}", escape.display()), None);
        assert!(status(&text).contains("exit code 1"), "{runner}: {text}");
        assert!(
            !escape.exists(),
            "{runner}: the confined shell wrote outside the workspace"
        );

        let text = agent.send(&id, "read -r -p 'name? ' x; echo got=$x", None);
        assert!(
            status(&text).contains("waiting for input; decided by stdin-wait"),
            "{runner}: {text}"
        );
        let text = agent.send(&id, "answer", None);
        assert!(text.contains("got=answer"), "{runner}: {text}");

        let list = || agent.call("terminal_list", json!({})).text();
        assert!(list().contains(&format!("{id} idle")), "{runner}: {}", list());
        assert!(status(&agent.send(&id, "sleep 30", Some(300))).contains("still running"));
        assert!(
            list().contains(&format!("{id} running a program")),
            "{runner}: {}",
            list()
        );
        agent.call("terminal_signal", json!({"session_id": id, "signal": "INT"}));
        let text = agent.send(&id, "echo back", None);
        assert!(text.contains("back"), "{runner}: {text}");
        agent.close(&id);
    }
}

/// Opening a terminal asks the session's policy: under danger-full-access the shell runs as it
/// is.
#[test]
fn a_sandboxed_terminal_follows_the_sessions_mode() {
    let _pty = pty_lock();
    if let Some(reason) = kernel_lacks("bwrap") {
        return eprintln!("skipped: {reason}");
    }
    let (workspace, outside) = (Dir::off_tmp(), Dir::off_tmp());
    let toml = "sandbox = \"danger-full-access\"\ntools = [\"tool-terminal\"]\n[providers]\n\
                subprocess = \"subprocess-local\"\nterminal = \"terminal-sandbox\"\nsandbox = \"sandbox-local\"\n\
                policy = \"sandbox-policy\"\n";
    let world = crate::common::world(toml, &workspace.path);
    let agent = Agent::new(&world, "a");
    let id = agent.open();
    let anywhere = outside.join("anywhere.txt");
    let text = agent.send(&id, &format!("touch {}", anywhere.display()), None);
    assert!(status(&text).contains("exit code 0"), "{text}");
    assert!(anywhere.exists());
    agent.close(&id);
}
