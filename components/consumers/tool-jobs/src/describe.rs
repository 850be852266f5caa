//! What the model sees: three tools over its background jobs.

use crate::bindings::seam::tool::types::ToolSpec;

const JOB_ID: &str =
    r#""job_id": {"type": "string", "description": "The job, as bash with run_in_background returned it (job-N)."}"#;

fn spec(name: &str, description: &str, properties: &str, required: &[&str]) -> ToolSpec {
    ToolSpec {
        name: name.to_owned(),
        description: description.to_owned(),
        input_schema: seam_guest::json::object_schema(properties, required),
    }
}

pub fn tools() -> Vec<ToolSpec> {
    vec![
        spec(
            "job_list",
            "List your background jobs (started with bash `run_in_background`): id, state \
             (running, done, failed with its exit code, killed) and what each runs.",
            "",
            &[],
        ),
        spec(
            "job_output",
            "Read a background job's output (stdout and stderr interleaved) from byte `offset`. \
             The last line says whether the job still runs and which offset to pass next to read \
             only what is new. With `wait_ms`, first wait up to that long for the job to end.",
            &format!(
                r#"{JOB_ID}, "offset": {{"type": "integer", "minimum": 0, "description": "Byte offset to read from (default 0)."}},
                   "max_bytes": {{"type": "integer", "minimum": 1, "description": "Most bytes to return (default 65536)."}},
                   "wait_ms": {{"type": "integer", "minimum": 0, "description": "Wait up to this long for the job to end before reading."}}"#
            ),
            &["job_id"],
        ),
        spec(
            "job_kill",
            "Stop a background job: its command and every process it started are terminated. \
             A job that already ended is left as it is.",
            JOB_ID,
            &["job_id"],
        ),
    ]
}
