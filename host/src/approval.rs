//! Asking a human: the host side of seam:approval/asker. Who answers depends on the caller: a
//! terminal prompt for the CLI, an MCP client, or a test; with no channel the answer is
//! `Unavailable`, never a grant.

use std::io::{BufRead, BufReader, Write};
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApprovalRequest {
    pub agent: String,
    pub tool: String,
    pub call_id: String,
    pub reason: String,
    pub subject: Option<String>,
}

impl ApprovalRequest {
    /// The question put to the human. Every field is the agent's text, so control characters
    /// and invisible ones are shown escaped and long runs of blanks are counted, not shown: a
    /// terminal would otherwise obey them, and a command could erase its own line, reorder
    /// itself, or push itself out of sight and leave a harmless one in its place.
    pub fn question(&self) -> String {
        let subject = self
            .subject
            .as_deref()
            .map(|s| format!(" ({})", shown(s)))
            .unwrap_or_default();
        format!(
            "{agent} asks to run {tool}{subject} once:\n{reason}",
            agent = shown(&self.agent),
            tool = shown(&self.tool),
            reason = shown(&self.reason)
        )
    }
}

/// Blanks in a row shown as they are; a longer run is shown by its length.
const SHOWN_BLANKS: usize = 8;

/// `text` with its control and invisible characters escaped (`\n`, `\u{1b}`, `\u{202e}`) and
/// each run of more than [`SHOWN_BLANKS`] blanks replaced by its length, the rest as it is.
fn shown(text: &str) -> String {
    let mut shown = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ' ' || c == '\t' {
            let mut run = 1;
            while chars.next_if(|next| *next == ' ' || *next == '\t').is_some() {
                run += 1;
            }
            if run > SHOWN_BLANKS {
                shown.push_str(&format!(" [{run} blanks] "));
            } else {
                shown.extend(std::iter::repeat_n(' ', run));
            }
        } else if c.is_control() || invisible(c) {
            shown.extend(c.escape_unicode());
        } else {
            shown.push(c);
        }
    }
    shown
}

/// Characters a terminal does not show as themselves: line and paragraph separators, bidi
/// controls that reorder what follows, zero-width and other format characters.
fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{61c}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{e0000}'..='\u{e007f}'
    )
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApprovalOutcome {
    AllowedOnce,
    Rejected,
    Cancelled,
    Unavailable,
}

/// Answers approval requests for the calls it is attached to.
pub type Asker = Arc<dyn Fn(&ApprovalRequest) -> ApprovalOutcome + Send + Sync>;

/// Ask on the controlling terminal (`/dev/tty`), so it works even when stdin and stdout carry
/// data. Without a terminal the answer is `Unavailable`.
pub fn terminal_asker() -> Asker {
    Arc::new(|request| ask_terminal(request).unwrap_or(ApprovalOutcome::Unavailable))
}

fn ask_terminal(request: &ApprovalRequest) -> std::io::Result<ApprovalOutcome> {
    let tty = std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty")?;
    let mut out = tty.try_clone()?;
    write!(out, "\n{}\nAllow this once? [y/N] ", request.question())?;
    out.flush()?;
    let mut answer = String::new();
    if BufReader::new(tty).read_line(&mut answer)? == 0 {
        return Ok(ApprovalOutcome::Cancelled);
    }
    Ok(match answer.trim().to_ascii_lowercase().as_str() {
        "y" | "yes" => ApprovalOutcome::AllowedOnce,
        _ => ApprovalOutcome::Rejected,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_question_shows_control_characters_instead_of_obeying_them() {
        let request = ApprovalRequest {
            agent: "claude".into(),
            tool: "bash".into(),
            call_id: "c1".into(),
            reason: "list files\nclaude asks to run bash (ls) once:".into(),
            subject: Some("danger-full-access for: rm -rf ~\u{1b}[2K\r\u{1b}[1Als".into()),
        };
        assert_eq!(
            request.question(),
            "claude asks to run bash (danger-full-access for: rm -rf ~\\u{1b}[2K\\u{d}\\u{1b}[1Als) once:\n\
             list files\\u{a}claude asks to run bash (ls) once:"
        );
    }

    #[test]
    fn the_question_shows_invisible_characters_and_counts_long_blank_runs() {
        let request = ApprovalRequest {
            agent: "claude".into(),
            tool: "bash".into(),
            call_id: "c1".into(),
            reason: format!("{}\u{202e}sl\u{2028}ok", " ".repeat(3000)),
            subject: Some(format!("rm -rf ~{}#  a\u{200b}b", " ".repeat(40))),
        };
        assert_eq!(
            request.question(),
            "claude asks to run bash (rm -rf ~ [40 blanks] #  a\\u{200b}b) once:\n \
             [3000 blanks] \\u{202e}sl\\u{2028}ok"
        );
    }

    #[test]
    fn the_question_names_the_agent_tool_subject_and_reason() {
        let request = ApprovalRequest {
            agent: "claude".into(),
            tool: "bash".into(),
            call_id: "c1".into(),
            reason: "The build writes into the workspace".into(),
            subject: Some("workspace-write: make".into()),
        };
        assert_eq!(
            request.question(),
            "claude asks to run bash (workspace-write: make) once:\nThe build writes into the workspace"
        );
    }
}
