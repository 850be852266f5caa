//! What the model sees: one tool, four read-only operations, and the extensions served.

use crate::bindings::seam::lsp::lsp::ServerStatus;
use crate::bindings::seam::tool::types::ToolSpec;

const SCHEMA: &str = r#"{"type": "object", "properties": {
    "operation": {"type": "string", "enum": ["go_to_definition", "find_references", "go_to_implementation", "hover"], "description": "What to ask about the symbol at the position."},
    "file_path": {"type": "string", "description": "The file: absolute, `~/…` in the home directory, or relative to the working directory."},
    "line": {"type": "integer", "minimum": 1, "description": "1-based line."},
    "character": {"type": "integer", "minimum": 1, "description": "1-based column in UTF-16 code units (as editors count)."}
  }, "required": ["operation", "file_path", "line", "character"], "additionalProperties": false}"#;

pub fn tool(servers: &[ServerStatus]) -> ToolSpec {
    let served: Vec<String> = servers
        .iter()
        .map(|s| {
            let note = if s.unavailable.is_some() { ", unavailable" } else { "" };
            format!("{} ({}{note})", s.server.id, s.server.extensions.join(" "))
        })
        .collect();
    let served = if served.is_empty() {
        "No language server is configured.".to_owned()
    } else {
        format!("Servers: {}.", served.join(", "))
    };
    ToolSpec {
        name: "lsp".to_owned(),
        description: format!(
            "Ask the language server for the file's language about the symbol at a position: \
             go_to_definition, find_references, go_to_implementation (of a trait or interface), or \
             hover (type and documentation as markdown). Results are `path:line:character` ranges, \
             1-based, paths relative to the working directory; those in it come first, and at \
             most 100 are listed. The first query of a project may wait while the server \
             indexes. {served}"
        ),
        input_schema: SCHEMA.to_owned(),
    }
}
