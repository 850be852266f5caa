//! seam host: links WebAssembly components into an execution world and runs each tool call in
//! a lane of its own.

pub mod approval;
pub mod bench;
pub mod fault;
pub mod lane;
pub mod link;
pub mod natives;
pub mod world;

pub use approval::{ApprovalOutcome, ApprovalRequest, Asker};
pub use lane::{CallContext, Progress, Session};
pub use world::file::WorldFile;
pub use world::{Content, Runtime, ToolResult, ToolSpec, World, WorldError};
