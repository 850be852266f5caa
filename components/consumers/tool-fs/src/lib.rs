//! `tool-fs`: the file tools a model calls — `read`, `write`, `edit`, `read_image` — over
//! whichever fs provider stack the world links (local, sandboxed, observed, remote). Writes carry
//! the session's sandbox policy; the providers enforce it (or not): this component renders.

mod args;
mod config;
mod describe;
mod errors;
mod image;
mod line_ends;
mod near_match;
mod nearby;
mod render;
mod tools;

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:tool-fs;

            world tool-fs {
                import seam:fs/fs@0.1.0;
                import seam:sandbox/policy@0.1.0;
                import seam:tool/context@0.1.0;
                export seam:tool/tool@0.1.0;
                export seam:host/config-check@0.1.0;
            }
        "#,
        // Dependencies first: fs uses seam:sandbox.
        path: ["../../../wit/sandbox", "../../../wit/host", "../../../wit/fs", "../../../wit/tool"],
        generate_all,
    });
}

seam_guest::wit_tool_result!(bindings::seam::tool::types);

use bindings::exports::seam::tool::tool::{Call, Guest, ToolResult, ToolSpec};
use bindings::seam::tool::context;

use crate::config::Config;

struct ToolFs;

impl Guest for ToolFs {
    fn describe() -> Vec<ToolSpec> {
        describe::all()
    }

    fn invoke(call: Call) -> ToolResult {
        let result = match dispatch(&call) {
            Ok(result) | Err(result) => result,
        };
        result.into()
    }
}

fn dispatch(call: &Call) -> Result<seam_guest::ToolResult, seam_guest::ToolResult> {
    // Read on every call: lanes are per call, and the world file may change between them.
    let config = Config::parse(&context::config())
        .map_err(|message| seam_guest::ToolResult::error(errors::CONFIG_INVALID, message))?;
    let args = &call.arguments;
    let session = &call.session;
    match call.name.as_str() {
        describe::READ => tools::read(seam_guest::args::parse(args)?, session, &config),
        describe::WRITE => tools::write(args::WriteArgs::parse(args)?, session),
        describe::EDIT => tools::edit(seam_guest::args::parse(args)?, session, &config),
        describe::READ_IMAGE => tools::read_image(seam_guest::args::parse(args)?, session, &config),
        other => Err(seam_guest::ToolResult::error(
            "UNKNOWN_TOOL",
            format!("tool-fs has no tool named {other:?}"),
        )),
    }
}

/// Asked when a world that configures this component loads.
impl bindings::exports::seam::host::config_check::Guest for ToolFs {
    fn check() -> Result<(), String> {
        Config::parse(&context::config()).map(drop)
    }
}

bindings::export!(ToolFs with_types_in bindings);
