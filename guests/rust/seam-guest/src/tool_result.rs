//! Tool results as plain values, mirroring `seam:tool/types.tool-result`.

use crate::args::ArgsError;

/// One piece of a tool result's content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    Text(String),
    /// Base64 image bytes with their MIME type.
    Image {
        data: String,
        mime_type: String,
    },
}

/// What a tool call returns. `code` is set on every error: a stable string that retry,
/// permission and UI layers branch on, never the message text. A result that is not an error
/// carries one only for a fact worth branching on (SANDBOX_DENIED).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolResult {
    pub content: Vec<Content>,
    pub is_error: bool,
    pub code: Option<String>,
}

impl ToolResult {
    /// A successful result with one text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            content: vec![Content::Text(text.into())],
            is_error: false,
            code: None,
        }
    }

    /// The same result, tagged with a fact a client may branch on.
    pub fn with_code(mut self, code: impl Into<String>) -> Self {
        self.code = Some(code.into());
        self
    }

    /// A failed result: the message as text, tagged with its stable code.
    pub fn error(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            content: vec![Content::Text(message.into())],
            is_error: true,
            code: Some(code.into()),
        }
    }
}

/// Converts [`ToolResult`] into the `tool-result` that `wit-bindgen` generated for a
/// component's own world: each component has its own copy of the WIT types, so the `From`
/// impl is written once here and instantiated per component, e.g.
/// `seam_guest::wit_tool_result!(crate::bindings::seam::tool::types);`.
#[macro_export]
macro_rules! wit_tool_result {
    ($($types:ident)::+) => {
        impl From<$crate::ToolResult> for $($types)::+::ToolResult {
            fn from(result: $crate::ToolResult) -> Self {
                use $($types)::+::{Content, Image};
                let content = result.content.into_iter().map(|content| match content {
                    $crate::Content::Text(text) => Content::Text(text),
                    $crate::Content::Image { data, mime_type } => Content::Image(Image { data, mime_type }),
                });
                Self {
                    content: content.collect(),
                    is_error: result.is_error,
                    code: result.code,
                }
            }
        }
    };
}

impl From<ArgsError> for ToolResult {
    fn from(error: ArgsError) -> Self {
        Self::error(error.code(), error.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_not_an_error() {
        let result = ToolResult::text("hi");
        assert_eq!(result.content, [Content::Text("hi".into())]);
        assert!(!result.is_error);
        assert_eq!(result.code, None);
    }

    #[test]
    fn error_carries_its_code() {
        let result = ToolResult::error("SHELL_SPAWN_FAILED", "bash not found");
        assert_eq!(result.content, [Content::Text("bash not found".into())]);
        assert!(result.is_error);
        assert_eq!(result.code.as_deref(), Some("SHELL_SPAWN_FAILED"));
    }

    #[test]
    fn argument_errors_become_invalid_arguments() {
        let result = crate::args::parse::<serde_json::Value>("[]").map_err(ToolResult::from);
        let code = result.err().and_then(|result| result.code);
        assert_eq!(code.as_deref(), Some("INVALID_ARGUMENTS"));
    }
}
