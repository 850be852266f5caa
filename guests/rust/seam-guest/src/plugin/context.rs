//! What a tool's `run` knows about its call, and the host's call context (progress,
//! cancellation, the tool's settings from the world file).

use serde::de::DeserializeOwned;

use super::ToolError;
use super::bindings::seam::tool::context;
use super::bindings::seam::tool::types::Call;

/// The code of a plugin whose `[config.<name>]` table does not decode.
pub const CONFIG_INVALID: &str = "CONFIG_INVALID";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context {
    /// The session the call belongs to.
    pub session_id: String,
    /// The session's working directory: relative paths are resolved against it.
    pub cwd: String,
    /// The agent making the call.
    pub agent: String,
    pub call_id: String,
}

impl Context {
    pub fn from_call(call: &Call) -> Self {
        Self {
            session_id: call.session.id.clone(),
            cwd: call.session.cwd.clone(),
            agent: call.session.agent.clone(),
            call_id: call.call_id.clone(),
        }
    }

    /// Report progress of a long call (an MCP client sees it as a progress notification).
    pub fn progress(&self, done: f64, total: Option<f64>, message: Option<&str>) {
        context::progress(done, total, message);
    }

    /// True once the caller cancelled this call: stop early.
    pub fn cancelled(&self) -> bool {
        context::cancelled()
    }

    /// This plugin's `[config.<name>]` table from the world file (blank when there is none).
    pub fn config<T: DeserializeOwned>(&self) -> Result<T, ToolError> {
        crate::json::from_object(&context::config())
            .map_err(|message| ToolError::new(CONFIG_INVALID, format!("plugin settings: {message}")))
    }
}
