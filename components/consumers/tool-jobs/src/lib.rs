//! `tool-jobs`: the job_* tools a model calls, over whichever jobs provider the world links.
//! Every call names the calling agent as the owner; a successful result also tells the agent
//! which of its jobs ended since it was last told.

mod args;
mod describe;
mod notices;
mod render;

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:tool-jobs;

            world tool-jobs {
                import seam:jobs/jobs@0.1.0;
                export seam:tool/tool@0.1.0;
            }
        "#,
        path: ["../../../wit/jobs", "../../../wit/tool"],
        generate_all,
    });
}

seam_guest::wit_tool_result!(bindings::seam::tool::types);

use bindings::exports::seam::tool::tool::{Call, Guest, ToolResult, ToolSpec};
use bindings::seam::jobs::jobs::{self, Error};
use seam_guest::args::parse;

/// Output bytes a job_output call returns unless it asks for another amount.
const DEFAULT_READ_BYTES: u32 = 64 * 1024;

struct ToolJobs;

impl Guest for ToolJobs {
    fn describe() -> Vec<ToolSpec> {
        describe::tools()
    }

    fn invoke(call: Call) -> ToolResult {
        let owner = call.session.agent.as_str();
        let result = match call.name.as_str() {
            "job_list" => parse::<args::List>(&call.arguments).map(|_| list(owner)),
            "job_output" => parse(&call.arguments).map(|a| output(owner, a)),
            "job_kill" => parse(&call.arguments).map(|a| kill(owner, a)),
            other => {
                let message = format!("tool-jobs has no tool named {other:?}");
                return seam_guest::ToolResult::error("UNKNOWN_TOOL", message).into();
            }
        };
        match result {
            Ok(Ok(text)) => seam_guest::ToolResult::text(notices::append(owner, text)),
            Ok(Err(error)) => seam_guest::ToolResult::error(error.code, error.message),
            Err(bad_args) => bad_args.into(),
        }
        .into()
    }
}

fn list(owner: &str) -> Result<String, Error> {
    let all = jobs::list_jobs(owner)?;
    if all.is_empty() {
        return Ok("No background jobs.".to_owned());
    }
    Ok(all.iter().map(render::job).collect::<Vec<_>>().join("\n"))
}

fn output(owner: &str, a: args::Output) -> Result<String, Error> {
    if let Some(ms) = a.wait_ms {
        jobs::wait(owner, &a.job_id, Some(ms))?;
    }
    let offset = a.offset.unwrap_or(0);
    let chunk = jobs::output(owner, &a.job_id, offset, a.max_bytes.unwrap_or(DEFAULT_READ_BYTES))?;
    // The state after the read (a zero wait), so an end the read saw is reported with it.
    let info = jobs::wait(owner, &a.job_id, Some(0))?;
    Ok(render::output(&info, &chunk, offset))
}

fn kill(owner: &str, a: args::Kill) -> Result<String, Error> {
    // Killing is idempotent, so whether this call stopped the job is known only beforehand.
    let before = jobs::wait(owner, &a.job_id, Some(0))?;
    // The verdict leads: the label that ends a job's line is free text, command included.
    if before.ended_ms.is_some() {
        return Ok(format!(
            "Nothing to stop, it had already ended: {}",
            render::job(&before)
        ));
    }
    let info = jobs::kill(owner, &a.job_id)?;
    Ok(match info.state {
        jobs::State::Killed => format!("Stopped: {}", render::job(&info)),
        _ => format!("Nothing to stop, it had already ended: {}", render::job(&info)),
    })
}

bindings::export!(ToolJobs with_types_in bindings);
