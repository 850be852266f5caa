//! `tool-bash`: the `bash` tool a model calls. It runs the command through whichever shell
//! provider the world links (local, sandboxed, remote) and renders the result as text.

mod args;
mod describe;
mod render;
mod tool_result;

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:tool-bash;

            world tool-bash {
                import seam:shell/shell@0.1.0;
                import seam:tool/context@0.1.0;
                export seam:tool/tool@0.1.0;
            }
        "#,
        // Dependencies first: shell uses seam:sandbox.
        path: ["/tmp/seam-wit/sandbox", "/tmp/seam-wit/shell", "/tmp/seam-wit/tool"],
        generate_all,
    });
}

use bindings::exports::seam::tool::tool::{Call, Guest, ToolResult, ToolSpec};
use bindings::seam::shell::shell;
use bindings::seam::tool::context;

use crate::args::BashArgs;

struct ToolBash;

impl Guest for ToolBash {
    fn describe() -> Vec<ToolSpec> {
        vec![describe::bash()]
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
        Err(error) => return error.into(),
    };
    if let Some(description) = &args.description {
        // The short description is what a client shows while the command runs.
        context::progress(0.0, None, Some(description));
    }
    let request = args.into_request(&call.session.cwd);
    let run = shell::resolve(&request).and_then(|spec| Ok((shell::run(&spec)?, spec.timeout_ms)));
    match run {
        Ok((result, timeout_ms)) => {
            seam_guest::ToolResult::text(render::run_result(&result, timeout_ms))
        }
        // Only infrastructure failures get here: the command itself never ran.
        Err(error) => seam_guest::ToolResult::error(error.code, error.message),
    }
}

bindings::export!(ToolBash with_types_in bindings);
