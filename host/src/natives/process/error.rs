//! Errors of the process shim, each with a stable code that callers may match on.

use std::io;
use std::path::PathBuf;

use super::spec::Stream;

#[derive(Debug, thiserror::Error)]
pub enum ProcessError {
    #[error("invalid spawn spec: {0}")]
    InvalidSpec(String),
    #[error("working directory {} is not usable: {reason}", path.display())]
    CwdInvalid { path: PathBuf, reason: String },
    #[error("failed to spawn {program}: {source}")]
    SpawnFailed {
        program: String,
        #[source]
        source: io::Error,
    },
    #[error("{0} is not a collected stream")]
    StreamNotCollected(Stream),
    #[error("{0} is not a piped stream")]
    StreamNotPiped(Stream),
    #[error("stdin is not open for writing")]
    StdinClosed,
    #[error("{context}: {source}")]
    Io {
        context: &'static str,
        #[source]
        source: io::Error,
    },
}

impl ProcessError {
    /// A stable, machine-readable identifier of the error kind.
    pub fn code(&self) -> &'static str {
        match self {
            ProcessError::InvalidSpec(_) => "PROCESS_INVALID_SPEC",
            ProcessError::CwdInvalid { .. } => "PROCESS_CWD_INVALID",
            ProcessError::SpawnFailed { .. } => "PROCESS_SPAWN_FAILED",
            ProcessError::StreamNotCollected(_) => "PROCESS_STREAM_NOT_COLLECTED",
            ProcessError::StreamNotPiped(_) => "PROCESS_STREAM_NOT_PIPED",
            ProcessError::StdinClosed => "PROCESS_STDIN_CLOSED",
            ProcessError::Io { .. } => "PROCESS_IO",
        }
    }

    pub(super) fn io(context: &'static str) -> impl FnOnce(io::Error) -> ProcessError {
        move |source| ProcessError::Io { context, source }
    }
}
