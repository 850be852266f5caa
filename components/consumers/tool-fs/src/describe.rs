//! What the model sees of the tools: names, how to use them, and their argument schemas.

use crate::bindings::seam::tool::types::ToolSpec;

pub const READ: &str = "read";
pub const WRITE: &str = "write";
pub const EDIT: &str = "edit";
pub const READ_IMAGE: &str = "read_image";

const FILE_PATH: &str = r#""file_path": {
      "type": "string",
      "description": "The file: an absolute path, `~/…` in the home directory, or a path relative to the session's working directory."
    }"#;

const READ_DESCRIPTION: &str = "\
Read a text file. Lines come numbered from 1, `cat -n` style: the line number, a tab, the line.

- Up to 2000 lines from the start by default. For long files pass `offset` (the first line to \
show, 1-based) and `limit` (how many lines); the result ends with the offset to continue from \
when lines remain. Very long lines are cut.
- Text is read in UTF-8, or in UTF-16 with a byte order mark. Binary files are refused; use \
`read_image` to look at images. Files too large to check whole \
(32 MiB by default) are refused too: read parts of them with bash.
- Read a file before editing or overwriting it. Where the world guards writes, `edit` and \
`write` refuse a file you did not read, or that changed since you read it.";

const READ_SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    FILE_PATH,
    "offset": {
      "type": "integer",
      "minimum": 1,
      "description": "The line number to start reading from (1-based). Optional: defaults to 1."
    },
    "limit": {
      "type": "integer",
      "minimum": 1,
      "description": "How many lines to read. Optional: defaults to 2000."
    }
  },
  "required": ["file_path"],
  "additionalProperties": false
}"#;

const WRITE_DESCRIPTION: &str = "\
Write a text file, replacing all of its content, or create it (missing parent directories are \
created). The new content replaces the old atomically: readers see the old file or the new one.

- To change part of an existing file prefer `edit`, which sends only the change.
- Read an existing file first. Where the world guards writes, a file you did not read, or that \
changed since you read it, is refused and left as it is.
- A symbolic link stays a link: the file it points to is written. The file's permissions (and ACL) are kept \
(setuid and setgid dropped, as any write drops them). The file is replaced whole, never half-written, \
so other hard links to it keep the old content.
- Write line ends as `\\n`, as `read` shows them: over a file whose lines end with `\\r\\n`, \
content without any `\\r` is written with `\\r\\n`. A file that starts with a byte order mark keeps \
it (`read` does not show it), and a UTF-16 file stays UTF-16.";

const WRITE_SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    FILE_PATH,
    "content": {
      "type": "string",
      "description": "The complete new content of the file."
    }
  },
  "required": ["file_path", "content"],
  "additionalProperties": false
}"#;

const EDIT_DESCRIPTION: &str = "\
Replace exact text in a file: `old_string` becomes `new_string`. The match is literal (no \
patterns) and must be exact, whitespace and indentation included; copy it from what `read` \
showed, without the line-number prefix.

- `old_string` must occur exactly once; include more surrounding lines to make it unique, or set \
`replace_all` to replace every occurrence.
- Read the file first. Where the world guards writes, a file you did not read, or that changed \
since you read it, is refused and left as it is.
- Write line ends as `\\n`, as `read` shows them: in a file whose lines end with `\\r\\n`, both \
strings are matched and written with `\\r\\n`, and where line ends are mixed each matches either.
- The edited file replaces the old one atomically, in its own encoding (a UTF-16 file stays UTF-16).";

const EDIT_SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    FILE_PATH,
    "old_string": {
      "type": "string",
      "description": "The exact text to replace (not empty)."
    },
    "new_string": {
      "type": "string",
      "description": "The text to put in its place (must differ from old_string)."
    },
    "replace_all": {
      "type": "boolean",
      "description": "Replace every occurrence of old_string instead of requiring exactly one. Optional: defaults to false."
    }
  },
  "required": ["file_path", "old_string", "new_string"],
  "additionalProperties": false
}"#;

const READ_IMAGE_DESCRIPTION: &str = "\
Look at an image file (PNG, JPEG, GIF or WebP): the image itself is returned, not text.";

const READ_IMAGE_SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    FILE_PATH
  },
  "required": ["file_path"],
  "additionalProperties": false
}"#;

fn spec(name: &str, description: &str, schema: &str) -> ToolSpec {
    ToolSpec {
        name: name.to_owned(),
        description: description.to_owned(),
        input_schema: schema.replace("FILE_PATH", FILE_PATH),
    }
}

pub fn all() -> Vec<ToolSpec> {
    vec![
        spec(READ, READ_DESCRIPTION, READ_SCHEMA),
        spec(WRITE, WRITE_DESCRIPTION, WRITE_SCHEMA),
        spec(EDIT, EDIT_DESCRIPTION, EDIT_SCHEMA),
        spec(READ_IMAGE, READ_IMAGE_DESCRIPTION, READ_IMAGE_SCHEMA),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{EditArgs, ImageArgs, ReadArgs, WriteArgs};

    fn properties(spec: &ToolSpec) -> Vec<String> {
        let schema: serde_json::Value = match serde_json::from_str(&spec.input_schema) {
            Ok(schema) => schema,
            Err(error) => panic!("{} schema is not JSON: {error}", spec.name),
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
    fn schemas_are_json_and_name_the_arguments() {
        let specs = all();
        let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["read", "write", "edit", "read_image"]);
        assert_eq!(properties(&specs[0]), ["file_path", "limit", "offset"]);
        assert_eq!(properties(&specs[1]), ["content", "file_path"]);
        assert_eq!(
            properties(&specs[2]),
            ["file_path", "new_string", "old_string", "replace_all"]
        );
        assert_eq!(properties(&specs[3]), ["file_path"]);
    }

    #[test]
    fn every_schema_property_is_accepted() {
        let parse = seam_guest::args::parse::<ReadArgs>;
        assert!(parse(r#"{"file_path": "a", "offset": 1, "limit": 1}"#).is_ok());
        assert!(seam_guest::args::parse::<WriteArgs>(r#"{"file_path": "a", "content": "b"}"#).is_ok());
        let edit = r#"{"file_path": "a", "old_string": "b", "new_string": "c", "replace_all": true}"#;
        assert!(seam_guest::args::parse::<EditArgs>(edit).is_ok());
        assert!(seam_guest::args::parse::<ImageArgs>(r#"{"file_path": "a"}"#).is_ok());
    }
}
