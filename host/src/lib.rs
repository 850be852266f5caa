//! seam host: links WebAssembly components into an execution world and runs each tool call in
//! a lane of its own.

pub mod approval;
pub mod bench;
pub mod cancel;
pub mod fault;
pub mod lane;
pub mod link;
pub mod live;
pub mod mcp;
pub mod natives;
mod off_path;
mod stored_file;
pub mod world;

pub use approval::{ApprovalOutcome, ApprovalRequest, Asker};
pub use cancel::CancelToken;
pub use lane::{CallContext, Progress, Session};
pub use world::file::WorldFile;
pub use world::{Content, Runtime, RuntimeOptions, ToolResult, ToolSpec, World, WorldError};
