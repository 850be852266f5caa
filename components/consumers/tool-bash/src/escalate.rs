//! The sandbox policy of one call: the session's standing policy, or, when the model asks for a
//! wider mode with a justification, that mode for this one call once a human approved it.
//! Everything here is checked before anything runs.

use crate::args::BashArgs;
use crate::bindings::seam::approval::approval::{self, ApprovalRequest, Outcome};
use crate::bindings::seam::approval::types::Policy as ApprovalPolicy;
use crate::bindings::seam::sandbox::escalation;
use crate::bindings::seam::sandbox::policy;
use crate::bindings::seam::sandbox::types::{Mode, Policy};
use crate::bindings::seam::tool::context;
use crate::bindings::seam::tool::types::Call;

fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::ReadOnly => "read-only",
        Mode::WorkspaceWrite => "workspace-write",
        Mode::DangerFullAccess => "danger-full-access",
    }
}

/// What the human is asked to allow: the mode, the command, where it runs and whether it
/// outlives the call.
fn subject(mode: Mode, args: &BashArgs, session_cwd: &str) -> String {
    let cwd = seam_guest::paths::in_session(args.workdir.as_deref(), session_cwd, context::home);
    let background = if args.run_in_background {
        ", in the background"
    } else {
        ""
    };
    format!("{} for: {} (in {cwd}{background})", mode_name(mode), args.command)
}

fn parse_mode(text: &str) -> Option<Mode> {
    [Mode::ReadOnly, Mode::WorkspaceWrite, Mode::DangerFullAccess]
        .into_iter()
        .find(|m| mode_name(*m) == text)
}

fn refuse(code: &str, message: impl Into<String>) -> seam_guest::ToolResult {
    seam_guest::ToolResult::error(code, message.into())
}

/// The policy this call runs under, or the error result that ends it before anything runs.
/// None when the shell does not confine and no escalation was asked: there is nothing for a
/// policy to shape, so none is resolved.
pub fn policy_for(
    call: &Call,
    args: &BashArgs,
    confining: impl FnOnce() -> bool,
) -> Result<Option<Policy>, seam_guest::ToolResult> {
    let session = &call.session;
    let standing = || policy::resolve(&session.id, Some(&session.cwd), None).map_err(|e| refuse(&e.code, e.message));
    if args.sandbox_permissions.is_none() && args.justification.is_none() {
        return match confining() {
            true => standing().map(|standing| Some(standing.policy)),
            false => Ok(None),
        };
    }
    let standing = standing()?;
    let wanted = match &args.sandbox_permissions {
        None => None,
        Some(text) => Some(parse_mode(text).ok_or_else(|| {
            refuse(
                "INVALID_ARGUMENTS",
                format!("sandbox_permissions {text:?} is not workspace-write or danger-full-access"),
            )
        })?),
    };
    let asked = escalation::validate(wanted, args.justification.as_deref()).map_err(|e| refuse(&e.code, e.message))?;
    let Some(asked) = asked else {
        return Ok(Some(standing.policy));
    };
    if !confining() {
        return Err(refuse(
            "ESCALATION_UNAVAILABLE",
            "this shell does not confine commands, so there is nothing to widen: run the command without sandbox_permissions",
        ));
    }
    let current = standing.policy.mode;
    if !escalation::wider_modes(current).contains(&asked.mode) {
        return Err(refuse(
            "ESCALATION_NOT_WIDER",
            format!(
                "{} is not wider than the current {} mode; nothing was run",
                mode_name(asked.mode),
                mode_name(current)
            ),
        ));
    }
    let outcome = approval::request(&ApprovalRequest {
        agent: session.agent.clone(),
        tool: call.name.clone(),
        call_id: call.call_id.clone(),
        reason: asked.justification.clone(),
        subject: Some(subject(asked.mode, args, &session.cwd)),
    });
    match outcome {
        // Granted for this call only: the session's standing mode is left as it is.
        Outcome::AllowedOnce => policy::resolve(&session.id, Some(&session.cwd), Some(asked.mode))
            .map(|effective| Some(effective.policy))
            .map_err(|e| refuse(&e.code, e.message)),
        Outcome::Rejected => Err(refuse(
            "ESCALATION_REJECTED",
            "the human rejected the escalation; nothing was run",
        )),
        Outcome::Cancelled => Err(refuse(
            "ESCALATION_CANCELLED",
            "the approval was cancelled; nothing was run",
        )),
        Outcome::Unavailable => Err(refuse(
            "APPROVAL_UNAVAILABLE",
            "no human could be asked to approve the escalation (this client cannot show an approval \
             prompt); nothing was run. Ask the user to run the command, or to approve it another way",
        )),
    }
}

/// The code of a result whose command the sandbox denied a file access: not an error (the
/// command ran), but a fact a client may branch on, to offer a wider mode.
pub const DENIED: &str = "SANDBOX_DENIED";

/// Markers appended to a run the sandbox denied: what happened, and how to retry when a wider
/// mode exists and a human could approve it (never under the `never` approval policy).
pub fn denial_markers(policy: &Policy) -> String {
    let mut text = escalation::denial_marker(policy.mode);
    if !escalation::wider_modes(policy.mode).is_empty() && approval::standing_policy() != ApprovalPolicy::Never {
        text.push('\n');
        text.push_str(&escalation::escalation_marker("command", policy.mode));
    }
    text
}
