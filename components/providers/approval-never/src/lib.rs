//! `approval-never`: the strict headless / CI posture. Every request is rejected on the spot,
//! before dispatch: no asker is ever reached, so nothing can be granted by accident.

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:approval-never;

            world approval-never {
                export seam:approval/approval@0.1.0;
            }
        "#,
        path: ["../../../wit/approval"],
        generate_all,
    });
}

use bindings::exports::seam::approval::approval::{ApprovalRequest, Guest, Outcome, Policy};

struct Never;

impl Guest for Never {
    fn request(_request: ApprovalRequest) -> Outcome {
        Outcome::Rejected
    }

    fn standing_policy() -> Policy {
        Policy::Never
    }
}

bindings::export!(Never with_types_in bindings);
