//! Turns the stream specs into pipes: one end for the program, the other kept by the host.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};

use nix::fcntl::OFlag;

use super::error::ProcessError;
use super::spec::{OutputSpec, SpawnSpec, StdinSpec};

/// The program's side of its three standard streams; `None` is `/dev/null`.
pub(super) struct ChildStdio {
    pub(super) stdin: Option<OwnedFd>,
    pub(super) stdout: Option<OwnedFd>,
    pub(super) stderr: Option<OwnedFd>,
}

/// The host's side: write end of stdin, read ends of piped or collected outputs.
pub(super) struct HostEnds {
    pub(super) stdin: Option<File>,
    pub(super) stdout: Option<File>,
    pub(super) stderr: Option<File>,
}

pub(super) fn wire(spec: &SpawnSpec) -> Result<(ChildStdio, HostEnds), ProcessError> {
    let (child_stdin, host_stdin) = match spec.stdin {
        StdinSpec::Null => (None, None),
        StdinSpec::Pipe | StdinSpec::Bytes(_) => {
            let (read, write) = cloexec_pipe()?;
            (Some(read), Some(File::from(write)))
        }
    };
    let mut stdout = OutputWiring::new(&spec.stdout, io::stdout().as_fd())?;
    let mut stderr = match spec.stderr {
        OutputSpec::Merge => stdout.merged()?,
        ref other => OutputWiring::new(other, io::stderr().as_fd())?,
    };
    let child = ChildStdio {
        stdin: child_stdin,
        stdout: stdout.child_fd.take(),
        stderr: stderr.child_fd.take(),
    };
    let host = HostEnds {
        stdin: host_stdin,
        stdout: stdout.host,
        stderr: stderr.host,
    };
    Ok((child, host))
}

struct OutputWiring {
    /// The program's end; `None` means /dev/null.
    child_fd: Option<OwnedFd>,
    host: Option<File>,
}

impl OutputWiring {
    fn new(spec: &OutputSpec, host_stream: BorrowedFd<'_>) -> Result<Self, ProcessError> {
        match spec {
            OutputSpec::Null | OutputSpec::Merge => Ok(Self {
                child_fd: None,
                host: None,
            }),
            OutputSpec::Inherit => Ok(Self {
                child_fd: Some(duplicate(host_stream)?),
                host: None,
            }),
            OutputSpec::Pipe | OutputSpec::Collect(_) => {
                let (read, write) = cloexec_pipe()?;
                if matches!(spec, OutputSpec::Pipe) {
                    widen(&read);
                }
                Ok(Self {
                    child_fd: Some(write),
                    host: Some(File::from(read)),
                })
            }
        }
    }

    /// stderr sharing stdout's destination: the same pipe (so both interleave in write order),
    /// the same inherited stream, or /dev/null.
    fn merged(&self) -> Result<Self, ProcessError> {
        let child_fd = match &self.child_fd {
            Some(fd) => Some(duplicate(fd.as_fd())?),
            None => None,
        };
        Ok(Self { child_fd, host: None })
    }
}

fn cloexec_pipe() -> Result<(OwnedFd, OwnedFd), ProcessError> {
    nix::unistd::pipe2(OFlag::O_CLOEXEC).map_err(|errno| ProcessError::io("creating a pipe")(errno.into()))
}

/// Room for a program to run ahead of a reader that reads on demand: with the default 64 KiB a
/// search printing as it goes stalls every time its reader stops to parse what it has. 1 MiB
/// did no better; every widened pipe is charged against its user's pipe pages (16,384 by
/// default, past which the user's new pipes get two pages), so 256 of these fit.
const PIPE_BYTES: nix::libc::c_int = 1 << 18;

/// Best effort: past the system's limits (`/proc/sys/fs/pipe-max-size`, a user's pipe pages)
/// the pipe keeps its default size.
fn widen(pipe: &OwnedFd) {
    let _ = nix::fcntl::fcntl(pipe, nix::fcntl::FcntlArg::F_SETPIPE_SZ(PIPE_BYTES));
}

fn duplicate(fd: BorrowedFd<'_>) -> Result<OwnedFd, ProcessError> {
    fd.try_clone_to_owned()
        .map_err(ProcessError::io("duplicating a stream fd"))
}
