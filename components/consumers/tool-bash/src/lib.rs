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
        path: ["../../../wit/sandbox", "../../../wit/shell", "../../../wit/tool"],
        generate_all,
    });
}

use bindings::exports::seam::tool::tool::{Call, Guest, ToolResult, ToolSpec};
use bindings::seam::shell::shell::{self, Request};
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
    match execute(&args.into_request(&call.session.cwd)) {
        Ok(text) => seam_guest::ToolResult::text(text),
        // The shell refused the request or could not run it. A failing command is not an
        // error: it renders as text with its exit code.
        Err(error) => seam_guest::ToolResult::error(error.code, error.message),
    }
}

/// Resolve, run and render; the shell's error when it refused or failed.
fn execute(request: &Request) -> Result<String, shell::Error> {
    let spec = shell::resolve(request)?;
    let result = shell::run(&spec)?;
    Ok(render::run_result(&result, spec.timeout_ms))
}

bindings::export!(ToolBash with_types_in bindings);
