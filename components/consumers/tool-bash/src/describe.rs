//! What the model sees of the tool: its name, how to use it, and its arguments schema.

use crate::bindings::seam::tool::types::ToolSpec;

pub const NAME: &str = "bash";

const DESCRIPTION: &str = "\
Run a bash command and get back its output (stdout and stderr interleaved, in order).

- Every call starts a fresh, non-interactive `bash -c` in `workdir`. Nothing carries over \
between calls: `cd`, variables and functions are gone next time, so chain dependent steps in \
one command with `&&`.
- There is no terminal and stdin is empty: pass non-interactive flags (e.g. `-y`, \
`--no-pager`); a program waiting for input sees end of file. Colors and pagers are off, and output is shown as a terminal would leave it: escape codes dropped, a progress bar's carriage-return redraws reduced to their last state.
- Long output is cut in the middle: the first and last parts are kept around a line \
`... [N bytes truncated; full output: PATH] ...`. Read PATH with grep, head, tail or \
sed -n instead of running the command again (it holds the first 64 MiB of output by default).
- A non-zero exit ends the result with `[exit code: N]`, a fatal signal with \
`[terminated by signal N]`. Neither is a tool error: read the output to see what happened.
- `timeout_ms` bounds the run. Without it the shell's default timeout applies (typically 2 \
minutes), and longer values are capped at its maximum (typically 10 minutes). A command \
that runs out of time is terminated with all its child processes and the result ends with \
`[timed out after N ms]`.
- Long-running programs (servers, watchers, long builds) go in the background: pass \
`run_in_background: true` and the call returns a job id (job-N) at once, with no timeout. \
Read the job's output with job_output, list jobs with job_list, stop one with job_kill; a \
later result tells you when it ended. A process a command leaves running (`&`, `nohup`, \
`setsid`) is stopped when the command ends, and the result says so.";

const INPUT_SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "command": {
      "type": "string",
      "description": "The bash command to run."
    },
    "timeout_ms": {
      "type": "integer",
      "minimum": 1,
      "description": "Time limit in milliseconds. Optional: the shell's default applies, and longer values are capped at its maximum."
    },
    "workdir": {
      "type": "string",
      "description": "Directory to run in: absolute, `~/…` in the home directory, or relative to the session's working directory. Optional: defaults to the session's working directory."
    },
    "description": {
      "type": "string",
      "description": "What the command does in 5-10 words, e.g. \"Run the unit tests of the parser\". Optional; shown to the user while it runs."
    },
    "run_in_background": {
      "type": "boolean",
      "description": "Start the command as a background job and return its id at once (no timeout). Optional; default false."
    }
  },
  "required": ["command"],
  "additionalProperties": false
}"#;

/// The escalation arguments, offered only when the shell confines commands. The enum names
/// every wider mode; whether a mode is wider than the call's own is checked when it runs.
const ESCALATION_PROPERTIES: &str = r#"{
  "sandbox_permissions": {
    "type": "string",
    "enum": ["workspace-write", "danger-full-access"],
    "description": "Run this one call under a wider sandbox mode. Only after a command was denied by the sandbox, and only with `justification`; a human approves it first. It never changes the session's mode."
  },
  "justification": {
    "type": "string",
    "description": "Why this command needs the wider mode, in one sentence for the human who approves it. Required with sandbox_permissions."
  }
}"#;

/// The arguments schema: with the escalation arguments when the shell confines commands.
fn schema(confines: bool) -> serde_json::Value {
    let mut schema: serde_json::Value = serde_json::from_str(INPUT_SCHEMA).unwrap_or_default();
    if confines {
        let extra: serde_json::Value = serde_json::from_str(ESCALATION_PROPERTIES).unwrap_or_default();
        if let (Some(properties), Some(extra)) = (schema["properties"].as_object_mut(), extra.as_object()) {
            properties.extend(extra.clone());
        }
    }
    schema
}

/// The argument names the schema publishes.
pub fn fields(confines: bool) -> Vec<String> {
    schema(confines)["properties"]
        .as_object()
        .map(|properties| properties.keys().cloned().collect())
        .unwrap_or_default()
}

/// `sandbox` is the policy paragraph when the shell confines commands, none otherwise.
pub fn bash(sandbox: Option<String>) -> ToolSpec {
    let schema = schema(sandbox.is_some());
    let mut description = DESCRIPTION.to_owned();
    if let Some(policy) = sandbox {
        description.push_str("\n- Commands run in an OS sandbox. ");
        description.push_str(&policy);
        description.push_str(
            " A denied file access ends the result with `[sandbox: file access denied under MODE mode]`; \
             to retry once under a wider mode, pass `sandbox_permissions` with a `justification`.",
        );
    }
    ToolSpec {
        name: NAME.to_owned(),
        description,
        input_schema: schema.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_is_json_and_matches_the_arguments() {
        let schema: serde_json::Value = match serde_json::from_str(INPUT_SCHEMA) {
            Ok(schema) => schema,
            Err(error) => panic!("schema is not JSON: {error}"),
        };
        let mut properties: Vec<&str> = schema["properties"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(name, _)| name.as_str())
            .collect();
        properties.sort_unstable();
        assert_eq!(
            properties,
            ["command", "description", "run_in_background", "timeout_ms", "workdir"]
        );
        assert_eq!(schema["required"], serde_json::json!(["command"]));
    }

    #[test]
    fn escalation_arguments_are_offered_only_when_confining() {
        let plain: serde_json::Value = serde_json::from_str(&bash(None).input_schema).unwrap_or_default();
        assert!(plain["properties"]["sandbox_permissions"].is_null());
        let confining = bash(Some("Sandbox: read-only mode.".into()));
        let schema: serde_json::Value = serde_json::from_str(&confining.input_schema).unwrap_or_default();
        assert_eq!(
            schema["properties"]["sandbox_permissions"]["enum"][1],
            "danger-full-access"
        );
        assert!(confining.description.contains("Sandbox: read-only mode."));
    }

    #[test]
    fn the_fields_are_the_schemas() {
        assert!(!fields(false).contains(&"justification".to_owned()));
        assert_eq!(fields(true).len(), fields(false).len() + 2);
    }

    #[test]
    fn every_schema_property_is_accepted() {
        let all = r#"{"command": "ls", "timeout_ms": 1, "workdir": "/", "description": "List the root directory",
            "run_in_background": false, "sandbox_permissions": "workspace-write", "justification": "It writes the build output"}"#;
        assert!(seam_guest::args::parse::<crate::args::BashArgs>(all).is_ok());
    }
}
