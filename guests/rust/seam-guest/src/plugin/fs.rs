//! Files through the fs seam (needs `grants = ["fs"]`): paths resolve against the session's
//! working directory, and reads are recorded as the session's observations, as tool-fs does.

use super::bindings::seam::fs::fs;
use super::bindings::seam::fs::types::Target;
use super::{Context, ToolError};

impl Context {
    /// Resolve a path the model gave (absolute, or relative to the session's cwd).
    pub fn resolve(&self, path: &str) -> Result<Target, ToolError> {
        Ok(fs::resolve(path, &self.cwd)?)
    }

    /// A whole UTF-8 text file; larger than `max_bytes` fails FS_TOO_LARGE, binary FS_NOT_TEXT.
    pub fn read_text(&self, path: &str, max_bytes: Option<u64>) -> Result<String, ToolError> {
        let target = self.resolve(path)?;
        Ok(fs::read_text(&target, max_bytes, Some(&self.session_id))?.content)
    }
}
