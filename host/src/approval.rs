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
    /// are shown escaped: a terminal would otherwise obey them, and a command could erase its
    /// own line and print a harmless one in its place.
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

/// `text` with its control characters escaped (`\n`, `\u{1b}`), the rest as it is.
fn shown(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
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
            "claude asks to run bash (danger-full-access for: rm -rf ~\\u{1b}[2K\\r\\u{1b}[1Als) once:\n\
             list files\\nclaude asks to run bash (ls) once:"
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
