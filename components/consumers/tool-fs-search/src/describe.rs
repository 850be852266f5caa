//! What the model sees of the tools: names, how to use them, and their argument schemas.

use crate::bindings::seam::tool::types::ToolSpec;

pub const GLOB: &str = "glob";
pub const GREP: &str = "grep";

const GLOB_DESCRIPTION: &str = "\
Find files by name pattern, e.g. `**/*.rs` or `src/**/test_*.py`. Returns matching paths, \
sorted. Files ignored by .gitignore and hidden files are skipped, and symbolic links are not \
followed. Results are limited (default 100); a last line says when there are more.";

const GLOB_SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "pattern": {
      "type": "string",
      "description": "Glob matched against file paths below `path` (gitignore syntax: `*.rs` matches at any depth, `src/**/*.rs` below its src). An absolute pattern (`/repo/src/*.rs`) searches from its leading directories."
    },
    "path": {
      "type": "string",
      "description": "Directory to search (a file is listed when it matches `pattern`): absolute, `~/…` in the home directory, or relative to the session's working directory. Optional: defaults to the working directory."
    },
    "limit": {
      "type": "integer",
      "minimum": 1,
      "description": "Most paths to return. Optional: defaults to 100."
    }
  },
  "required": ["pattern"],
  "additionalProperties": false
}"#;

const GREP_DESCRIPTION: &str = "\
Search file contents with a regular expression (ripgrep syntax). Files ignored by .gitignore, \
hidden files and binary files are skipped, and symbolic links are not followed.

- `output_mode`: `files_with_matches` (default) lists the matching files; `content` shows \
matching lines as `path:line:text` (with `context` lines around them as `path-line-text`); \
`count` gives `path:matching lines`.
- Narrow the search with `path` and `glob` (e.g. `*.ts`).
- Results are limited (default 100 files or lines), the first in path order; a last line says \
when there are more.";

const GREP_SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "pattern": {
      "type": "string",
      "description": "Regular expression to search for (Rust regex syntax, as ripgrep uses)."
    },
    "path": {
      "type": "string",
      "description": "File or directory to search: absolute, `~/…` in the home directory, or relative to the session's working directory. Optional: defaults to the working directory."
    },
    "glob": {
      "type": "string",
      "description": "Only search files whose path below `path` matches this glob, e.g. `*.rs` or `src/**/*.ts`; a leading `!` searches every file but those (`!*.min.js`). Optional."
    },
    "ignore_case": {
      "type": "boolean",
      "description": "Match case-insensitively. Optional: defaults to false."
    },
    "output_mode": {
      "type": "string",
      "enum": ["files_with_matches", "content", "count"],
      "description": "What to return. Optional: defaults to files_with_matches."
    },
    "context": {
      "type": "integer",
      "minimum": 0,
      "description": "Lines of context before and after each match (content mode). Optional."
    },
    "limit": {
      "type": "integer",
      "minimum": 1,
      "description": "Most files (or matching lines in content mode) to return. Optional: defaults to 100."
    }
  },
  "required": ["pattern"],
  "additionalProperties": false
}"#;

fn spec(name: &str, description: &str, schema: &str) -> ToolSpec {
    ToolSpec {
        name: name.to_owned(),
        description: description.to_owned(),
        input_schema: schema.to_owned(),
    }
}

pub fn all() -> Vec<ToolSpec> {
    vec![
        spec(GLOB, GLOB_DESCRIPTION, GLOB_SCHEMA),
        spec(GREP, GREP_DESCRIPTION, GREP_SCHEMA),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{GlobArgs, GrepArgs};

    fn properties(schema: &str) -> Vec<String> {
        let schema: serde_json::Value = match serde_json::from_str(schema) {
            Ok(schema) => schema,
            Err(error) => panic!("schema is not JSON: {error}"),
        };
        let mut names: Vec<String> = schema["properties"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(name, _)| name.clone())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn schemas_match_the_arguments() {
        assert_eq!(properties(GLOB_SCHEMA), ["limit", "path", "pattern"]);
        assert_eq!(
            properties(GREP_SCHEMA),
            [
                "context",
                "glob",
                "ignore_case",
                "limit",
                "output_mode",
                "path",
                "pattern"
            ]
        );
        assert!(seam_guest::args::parse::<GlobArgs>(r#"{"pattern": "*", "path": ".", "limit": 1}"#).is_ok());
        let all = r#"{"pattern": "x", "path": ".", "glob": "*", "ignore_case": true, "output_mode": "count", "context": 1, "limit": 1}"#;
        assert!(seam_guest::args::parse::<GrepArgs>(all).is_ok());
    }
}
