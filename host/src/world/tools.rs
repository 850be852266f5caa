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

/// Text a result carries at most, over all its items: the built-in tools bound their own
/// output far below this; a plugin that does not would otherwise hand a model (and an MCP
/// client's buffers) whatever fits in its memory.
pub const MAX_RESULT_TEXT_BYTES: usize = 4 << 20;

impl ToolSpec {
    /// A component's description of a tool, refused when a client could not use it: a name
    /// outside MCP's `[A-Za-z0-9_.-]{1,128}`, arguments that are not a JSON object, or a schema
    /// of the wrong shape (see `tool_schema`).
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
        super::tool_schema::check(&input_schema)
            .map_err(|problem| format!("its input schema is not usable: {problem}"))?;
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

    /// A component's result, its text cut at [`MAX_RESULT_TEXT_BYTES`] with a notice.
    pub(crate) fn from_wit(result: wit::ToolResult) -> Self {
        let mut room = MAX_RESULT_TEXT_BYTES;
        let mut dropped = 0;
        let mut content: Vec<Content> = result
            .content
            .into_iter()
            .filter_map(|c| match c {
                wit::Content::Text(mut text) => {
                    if text.len() > room {
                        let mut cut = room;
                        while !text.is_char_boundary(cut) {
                            cut -= 1;
                        }
                        dropped += text.len() - cut;
                        text.truncate(cut);
                    }
                    room -= text.len();
                    (!text.is_empty() || dropped == 0).then_some(Content::Text { text })
                }
                wit::Content::Image(i) => Some(Content::Image {
                    data: i.data,
                    mime_type: i.mime_type,
                }),
            })
            .collect();
        if dropped > 0 {
            content.push(Content::Text {
                text: format!(
                    "\n... [{dropped} bytes of this result dropped: a result carries at most {} MiB of text]",
                    MAX_RESULT_TEXT_BYTES >> 20
                ),
            });
        }
        Self {
            content,
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
    fn a_result_carries_a_bounded_amount_of_text() {
        let text = |t: String| wit::Content::Text(t);
        let huge = ToolResult::from_wit(wit::ToolResult {
            content: vec![
                text("é".repeat(MAX_RESULT_TEXT_BYTES / 4)),
                text("é".repeat(MAX_RESULT_TEXT_BYTES / 2)),
                text("gone".into()),
            ],
            is_error: false,
            code: None,
        });
        let texts: Vec<&str> = huge
            .content
            .iter()
            .map(|c| match c {
                Content::Text { text } => text.as_str(),
                Content::Image { .. } => panic!("no image"),
            })
            .collect();
        assert_eq!(texts.len(), 3, "the last item is dropped whole, the notice added");
        assert_eq!(texts[0].len() + texts[1].len(), MAX_RESULT_TEXT_BYTES);
        assert_eq!(
            texts[2],
            format!(
                "\n... [{} bytes of this result dropped: a result carries at most 4 MiB of text]",
                MAX_RESULT_TEXT_BYTES / 2 + 4
            )
        );
        let small = ToolResult::from_wit(wit::ToolResult {
            content: vec![text(String::new()), text("ok".into())],
            is_error: false,
            code: None,
        });
        assert_eq!(small.content.len(), 2, "an empty item is kept when nothing was dropped");
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
