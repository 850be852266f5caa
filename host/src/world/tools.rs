//! Tool descriptions and results as the host's callers (CLI, MCP, embedders) see them.

use crate::natives::bindings::tool::seam::tool::types as wit;
use serde::Serialize;
use serde_json::Value;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub input_schema: Value,
    /// The component that serves it.
    pub component: String,
}

/// The longest tool name MCP clients accept.
const MAX_NAME: usize = 128;

impl ToolSpec {
    /// A component's description of a tool, refused when a client could not use it: a name
    /// outside MCP's `[A-Za-z0-9_.-]{1,128}`, or arguments that are not a JSON object.
    pub(crate) fn from_wit(spec: wit::ToolSpec, component: &str) -> Result<Self, String> {
        let name_ok = (1..=MAX_NAME).contains(&spec.name.len())
            && spec
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
        if !name_ok {
            return Err(format!(
                "a name is 1 to {MAX_NAME} characters of letters, digits, '_', '.' and '-'"
            ));
        }
        let input_schema: Value =
            serde_json::from_str(&spec.input_schema).map_err(|e| format!("its input schema is not JSON: {e}"))?;
        if input_schema.get("type") != Some(&Value::from("object")) {
            return Err(format!(
                "its input schema must describe an object (\"type\": \"object\"), not {input_schema}"
            ));
        }
        Ok(Self {
            name: spec.name,
            description: spec.description,
            input_schema,
            component: component.to_string(),
        })
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Content {
    Text { text: String },
    Image { data: String, mime_type: String },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolResult {
    pub content: Vec<Content>,
    pub is_error: bool,
    pub code: Option<String>,
}

impl ToolResult {
    pub fn error(code: &str, message: impl Into<String>) -> Self {
        Self {
            content: vec![Content::Text { text: message.into() }],
            is_error: true,
            code: Some(code.to_string()),
        }
    }

    /// The text parts joined by newlines.
    pub fn text(&self) -> String {
        self.content
            .iter()
            .filter_map(|c| match c {
                Content::Text { text } => Some(text.as_str()),
                Content::Image { .. } => None,
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    pub(crate) fn from_wit(result: wit::ToolResult) -> Self {
        Self {
            content: result
                .content
                .into_iter()
                .map(|c| match c {
                    wit::Content::Text(text) => Content::Text { text },
                    wit::Content::Image(i) => Content::Image {
                        data: i.data,
                        mime_type: i.mime_type,
                    },
                })
                .collect(),
            is_error: result.is_error,
            code: result.code,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str, input_schema: &str) -> Result<ToolSpec, String> {
        let spec = wit::ToolSpec {
            name: name.into(),
            description: "d".into(),
            input_schema: input_schema.into(),
        };
        ToolSpec::from_wit(spec, "plugin")
    }

    #[test]
    fn a_tool_clients_cannot_call_is_refused() {
        let object = r#"{"type": "object"}"#;
        assert!(spec("read_file.v2-x", object).is_ok());
        for name in ["", "has space", "dé", &"n".repeat(129)] {
            assert!(spec(name, object).is_err_and(|e| e.contains("a name is")), "{name:?}");
        }
        for schema in [r#"{"type": "string"}"#, "true", "{}", "not json"] {
            assert!(
                spec("tool", schema).is_err_and(|e| e.contains("input schema")),
                "{schema}"
            );
        }
    }
}
