//! What seam guest components share.
//!
//! The pure helpers depend on no generated bindings: components convert these plain values
//! into the types `wit-bindgen` generates for their own world. The `plugin` feature adds the
//! tool plugin kit ([`plugin`]), with bindings for the plugin world.

// The plugin bindings name their runtime by crate path, which must resolve here too.
#[cfg(feature = "plugin")]
extern crate self as seam_guest;

pub mod args;
pub mod base64;
pub mod exit_marker;
pub mod json;
pub mod json_scan;
pub mod line_drawing;
pub mod paths;
pub mod plain;
#[cfg(feature = "plugin")]
pub mod plugin;
pub mod text;
pub mod tool_result;

pub use args::ArgsError;
pub use tool_result::{Content, ToolResult};
