//! `tool-lsp`: the `lsp` tool a model calls, over whichever lsp provider the world links.
//! Positions are 1-based with UTF-16 columns; the session's working directory is the
//! workspace the server is pooled on. A file that is not there is told with the names near it,
//! found through the world's fs seam, as the file tools tell it.

mod args;
mod describe;
#[path = "../../tool-fs/src/nearby.rs"]
mod nearby;
mod render;

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:tool-lsp;

            world tool-lsp {
                import seam:lsp/lsp@0.1.0;
                import seam:fs/fs@0.1.0;
                import seam:tool/context@0.1.0;
                export seam:tool/tool@0.1.0;
            }
        "#,
        // Dependencies first: fs uses seam:sandbox.
        path: ["../../../wit/sandbox", "../../../wit/fs", "../../../wit/lsp", "../../../wit/tool"],
        generate_all,
    });
}

seam_guest::wit_tool_result!(bindings::seam::tool::types);

use bindings::exports::seam::tool::tool::{Call, Guest, ToolResult, ToolSpec};
use bindings::seam::fs::fs;
use bindings::seam::lsp::lsp::{self, Error, Operation, QueryRequest};
use bindings::seam::tool::context;

use crate::args::Args;

struct ToolLsp;

impl Guest for ToolLsp {
    fn describe() -> Vec<ToolSpec> {
        // Asking for the table at load checks the configured servers then: a world whose
        // server table is refused fails to load instead of failing its first query.
        match lsp::servers() {
            Ok(servers) => vec![describe::tool(&servers)],
            Err(e) => panic!("[{}] {}", e.code, e.message),
        }
    }

    fn invoke(call: Call) -> ToolResult {
        if call.name != "lsp" {
            let message = format!("tool-lsp has no tool named {:?}", call.name);
            return seam_guest::ToolResult::error("UNKNOWN_TOOL", message).into();
        }
        let args: Args = match seam_guest::args::parse(&call.arguments) {
            Ok(args) => args,
            Err(bad) => return seam_guest::ToolResult::from(bad).into(),
        };
        let request = QueryRequest {
            operation: match args.operation {
                args::Operation::GoToDefinition => Operation::GoToDefinition,
                args::Operation::FindReferences => Operation::FindReferences,
                args::Operation::GoToImplementation => Operation::GoToImplementation,
                args::Operation::Hover => Operation::Hover,
            },
            path: seam_guest::paths::in_session(Some(&args.file_path), &call.session.cwd, context::home),
            workspace: call.session.cwd.clone(),
            line: args.line,
            character: args.character,
        };
        let at = format!("{}:{}:{}", args.file_path, args.line, args.character);
        match lsp::query(&request) {
            Ok(result) => seam_guest::ToolResult::text(render::result(args.operation, &at, &result)),
            Err(e) => {
                let e = missing(e, &request.path);
                seam_guest::ToolResult::error(e.code, e.message)
            }
        }
        .into()
    }
}

/// A document that is not there, told with what is near it (see `nearby`).
fn missing(mut error: Error, path: &str) -> Error {
    if error.code == "LSP_NOT_FOUND"
        && let Ok(target) = fs::resolve(path, "/")
        && let Some(hint) = nearby::hint(&target)
    {
        error.message = format!("{}\n{hint}", error.message);
    }
    error
}

bindings::export!(ToolLsp with_types_in bindings);
