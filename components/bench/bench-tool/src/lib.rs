//! `bench-tool`: the `bench_cross` tool calls `seam-bench:noop` `n` times, so the time of one
//! tool call divided by `n` is the cost of one consumer-to-provider crossing.

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:bench-tool;

            world bench-tool {
                import seam-bench:noop/noop@0.1.0;
                export seam:tool/tool@0.1.0;
            }
        "#,
        path: ["../wit", "../../../wit/tool"],
        generate_all,
    });
}

use serde::Deserialize;

use bindings::exports::seam::tool::tool::{Call, Guest, ToolResult, ToolSpec};
use bindings::seam::tool::types::Content;
use bindings::seam_bench::noop::noop;

const NAME: &str = "bench_cross";

#[derive(Deserialize)]
struct Args {
    n: u64,
}

struct BenchTool;

impl Guest for BenchTool {
    fn describe() -> Vec<ToolSpec> {
        vec![ToolSpec {
            name: NAME.to_string(),
            description: "Calls the noop provider n times and returns the final value.".to_string(),
            input_schema: r#"{"type":"object","properties":{"n":{"type":"integer","minimum":0}},"required":["n"]}"#
                .to_string(),
        }]
    }

    fn invoke(call: Call) -> ToolResult {
        if call.name != NAME {
            return error("UNKNOWN_TOOL", format!("bench-tool has no tool named {:?}", call.name));
        }
        match serde_json::from_str::<Args>(&call.arguments) {
            Ok(args) => {
                // Each result feeds the next call, so no call can be skipped or reordered.
                let last = (0..args.n).fold(0, |x, _| noop::noop(x));
                ToolResult {
                    content: vec![Content::Text(last.to_string())],
                    is_error: false,
                    code: None,
                }
            }
            Err(err) => error("INVALID_ARGUMENTS", format!("invalid arguments: {err}")),
        }
    }
}

fn error(code: &str, message: String) -> ToolResult {
    ToolResult {
        content: vec![Content::Text(message)],
        is_error: true,
        code: Some(code.to_string()),
    }
}

bindings::export!(BenchTool with_types_in bindings);
