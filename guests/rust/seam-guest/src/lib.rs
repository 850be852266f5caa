//! Pure helpers shared by seam guest components.
//!
//! Nothing here depends on generated bindings: components convert these plain values into
//! the types `wit-bindgen` generates for their own world.

pub mod args;
pub mod base64;
pub mod exit_marker;
pub mod json;
pub mod output;
pub mod tool_result;

pub use args::ArgsError;
pub use tool_result::{Content, ToolResult};
