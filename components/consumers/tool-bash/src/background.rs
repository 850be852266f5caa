//! `run_in_background`: the command starts as a job after the same argument checks, sandbox
//! policy and escalation a foreground command gets, and the call returns the job id at once.

use crate::args::BashArgs;
use crate::bindings::seam::jobs::jobs::{self, StartRequest, Watch};
use crate::bindings::seam::shell::shell::{self, Request};

fn refused(code: String, message: String) -> seam_guest::ToolResult {
    seam_guest::ToolResult::error(code, message)
}

/// The text naming the job, or the error result when nothing was left running.
pub fn start(owner: &str, args: &BashArgs, request: &Request) -> Result<String, seam_guest::ToolResult> {
    // A released owner's command never runs.
    jobs::admit(owner).map_err(|e| refused(e.code, e.message))?;
    let spec = shell::resolve(request).map_err(|e| refused(e.code, e.message))?;
    let background = shell::start(&spec).map_err(|e| refused(e.code, e.message))?;
    let registered = jobs::start(&StartRequest {
        kind: "bash".to_owned(),
        label: args.description.clone().unwrap_or_default(),
        owner: owner.to_owned(),
        command: Some(args.command.clone()),
        watch: Watch::Shell(background.id()),
    });
    let id = match registered {
        Ok(id) => id,
        Err(e) => {
            // Unregistered, nobody could ever see or stop it.
            background.terminate();
            return Err(refused(e.code, e.message));
        }
    };
    background.detach();
    Ok(format!(
        "Started background job {id}. Read its output with job_output {{\"job_id\": \"{id}\"}} \
         (pass the offset it reports to read only what is new); stop it with job_kill."
    ))
}
