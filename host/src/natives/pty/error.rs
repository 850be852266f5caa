//! Errors of the PTY shim, each with a stable code that callers may match on.

use std::io;

#[derive(Debug, thiserror::Error)]
pub enum PtyError {
    #[error("invalid PTY spec: {0}")]
    InvalidSpec(String),
    #[error("working directory {path} is not usable: {reason}")]
    CwdInvalid { path: String, reason: String },
    #[error("failed to start {program} on a PTY: {source}")]
    SpawnFailed {
        program: String,
        #[source]
        source: io::Error,
    },
    #[error("no PTY session with id {0} in this host")]
    Unknown(u64),
    #[error("the PTY session was closed")]
    Closed,
    #[error("{context}: {source}")]
    Io {
        context: &'static str,
        #[source]
        source: io::Error,
    },
}

impl PtyError {
    /// A stable, machine-readable identifier of the error kind (the codes of seam:host/pty).
    pub fn code(&self) -> &'static str {
        match self {
            PtyError::InvalidSpec(_) => "PTY_INVALID_SPEC",
            PtyError::CwdInvalid { .. } => "PTY_CWD_INVALID",
            PtyError::SpawnFailed { .. } => "PTY_SPAWN_FAILED",
            PtyError::Unknown(_) => "PTY_UNKNOWN",
            PtyError::Closed => "PTY_CLOSED",
            PtyError::Io { .. } => "PTY_IO",
        }
    }

    pub(super) fn io(context: &'static str) -> impl FnOnce(io::Error) -> PtyError {
        move |source| PtyError::Io { context, source }
    }
}
