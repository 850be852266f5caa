//! `approval-prompt`: asks a human through the host's asker, which reaches whoever drives the
//! call (the controlling terminal for the CLI, the client for MCP). An asker that is missing
//! or fails answers `unavailable`, never a grant.

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:approval-prompt;

            world approval-prompt {
                import seam:approval/asker@0.1.0;
                export seam:approval/approval@0.1.0;
            }
        "#,
        path: ["../../../wit/approval"],
        generate_all,
    });
}

use bindings::exports::seam::approval::approval::{ApprovalRequest, Guest, Outcome, Policy};
use bindings::seam::approval::asker;

struct Prompt;

impl Guest for Prompt {
    fn request(request: ApprovalRequest) -> Outcome {
        asker::ask(&request)
    }

    /// With nobody to ask during this call, every request would be `unavailable`: as good as
    /// `never`, and said so, so no agent is told to ask for an approval that cannot come.
    fn standing_policy() -> Policy {
        if asker::can_ask() { Policy::Ask } else { Policy::Never }
    }
}

bindings::export!(Prompt with_types_in bindings);
