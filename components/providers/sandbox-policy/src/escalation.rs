//! The escalation vocabulary: strict widening, argument pairing, the model-facing markers.

use crate::bindings::exports::seam::sandbox::escalation::{Error, Guest, Request};
use crate::bindings::seam::sandbox::types::Mode;
use crate::{SandboxPolicy, modes};

impl Guest for SandboxPolicy {
    fn wider_modes(mode: Mode) -> Vec<Mode> {
        modes::ALL
            .into_iter()
            .filter(|m| modes::rank(*m) > modes::rank(mode))
            .collect()
    }

    fn validate(permissions: Option<Mode>, justification: Option<String>) -> Result<Option<Request>, Error> {
        match (permissions, justification) {
            (None, None) => Ok(None),
            (Some(_), None) | (None, Some(_)) => Err(Error {
                code: "ESCALATION_UNPAIRED".into(),
                message: "sandbox_permissions and justification come together: give both or neither".into(),
            }),
            (Some(_), Some(j)) if j.trim().is_empty() => Err(Error {
                code: "ESCALATION_EMPTY_JUSTIFICATION".into(),
                message: "justification must be a sentence saying why the wider access is needed".into(),
            }),
            (Some(mode), Some(justification)) => Ok(Some(Request {
                mode,
                justification: justification.trim().to_string(),
            })),
        }
    }

    fn denial_marker(mode: Mode) -> String {
        format!("[sandbox: file access denied under {} mode]", modes::name(mode))
    }

    fn escalation_marker(subject: String, current: Mode) -> String {
        let wider: Vec<&str> = Self::wider_modes(current).into_iter().map(modes::name).collect();
        format!(
            "[sandbox: escalation available — retry this exact {subject} once with sandbox_permissions set to {} \
             (wider than the current {} mode) and a justification; a human is asked to approve it]",
            wider.join(" or "),
            modes::name(current)
        )
    }
}
