//! Plain kit values into the generated WIT types.

use super::bindings::seam::tool::types::{Content as WitContent, Image, ToolResult as WitToolResult, ToolSpec};
use crate::{Content, ToolResult};

pub fn wit_spec((name, description, input_schema): (String, String, String)) -> ToolSpec {
    ToolSpec {
        name,
        description,
        input_schema,
    }
}

impl From<ToolResult> for WitToolResult {
    fn from(result: ToolResult) -> Self {
        let content = result.content.into_iter().map(|content| match content {
            Content::Text(text) => WitContent::Text(text),
            Content::Image { data, mime_type } => WitContent::Image(Image { data, mime_type }),
        });
        Self {
            content: content.collect(),
            is_error: result.is_error,
            code: result.code,
        }
    }
}
