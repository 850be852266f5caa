//! What the caller asks for: the program, its environment and where its standard streams go.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::error::ProcessError;

/// Time between SIGTERM and SIGKILL used by [`SpawnSpec::new`].
pub const DEFAULT_GRACE: Duration = Duration::from_secs(5);

/// A fully explicit description of one program to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpawnSpec {
    /// `argv[0]` must be an absolute path; arguments never go through a shell.
    pub argv: Vec<String>,
    /// Must exist and be a directory.
    pub cwd: PathBuf,
    /// The complete environment of the program: nothing is inherited from the host.
    pub env: Vec<(String, String)>,
    pub stdin: StdinSpec,
    pub stdout: OutputSpec,
    /// [`OutputSpec::Merge`] is only valid here.
    pub stderr: OutputSpec,
    /// Time between SIGTERM and SIGKILL when the process tree is torn down.
    pub grace: Duration,
    /// Give the program its own TMPDIR, removed once its tree is gone.
    pub private_tmp: bool,
}

impl SpawnSpec {
    /// A spec with an empty environment, every stream on /dev/null and [`DEFAULT_GRACE`].
    pub fn new(argv: Vec<String>, cwd: PathBuf) -> Self {
        Self {
            argv,
            cwd,
            env: Vec::new(),
            stdin: StdinSpec::Null,
            stdout: OutputSpec::Null,
            stderr: OutputSpec::Null,
            grace: DEFAULT_GRACE,
            private_tmp: false,
        }
    }

    /// Rejects specs that cannot be spawned faithfully, before any resource is created.
    pub(super) fn validate(&self) -> Result<(), ProcessError> {
        let program = self.argv.first().ok_or_else(|| invalid("argv is empty".to_owned()))?;
        if !Path::new(program).is_absolute() {
            return Err(invalid(format!("argv[0] {program:?} is not an absolute path")));
        }
        if let Some(arg) = self.argv.iter().find(|arg| arg.contains('\0')) {
            return Err(invalid(format!("argument {arg:?} contains a NUL byte")));
        }
        for (key, value) in &self.env {
            if key.is_empty() || key.contains(['=', '\0']) {
                return Err(invalid(format!("environment name {key:?} is not valid")));
            }
            if value.contains('\0') {
                return Err(invalid(format!("environment value of {key} contains a NUL byte")));
            }
        }
        if self.stdout == OutputSpec::Merge {
            return Err(invalid("stdout cannot be merged into itself".to_owned()));
        }
        self.validate_cwd()
    }

    fn validate_cwd(&self) -> Result<(), ProcessError> {
        let cwd_invalid = |reason: String| ProcessError::CwdInvalid {
            path: self.cwd.clone(),
            reason,
        };
        match std::fs::metadata(&self.cwd) {
            Ok(meta) if meta.is_dir() => Ok(()),
            Ok(_) => Err(cwd_invalid("not a directory".to_owned())),
            Err(err) => Err(cwd_invalid(err.to_string())),
        }
    }
}

fn invalid(reason: String) -> ProcessError {
    ProcessError::InvalidSpec(reason)
}

/// Where the program's stdin comes from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum StdinSpec {
    /// `/dev/null`: programs that read stdin see end-of-file at once.
    #[default]
    Null,
    /// A pipe fed through [`Process::write_stdin`](super::Process::write_stdin).
    Pipe,
    /// These bytes, written by a background thread, then end-of-file.
    Bytes(Vec<u8>),
}

/// Where one output stream of the program goes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum OutputSpec {
    #[default]
    Null,
    /// The host's own stream of the same name.
    Inherit,
    /// A pipe read through [`Process::read_pipe`](super::Process::read_pipe).
    Pipe,
    /// Drained continuously into bounded memory (and optionally a spill file).
    Collect(CollectSpec),
    /// stderr only: the same destination as stdout, interleaved in write order.
    Merge,
}

/// Bounds for a collected stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CollectSpec {
    /// Size of the sliding window over the end of the stream.
    pub tail_bytes: usize,
    /// The first `head_bytes` of the stream are kept for good.
    pub head_bytes: usize,
    /// `Some(max)`: the first `max` bytes of the stream are also written to a spill file.
    pub spill: Option<u64>,
}

/// One of the program's output streams.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stream {
    Stdout,
    Stderr,
}

impl Stream {
    pub fn name(self) -> &'static str {
        match self {
            Stream::Stdout => "stdout",
            Stream::Stderr => "stderr",
        }
    }
}

impl fmt::Display for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
