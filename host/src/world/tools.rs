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

impl ToolSpec {
    pub(crate) fn from_wit(spec: wit::ToolSpec, component: &str) -> Self {
        Self {
            name: spec.name,
            description: spec.description,
            input_schema: serde_json::from_str(&spec.input_schema)
                .unwrap_or_else(|e| serde_json::json!({"type": "object", "x-invalid-schema": e.to_string()})),
            component: component.to_string(),
        }
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
