//! seam's tool descriptions and results in MCP's shapes.

use crate::{Content, ToolResult, ToolSpec};
use rmcp::model::{CallToolResult, ContentBlock, MetaObject, Tool};
use serde_json::{Map, Value};
use std::sync::Arc;

/// The `_meta` key of a result that carries its stable code (every error; a success with a fact
/// worth branching on, such as SANDBOX_DENIED). `_meta` rather than
/// `structuredContent`: structured content is a tool's typed output (checked against an
/// `outputSchema` by clients), and some clients show it to the model in place of the text.
pub const ERROR_CODE_META: &str = "seam/code";

pub(super) fn tool(spec: &ToolSpec) -> Tool {
    let schema = match &spec.input_schema {
        Value::Object(schema) => schema.clone(),
        other => {
            // MCP requires an object schema; a tool that declares anything else takes any object.
            tracing::warn!(tool = %spec.name, "input schema is not a JSON object: {other}");
            Map::from_iter([("type".to_string(), Value::from("object"))])
        }
    };
    Tool::new(spec.name.clone(), spec.description.clone(), Arc::new(schema))
}

/// Errors keep their text and gain the code twice: as a last `[error: CODE]` line, which every
/// client shows the model, and under `_meta` for clients that branch on it. A success's code
/// (its text already says what happened) is under `_meta` only.
pub(super) fn result(result: ToolResult) -> CallToolResult {
    let mut content: Vec<ContentBlock> = result.content.into_iter().map(block).collect();
    let Some(code) = result.code else {
        return if result.is_error {
            CallToolResult::error(content)
        } else {
            CallToolResult::success(content)
        };
    };
    let meta = MetaObject(Map::from_iter([(
        ERROR_CODE_META.to_string(),
        Value::from(code.clone()),
    )]));
    if !result.is_error {
        return CallToolResult::success(content).with_meta(Some(meta));
    }
    let line = format!("[error: {code}]");
    match content.last_mut() {
        Some(ContentBlock::Text(last)) => {
            last.text.push('\n');
            last.text.push_str(&line);
        }
        _ => content.push(ContentBlock::text(line)),
    }
    CallToolResult::error(content).with_meta(Some(meta))
}

fn block(content: Content) -> ContentBlock {
    match content {
        Content::Text { text } => ContentBlock::text(text),
        Content::Image { data, mime_type } => ContentBlock::image(data, mime_type),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(block: &ContentBlock) -> &str {
        match block {
            ContentBlock::Text(t) => &t.text,
            other => panic!("not text: {other:?}"),
        }
    }

    #[test]
    fn an_error_carries_its_code_as_a_last_line_and_in_meta() {
        let mapped = result(ToolResult::error("SHELL_CWD_INVALID", "no such directory"));
        assert_eq!(mapped.is_error, Some(true));
        assert_eq!(mapped.content.len(), 1);
        assert_eq!(
            text(&mapped.content[0]),
            "no such directory\n[error: SHELL_CWD_INVALID]"
        );
        let meta = mapped.meta.expect("meta");
        assert_eq!(meta.0[ERROR_CODE_META], "SHELL_CWD_INVALID");
    }

    #[test]
    fn an_error_ending_in_an_image_gets_its_code_line_as_a_block_of_its_own() {
        let mapped = result(ToolResult {
            content: vec![Content::Image {
                data: "aGk=".into(),
                mime_type: "image/png".into(),
            }],
            is_error: true,
            code: Some("RENDER_FAILED".into()),
        });
        assert!(matches!(&mapped.content[0], ContentBlock::Image(i) if i.mime_type == "image/png" && i.data == "aGk="));
        assert_eq!(text(&mapped.content[1]), "[error: RENDER_FAILED]");
    }

    #[test]
    fn a_success_is_left_as_it_is() {
        let mapped = result(ToolResult {
            content: vec![Content::Text { text: "hi".into() }],
            is_error: false,
            code: None,
        });
        assert_eq!(mapped.is_error, Some(false));
        assert_eq!(text(&mapped.content[0]), "hi");
        assert!(mapped.meta.is_none());
    }

    #[test]
    fn a_successes_code_is_in_meta_only() {
        let mapped = result(ToolResult {
            content: vec![Content::Text {
                text: "cannot touch\n[sandbox: file access denied under read-only mode]".into(),
            }],
            is_error: false,
            code: Some("SANDBOX_DENIED".into()),
        });
        assert_eq!(mapped.is_error, Some(false));
        assert!(text(&mapped.content[0]).ends_with("mode]"));
        assert_eq!(mapped.meta.expect("meta").0[ERROR_CODE_META], "SANDBOX_DENIED");
    }

    #[test]
    fn a_schema_that_is_not_an_object_becomes_any_object() {
        let spec = ToolSpec {
            name: "odd".into(),
            description: "d".into(),
            input_schema: Value::Bool(true),
            component: "c".into(),
        };
        assert_eq!(
            Value::Object((*tool(&spec).input_schema).clone()),
            serde_json::json!({"type": "object"})
        );
    }
}
