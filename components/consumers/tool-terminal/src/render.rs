//! Terminal results as text: the output, then one bracketed status line a model can act on.

use crate::bindings::seam::terminal::terminal::{
    DecidedBy, ForegroundState, ReadResult, SendResult, SessionInfo, Snapshot,
};
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

/// A full-screen program's screen stands in for its output, which is cursor moves.
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
    let mut notes = match r.dropped {
        0 => String::new(),
        bytes => format!("[the first {bytes} bytes of output had already left the scrollback]\n"),
    };
    if let Some(range) = &r.left_out {
        notes.push_str(&format!(
            "[bytes {}..{} of output are left out, the end follows; terminal_read from_byte {} shows them]\n",
            range.start, range.end, range.start
        ));
    }
    let (body, shown) = match &r.full_screen {
        Some(screen) => (
            format!("{}{}", printed_before_full_screen(&r.output), lines(screen)),
            "; showing the screen of the full-screen program",
        ),
        None => (plain(&r.output), ""),
    };
    format!(
        "{notes}{body}\n[{id}: {state}; decided by {}; next byte {}{more}{shown}]",
        decided_by(r.decided_by),
        r.next
    )
}

/// Switches to the alternate screen: xterm's, and the older two.
const ALTERNATE_SCREEN: [&str; 3] = ["\u{1b}[?1049h", "\u{1b}[?1047h", "\u{1b}[?47h"];

/// What the send printed before a full-screen program took the screen (`make && vim`, an
/// installer before its dialog), which the screen no longer shows; nothing when that is only
/// the echoed command line.
fn printed_before_full_screen(output: &str) -> String {
    let Some(switch) = ALTERNATE_SCREEN.iter().filter_map(|s| output.find(s)).min() else {
        return String::new();
    };
    let before = plain(&output[..switch]);
    let printed: Vec<&str> = before.lines().filter(|l| !l.trim().is_empty()).collect();
    if printed.len() < 2 {
        return String::new();
    }
    format!(
        "{}\n[then a full-screen program took the screen:]\n",
        printed.join("\n")
    )
}

/// The screen's rows, the blank ones below the last text left out.
fn lines(s: &Snapshot) -> String {
    let used = s.lines.iter().rposition(|l| !l.is_empty()).map_or(0, |i| i + 1);
    s.lines[..used].join("\n")
}

pub fn screen_read(id: &str, s: &Snapshot) -> String {
    let program = match (s.running, s.alternate) {
        (false, _) => "; the shell exited",
        (true, true) => "; a full-screen program is showing",
        (true, false) => "",
    };
    format!(
        "{}\n[{id}: screen {}x{}, cursor at row {} column {}{program}]",
        lines(s),
        s.cols,
        s.rows,
        s.cursor_row + 1,
        s.cursor_col + 1
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
    if seam_guest::plain::paints_screen(&r.output) {
        notes.push("the output paints the screen with cursor moves: read it with screen: true".to_owned());
    }
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
