//! seam:approval/asker served by the host: the call's own asker decides, or nobody can.

use super::bindings::asker::seam::approval::{asker, types};
use crate::approval::{ApprovalOutcome, ApprovalRequest};
use crate::lane::Lane;
use wasmtime::Result;

impl asker::Host for Lane {
    fn ask(&mut self, request: types::ApprovalRequest) -> Result<types::Outcome> {
        if self.call.is_cancelled() {
            return Ok(types::Outcome::Cancelled);
        }
        let Some(asker) = self.call.asker.clone() else {
            return Ok(types::Outcome::Unavailable);
        };
        let request = ApprovalRequest {
            agent: request.agent,
            tool: request.tool,
            call_id: request.call_id,
            reason: request.reason,
            subject: request.subject,
        };
        // Waiting for a human is not guest time.
        let outcome = self.blocking(|| asker(&request));
        Ok(match outcome {
            ApprovalOutcome::AllowedOnce => types::Outcome::AllowedOnce,
            ApprovalOutcome::Rejected => types::Outcome::Rejected,
            ApprovalOutcome::Cancelled => types::Outcome::Cancelled,
            ApprovalOutcome::Unavailable => types::Outcome::Unavailable,
        })
    }

    fn can_ask(&mut self) -> Result<bool> {
        Ok(self.call.asker.is_some())
    }
}

impl types::Host for Lane {}
