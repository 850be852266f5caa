//! The tool plugin kit: a third-party tool is a [`Tool`] impl (typed arguments through serde,
//! a JSON schema, a `run`) plus one `export_tools!` line. The kit answers `describe`, decodes
//! arguments (refusing bad ones with `INVALID_ARGUMENTS` before `run` sees them), routes
//! `invoke` by tool name and turns errors into results carrying their stable code.
//!
//! ```ignore
//! struct Hello;
//!
//! impl Tool for Hello {
//!     const NAME: &'static str = "hello";
//!     const DESCRIPTION: &'static str = "Greet someone.";
//!     type Args = HelloArgs; // #[derive(Deserialize)] struct HelloArgs { name: String }
//!
//!     fn schema() -> serde_json::Value {
//!         serde_json::json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]})
//!     }
//!
//!     fn run(args: HelloArgs, _ctx: &Context) -> Result<ToolResult, ToolError> {
//!         Ok(ToolResult::text(format!("hello {}", args.name)))
//!     }
//! }
//!
//! seam_guest::export_tools!(Hello);
//! ```

pub mod bindings;
mod context;
mod convert;
mod error;
mod fs;

pub use context::Context;
pub use error::ToolError;
pub use wit_bindgen;

use serde::de::DeserializeOwned;

use crate::ToolResult;

/// The code of a call naming a tool this plugin does not have.
pub const UNKNOWN_TOOL: &str = "UNKNOWN_TOOL";

/// One tool of a plugin: what the model sees of it, and what a call does.
pub trait Tool {
    /// The name the model calls it by; unique in the world.
    const NAME: &'static str;
    /// How and when to use it, written for the model.
    const DESCRIPTION: &'static str;
    /// The call's arguments. Add `#[serde(deny_unknown_fields)]` so a misspelt argument is
    /// refused rather than ignored.
    type Args: DeserializeOwned;

    /// JSON Schema of the arguments object (what `Args` accepts).
    fn schema() -> serde_json::Value;

    /// Serve one call. An `Err` becomes an error result with the error's code.
    fn run(args: Self::Args, ctx: &Context) -> Result<ToolResult, ToolError>;
}

/// A tool's spec as plain values: (name, description, input schema as JSON text).
pub fn spec_of<T: Tool>() -> (String, String, String) {
    (T::NAME.into(), T::DESCRIPTION.into(), T::schema().to_string())
}

/// Decode the arguments and run `T`; every failure becomes an error result.
pub fn invoke<T: Tool>(arguments: &str, ctx: &Context) -> ToolResult {
    let args = match crate::args::parse::<T::Args>(arguments) {
        Ok(args) => args,
        Err(error) => return error.into(),
    };
    T::run(args, ctx).unwrap_or_else(ToolResult::from)
}

/// The result of a call naming none of `known`.
pub fn unknown_tool(name: &str, known: &[&str]) -> ToolResult {
    ToolResult::error(
        UNKNOWN_TOOL,
        format!("this plugin has no tool named {name:?} (tools: {})", known.join(", ")),
    )
}

/// Export the listed [`Tool`] types as this component's `seam:tool/tool`. Use once per plugin.
#[macro_export]
macro_rules! export_tools {
    ($($tool:ty),+ $(,)?) => {
        struct SeamGuestPlugin;

        impl $crate::plugin::bindings::exports::seam::tool::tool::Guest for SeamGuestPlugin {
            fn describe() -> ::std::vec::Vec<$crate::plugin::bindings::seam::tool::types::ToolSpec> {
                ::std::vec![$($crate::plugin::wit_spec($crate::plugin::spec_of::<$tool>())),+]
            }

            fn invoke(
                call: $crate::plugin::bindings::seam::tool::types::Call,
            ) -> $crate::plugin::bindings::seam::tool::types::ToolResult {
                let ctx = $crate::plugin::Context::from_call(&call);
                let result = match call.name.as_str() {
                    $(name if name == <$tool as $crate::plugin::Tool>::NAME => {
                        $crate::plugin::invoke::<$tool>(&call.arguments, &ctx)
                    })+
                    other => $crate::plugin::unknown_tool(
                        other,
                        &[$(<$tool as $crate::plugin::Tool>::NAME),+],
                    ),
                };
                result.into()
            }
        }

        $crate::plugin::bindings::export_plugin_world!(SeamGuestPlugin with_types_in $crate::plugin::bindings);
    };
}

#[doc(hidden)]
pub use convert::wit_spec;

#[cfg(test)]
mod tests;
