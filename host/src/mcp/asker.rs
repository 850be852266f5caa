//! Approval requests put to the human through MCP elicitation.

use crate::approval::{ApprovalOutcome, ApprovalRequest, Asker};
use rmcp::model::{
    ClientResult, ElicitRequest, ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationSchema, ServerRequest,
};
use rmcp::service::{ElicitationMode, PeerRequestOptions};
use rmcp::{Peer, RoleServer, ServiceError};
use std::sync::Arc;
use tokio::runtime::Handle;
use tokio_util::sync::CancellationToken;

/// The one field of the form: a yes/no answer.
const APPROVE: &str = "approve";

/// An asker for one call, or none when the client cannot elicit (the world's approval policy
/// then decides, and a policy that asks gets `Unavailable`). `cancelled` ends a pending
/// question when the client cancels the call.
pub(super) fn for_call(peer: &Peer<RoleServer>, runtime: Handle, cancelled: CancellationToken) -> Option<Asker> {
    if !peer.supported_elicitation_modes().contains(&ElicitationMode::Form) {
        return None;
    }
    let peer = peer.clone();
    // Called on the lane's blocking thread, where blocking on the runtime is allowed.
    Some(Arc::new(move |request: &ApprovalRequest| {
        runtime.block_on(ask(&peer, request, &cancelled))
    }))
}

async fn ask(peer: &Peer<RoleServer>, request: &ApprovalRequest, cancelled: &CancellationToken) -> ApprovalOutcome {
    let schema = ElicitationSchema::builder()
        .required_bool_with(APPROVE, |b| {
            b.title("Allow once")
                .description("Allow this one call; it does not change later calls.")
        })
        .build();
    let requested_schema = match schema {
        Ok(schema) => schema,
        Err(e) => {
            tracing::warn!("cannot build the approval form: {e}");
            return ApprovalOutcome::Unavailable;
        }
    };
    let params = ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: request.question(),
        requested_schema,
    };
    let request = ServerRequest::ElicitRequest(ElicitRequest::new(params));
    let mut pending = match peer
        .send_cancellable_request(request, PeerRequestOptions::no_options())
        .await
    {
        Ok(pending) => pending,
        Err(e) => return outcome(Err(e)),
    };
    let answer = tokio::select! {
        answer = &mut pending.rx => Some(answer),
        () = cancelled.cancelled() => None,
    };
    let Some(answer) = answer else {
        // Withdraw the question, or the client's form stays open for a call that is gone.
        if let Err(e) = pending.cancel(Some("the call was cancelled".into())).await {
            tracing::debug!("cannot withdraw the approval question: {e}");
        }
        return ApprovalOutcome::Cancelled;
    };
    outcome(match answer {
        Ok(Ok(ClientResult::ElicitResult(result))) => Ok(result),
        Ok(Ok(_)) => Err(ServiceError::UnexpectedResponse),
        Ok(Err(e)) => Err(e),
        Err(_) => Err(ServiceError::TransportClosed),
    })
}

fn outcome(answer: Result<ElicitResult, ServiceError>) -> ApprovalOutcome {
    let answer = match answer {
        Ok(answer) => answer,
        Err(e) => {
            tracing::warn!("approval request through elicitation failed: {e}");
            return ApprovalOutcome::Unavailable;
        }
    };
    match answer.action {
        ElicitationAction::Accept => {
            let yes = answer
                .content
                .as_ref()
                .and_then(|c| c.get(APPROVE))
                .and_then(serde_json::Value::as_bool);
            // Accepting the form with "no" (or without an answer) grants nothing.
            if yes == Some(true) {
                ApprovalOutcome::AllowedOnce
            } else {
                ApprovalOutcome::Rejected
            }
        }
        ElicitationAction::Decline => ApprovalOutcome::Rejected,
        ElicitationAction::Cancel => ApprovalOutcome::Cancelled,
        _ => ApprovalOutcome::Unavailable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answer(action: ElicitationAction, content: Option<serde_json::Value>) -> ApprovalOutcome {
        let mut result = ElicitResult::new(action);
        result.content = content;
        outcome(Ok(result))
    }

    #[test]
    fn only_an_accepted_yes_allows() {
        assert_eq!(
            answer(ElicitationAction::Accept, Some(json!({APPROVE: true}))),
            ApprovalOutcome::AllowedOnce
        );
        assert_eq!(
            answer(ElicitationAction::Accept, Some(json!({APPROVE: false}))),
            ApprovalOutcome::Rejected
        );
        assert_eq!(answer(ElicitationAction::Accept, None), ApprovalOutcome::Rejected);
        assert_eq!(answer(ElicitationAction::Decline, None), ApprovalOutcome::Rejected);
        assert_eq!(answer(ElicitationAction::Cancel, None), ApprovalOutcome::Cancelled);
        assert_eq!(
            outcome(Err(ServiceError::UnexpectedResponse)),
            ApprovalOutcome::Unavailable
        );
    }
}
