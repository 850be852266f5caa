//! What the model sees of the tool: its name, how to use it, and its arguments schema.

use crate::bindings::seam::tool::types::ToolSpec;

pub const NAME: &str = "bash";

const DESCRIPTION: &str = "\
Run a bash command and get back its output (stdout and stderr interleaved, in order).

- Every call starts a fresh, non-interactive `bash -c` in `workdir`. Nothing carries over \
between calls: `cd`, variables and functions are gone next time, so chain dependent steps in \
one command with `&&`.
- There is no terminal and stdin is empty: pass non-interactive flags (e.g. `-y`, \
`--no-pager`); a program waiting for input sees end of file. Colors and pagers are off.
- Long output is cut in the middle: the first and last parts are kept around a line \
`... [N bytes truncated; full output: PATH] ...`. Read PATH with grep, head, tail or \
sed -n instead of running the command again.
- A non-zero exit ends the result with `[exit code: N]`, a fatal signal with \
`[terminated by signal N]`. Neither is a tool error: read the output to see what happened.
- `timeout_ms` bounds the run. Without it the shell's default timeout applies (typically 2 \
minutes), and longer values are capped at its maximum (typically 10 minutes). A command \
that runs out of time is terminated with all its child processes and the result ends with \
`[timed out after N ms]`. Start long-lived programs such as servers in the background \
(`cmd > log 2>&1 &`) or with a shorter timeout.";

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
      "description": "Directory to run in, absolute or relative to the session's working directory. Optional: defaults to the session's working directory."
    },
    "description": {
      "type": "string",
      "description": "What the command does in 5-10 words, e.g. \"Run the unit tests of the parser\". Optional; shown to the user while it runs."
    }
  },
  "required": ["command"],
  "additionalProperties": false
}"#;

pub fn bash() -> ToolSpec {
    ToolSpec {
        name: NAME.to_owned(),
        description: DESCRIPTION.to_owned(),
        input_schema: INPUT_SCHEMA.to_owned(),
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
        assert_eq!(properties, ["command", "description", "timeout_ms", "workdir"]);
        assert_eq!(schema["required"], serde_json::json!(["command"]));
    }

    #[test]
    fn every_schema_property_is_accepted() {
        let all = r#"{"command": "ls", "timeout_ms": 1, "workdir": "/", "description": "List the root directory"}"#;
        assert!(seam_guest::args::parse::<crate::args::BashArgs>(all).is_ok());
    }
}
