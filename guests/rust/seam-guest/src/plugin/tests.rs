use serde::Deserialize;
use serde_json::json;

use super::*;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EchoArgs {
    text: String,
    fail: Option<bool>,
}

struct Echo;

impl Tool for Echo {
    const NAME: &'static str = "echo";
    const DESCRIPTION: &'static str = "Answer with the text.";
    type Args = EchoArgs;

    fn schema() -> serde_json::Value {
        json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})
    }

    fn run(args: EchoArgs, ctx: &Context) -> Result<ToolResult, ToolError> {
        if args.fail == Some(true) {
            return Err(ToolError::new("ECHO_REFUSED", format!("{} refused", ctx.session_id)));
        }
        Ok(ToolResult::text(args.text))
    }
}

fn ctx() -> Context {
    Context {
        session_id: "s1".into(),
        cwd: "/w".into(),
        agent: "a".into(),
        call_id: "c1".into(),
    }
}

#[test]
fn runs_with_typed_arguments() {
    assert_eq!(invoke::<Echo>(r#"{"text": "hi"}"#, &ctx()), ToolResult::text("hi"));
}

#[test]
fn bad_arguments_never_reach_run() {
    let result = invoke::<Echo>(r#"{"txt": "hi"}"#, &ctx());
    assert_eq!(result.code.as_deref(), Some("INVALID_ARGUMENTS"));
    assert!(result.is_error);
}

#[test]
fn errors_keep_their_code() {
    let result = invoke::<Echo>(r#"{"text": "hi", "fail": true}"#, &ctx());
    assert_eq!(result, ToolResult::error("ECHO_REFUSED", "s1 refused"));
}

#[test]
fn specs_carry_the_schema_as_json_text() {
    let (name, description, schema) = spec_of::<Echo>();
    assert_eq!((name.as_str(), description.as_str()), ("echo", "Answer with the text."));
    let schema: serde_json::Value = serde_json::from_str(&schema).unwrap();
    assert_eq!(schema["required"], json!(["text"]));
}

#[test]
fn unknown_tools_name_the_known_ones() {
    let result = unknown_tool("ech", &["echo", "wc"]);
    assert_eq!(result.code.as_deref(), Some(UNKNOWN_TOOL));
    assert!(matches!(&result.content[0], crate::Content::Text(t) if t.contains("\"ech\"") && t.contains("echo, wc")));
}
