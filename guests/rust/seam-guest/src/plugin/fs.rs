//! Files through the fs seam (needs `grants = ["fs"]`): paths resolve in the session (against
//! its working directory, `~` in the home directory), and reads are recorded as the session's
//! observations, as tool-fs does.

use super::bindings::seam::fs::fs;
use super::bindings::seam::fs::types::Target;
use super::bindings::seam::tool::context;
use super::{Context, ToolError};

impl Context {
    /// Resolve a path the model gave (absolute, `~/…` in the home directory, or relative to
    /// the session's cwd).
    pub fn resolve(&self, path: &str) -> Result<Target, ToolError> {
        let path = crate::paths::in_session(Some(path), &self.cwd, context::home);
        Ok(fs::resolve(&path, &self.cwd)?)
    }

    /// A whole text file (UTF-8, or UTF-16 with its byte order mark); larger than `max_bytes`
    /// fails FS_TOO_LARGE, binary FS_NOT_TEXT.
    pub fn read_text(&self, path: &str, max_bytes: Option<u64>) -> Result<String, ToolError> {
        let target = self.resolve(path)?;
        Ok(fs::read_text(&target, max_bytes, Some(&self.session_id))?.content)
    }
}
