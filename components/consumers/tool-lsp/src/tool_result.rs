//! Plain tool results from seam-guest into the generated WIT types.

use seam_guest::Content;

use crate::bindings::seam::tool::types::{Content as WitContent, Image, ToolResult};

impl From<seam_guest::ToolResult> for ToolResult {
    fn from(result: seam_guest::ToolResult) -> Self {
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
