//! Terminal results as text: the output, then one bracketed status line a model can act on.

use crate::bindings::seam::terminal::terminal::{DecidedBy, ForegroundState, ReadResult, SendResult, SessionInfo};
use seam_guest::plain::plain;

pub fn decided_by(d: DecidedBy) -> &'static str {
    match d {
        DecidedBy::PromptMarker => "prompt-marker",
        DecidedBy::StdinWait => "stdin-wait",
        DecidedBy::Silence => "silence",
        DecidedBy::Timeout => "timeout",
        DecidedBy::Exited => "exited",
    }
}

pub fn send(id: &str, r: &SendResult) -> String {
    let state = match r.decided_by {
        DecidedBy::PromptMarker => match r.exit_code {
            Some(code) => format!("done, exit code {code}"),
            None => "done".to_owned(),
        },
        DecidedBy::StdinWait => "waiting for input".to_owned(),
        DecidedBy::Silence => "quiet: no prompt marker and no output for a while".to_owned(),
        DecidedBy::Timeout => "still running".to_owned(),
        DecidedBy::Exited => match r.exit_code {
            Some(code) => format!("shell exited with code {code}"),
            None => "shell exited".to_owned(),
        },
    };
    let more = if r.more { "; more output: terminal_read" } else { "" };
    let dropped = match r.dropped {
        0 => String::new(),
        bytes => format!("[the first {bytes} bytes of output had already left the scrollback]\n"),
    };
    format!(
        "{dropped}{}\n[{id}: {state}; decided by {}; next byte {}{more}]",
        plain(&r.output),
        decided_by(r.decided_by),
        r.next
    )
}

pub fn read(id: &str, r: &ReadResult) -> String {
    let mut notes = vec![format!("bytes {}..{}", r.start, r.next)];
    if r.lossy {
        notes.push("earlier output was dropped from the scrollback".to_owned());
    }
    if r.more {
        notes.push("more output follows".to_owned());
    }
    notes.push(if r.running { "shell open" } else { "shell exited" }.to_owned());
    format!("{}\n[{id}: {}]", plain(&r.output), notes.join("; "))
}

pub fn session(s: &SessionInfo) -> String {
    let state = match (s.running, s.exit_code) {
        (true, _) if s.busy => "busy".to_owned(),
        // No send waits on it, but input would not reach the shell's prompt.
        (true, _) => match s.foreground {
            ForegroundState::Prompt => "idle".to_owned(),
            ForegroundState::Program => "running a program".to_owned(),
            ForegroundState::ReadingInput => "waiting for input".to_owned(),
        },
        (false, Some(code)) => format!("exited with code {code}"),
        (false, None) => "ended".to_owned(),
    };
    format!(
        "{} {state} cwd={} shell={} size={}x{}",
        s.id, s.cwd, s.shell, s.cols, s.rows
    )
}
