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
    let subject = request
        .subject
        .as_deref()
        .map(|s| format!(" ({s})"))
        .unwrap_or_default();
    write!(
        out,
        "\n{agent} asks to run {tool}{subject} once:\n  {reason}\nAllow this once? [y/N] ",
        agent = request.agent,
        tool = request.tool,
        reason = request.reason
    )?;
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
