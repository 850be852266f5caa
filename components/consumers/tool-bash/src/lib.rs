//! `tool-bash`: the `bash` tool a model calls. It runs the command through whichever shell
//! provider the world links (local, sandboxed, remote) and renders the result as text, or, with
//! `run_in_background`, starts it as a job of the world's jobs provider and returns its id.

mod args;
mod background;
mod describe;
mod escalate;
#[path = "../../tool-jobs/src/notices.rs"]
mod notices;
mod render;

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:tool-bash;

            world tool-bash {
                import seam:shell/shell@0.1.0;
                import seam:sandbox/policy@0.1.0;
                import seam:sandbox/escalation@0.1.0;
                import seam:approval/approval@0.1.0;
                import seam:jobs/jobs@0.1.0;
                import seam:tool/context@0.1.0;
                export seam:tool/tool@0.1.0;
            }
        "#,
        // Dependencies first: shell uses seam:sandbox.
        path: [
            "../../../wit/sandbox",
            "../../../wit/approval",
            "../../../wit/shell",
            "../../../wit/jobs",
            "../../../wit/tool",
        ],
        generate_all,
    });
}

seam_guest::wit_tool_result!(bindings::seam::tool::types);

use bindings::exports::seam::tool::tool::{Call, Guest, ToolResult, ToolSpec};
use bindings::seam::sandbox::policy;
use bindings::seam::sandbox::types::Policy;
use bindings::seam::shell::shell::{self, Request};
use bindings::seam::tool::context;

use crate::args::BashArgs;

struct ToolBash;

impl Guest for ToolBash {
    fn describe() -> Vec<ToolSpec> {
        // The deployment's policy, described to the model when the shell confines commands.
        let sandbox = shell::confines()
            .then(|| {
                policy::resolve("", None, None)
                    .ok()
                    .map(|effective| policy::describe(&effective))
            })
            .flatten();
        vec![describe::bash(sandbox)]
    }

    fn invoke(call: Call) -> ToolResult {
        if call.name != describe::NAME {
            let message = format!("tool-bash has no tool named {:?}", call.name);
            return seam_guest::ToolResult::error("UNKNOWN_TOOL", message).into();
        }
        run_bash(&call).into()
    }
}

fn run_bash(call: &Call) -> seam_guest::ToolResult {
    let args: BashArgs = match seam_guest::args::parse(&call.arguments) {
        Ok(args) => args,
        Err(error) => return error.listing_fields(&describe::fields(shell::confines())).into(),
    };
    if let Some(description) = &args.description {
        // The short description is what a client shows while the command runs.
        context::progress(0.0, None, Some(description));
    }
    // A policy is resolved only for a shell that confines, or when an escalation is asked.
    let policy = match escalate::policy_for(call, &args, shell::confines) {
        Ok(policy) => policy,
        Err(refused) => return refused,
    };
    let request = args.request(&call.session.cwd, context::home, policy.clone());
    let owner = &call.session.agent;
    if args.run_in_background {
        return match background::start(owner, &args, &request) {
            Ok(text) => seam_guest::ToolResult::text(notices::append(owner, text)),
            Err(refused) => refused,
        };
    }
    match execute(&request, policy.as_ref()) {
        Ok((text, false)) => seam_guest::ToolResult::text(notices::append(owner, text)),
        Ok((text, true)) => seam_guest::ToolResult::text(notices::append(owner, text)).with_code(escalate::DENIED),
        // The shell refused the request or could not run it. A failing command is not an
        // error: it renders as text with its exit code.
        Err(error) => seam_guest::ToolResult::error(error.code, error.message),
    }
}

/// Resolve, run and render, and whether the sandbox denied the command a file access; the
/// shell's error when it refused or failed.
fn execute(request: &Request, policy: Option<&Policy>) -> Result<(String, bool), shell::Error> {
    let spec = shell::resolve(request)?;
    let result = shell::run(&spec)?;
    let mut text = render::run_result(&result, spec.timeout_ms);
    // Only a confining shell denies, and it ran under a policy.
    let denied_under = policy.filter(|_| result.denied);
    if let Some(policy) = denied_under {
        text.push('\n');
        text.push_str(&escalate::denial_markers(policy));
    }
    Ok((text, denied_under.is_some()))
}

bindings::export!(ToolBash with_types_in bindings);
