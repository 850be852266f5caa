//! Starts the program under its supervisor through the table's zygote and learns both pids.

use std::borrow::Cow;
use std::ffi::CStr;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::sync::Arc;
use std::time::Duration;

use nix::errno::Errno;
use nix::fcntl::OFlag;
use nix::sys::signal::{Signal, kill};
use nix::sys::wait::waitpid;
use nix::unistd::Pid;

use super::error::ProcessError;
use super::pipe_reader::wait_readable;
use super::spawner::{SendError, Spawner, Zygote};
use super::spec::SpawnSpec;
use super::wire::{HEADER_LEN, Header, INLINE_BLOB_MAX, REPORT_LEN, Report, Stage, encode_blob};
use super::wiring::ChildStdio;

/// A request lost with a dying zygote is sent once more, to a fresh zygote.
const ATTEMPTS: usize = 2;
/// How long a request may wait for a standby to take it. A waiting standby takes it at once;
/// past this the zygote is not making one (stopped, or wedged) and is replaced.
const UNTAKEN_LIMIT: Duration = Duration::from_secs(2);

pub(super) struct Launched {
    /// A child of the host; it exits with the program's status once the tree is gone.
    pub(super) supervisor: Pid,
    pub(super) program_pid: u32,
    /// The report pipe, on which the supervisor writes `Finished` right before it exits.
    pub(super) finish: File,
}

impl Launched {
    /// Ends a program nobody will watch: its supervisor stops the tree (SIGTERM, then SIGKILL
    /// after the grace) and exits, and is reaped here.
    pub(super) fn abandon(self) {
        // Failure means it is exiting already; the wait reaps it either way.
        let _ = kill(self.supervisor, Signal::SIGTERM);
        while let Err(Errno::EINTR) = waitpid(self.supervisor, None) {}
    }
}

/// Blocks until the program has exec'd (or failed to). `on_sent` runs once, as soon as a
/// request is on its way, while a standby starts the program. The host's copies of the
/// program's stdio fds are closed when this returns; the supervisor closes its own right after.
pub(super) fn launch(
    spawner: &Spawner,
    spec: &SpawnSpec,
    stdio: ChildStdio,
    on_sent: impl FnOnce(),
) -> Result<Launched, ProcessError> {
    let program = spec
        .argv
        .first()
        .ok_or_else(|| ProcessError::InvalidSpec("argv is empty".to_owned()))?;
    let spawn_failed = |source: io::Error| ProcessError::SpawnFailed {
        program: program.clone(),
        source,
    };
    let blob = Blob::of(spec).map_err(spawn_failed)?;
    let stdio_fds = [&stdio.stdin, &stdio.stdout, &stdio.stderr].map(|fd| fd.as_ref().map(AsRawFd::as_raw_fd));
    let header = Header {
        stdio: (0..)
            .zip(stdio_fds)
            .filter(|(_, fd)| fd.is_some())
            .map(|(bit, _)| 1 << bit)
            .sum(),
        grace_ns: u64::try_from(spec.grace.as_nanos()).unwrap_or(u64::MAX),
        blob_len: blob.len,
        blob_inline: matches!(blob.travel, Travel::Inline(_)),
    }
    .encode();
    let (inline, memfd) = match &blob.travel {
        Travel::Inline(bytes) => (bytes.as_slice(), None),
        Travel::Memfd(file) => (&[][..], Some(file.as_raw_fd())),
    };
    let mut fds = vec![-1];
    fds.extend(memfd);
    fds.extend(stdio_fds.into_iter().flatten());
    let mut on_sent = Some(on_sent);
    for _ in 0..ATTEMPTS {
        let zygote = spawner.zygote().map_err(spawn_failed)?;
        match request(spawner, &zygote, &header, inline, &mut fds, &mut on_sent) {
            Ok(launched) => return Ok(launched),
            Err(Attempt::Lost) => spawner.retire(&zygote),
            Err(Attempt::Failed(err)) => return Err(spawn_failed(err)),
        }
    }
    Err(spawn_failed(io::Error::other(
        "the process zygote exited before starting the program",
    )))
}

enum Attempt {
    /// The zygote died with the request; nothing was started.
    Lost,
    Failed(io::Error),
}

/// One request; `fds[0]` is filled in with this attempt's report pipe. `on_sent` is taken
/// and run once the request is sent.
fn request(
    spawner: &Spawner,
    zygote: &Arc<Zygote>,
    header: &[u8; HEADER_LEN],
    inline_blob: &[u8],
    fds: &mut [RawFd],
    on_sent: &mut Option<impl FnOnce()>,
) -> Result<Launched, Attempt> {
    let (report_read, report_write) =
        nix::unistd::pipe2(OFlag::O_CLOEXEC).map_err(|errno| Attempt::Failed(errno.into()))?;
    fds[0] = report_write.as_raw_fd();
    match zygote.send(header, inline_blob, fds) {
        Ok(()) => {}
        Err(SendError::Gone) => return Err(Attempt::Lost),
        Err(SendError::Io(err)) => return Err(Attempt::Failed(err)),
    }
    // The zygote has its own copy now; ours would keep the pipe from reporting end-of-file.
    drop(report_write);
    if let Some(on_sent) = on_sent.take() {
        on_sent();
    }
    let mut pipe = File::from(report_read);
    // A report (or end-of-file) comes once a standby took the request and started its
    // program; a killed zygote drops a request nobody took, which ends in end-of-file: lost,
    // and sent to a fresh zygote.
    if !wait_readable(&pipe, UNTAKEN_LIMIT).map_err(|e| Attempt::Failed(io::Error::other(e.to_string())))? {
        tracing::warn!("the process zygote did not serve a spawn in {UNTAKEN_LIMIT:?}; replacing it");
        zygote.kill();
        spawner.retire(zygote);
    }
    match read_report(&mut pipe).map_err(Attempt::Failed)? {
        None => Err(Attempt::Lost),
        Some(Report::Started {
            supervisor,
            program,
            unreaped,
        }) => {
            if unreaped > 0 {
                // Its files are closed (that is how the zygote saw it end), so it is exiting
                // if not already a zombie; no one else knows its pid.
                while let Err(Errno::EINTR) = waitpid(Pid::from_raw(unreaped), None) {}
            }
            Ok(Launched {
                supervisor: Pid::from_raw(supervisor),
                program_pid: program.unsigned_abs(),
                finish: pipe,
            })
        }
        Some(Report::Failed {
            stage,
            supervisor,
            errno,
        }) => {
            // End-of-file once the zygote or supervisor let go of the program's fds too.
            let _ = io::copy(&mut pipe, &mut io::sink());
            if supervisor > 0 {
                // It exits right after reporting; it is our child, so it is ours to reap.
                while let Err(Errno::EINTR) = waitpid(Pid::from_raw(supervisor), None) {}
            }
            Err(Attempt::Failed(launch_error(stage, errno)))
        }
        Some(Report::Finished { .. }) => Err(Attempt::Failed(io::Error::other(
            "the process zygote reported an end before a start",
        ))),
    }
}

/// The next report on `pipe`; `None` if it closed without one.
pub(super) fn read_report(pipe: &mut impl Read) -> io::Result<Option<Report>> {
    let mut raw = [0u8; REPORT_LEN];
    let mut filled = 0;
    while filled < REPORT_LEN {
        match pipe.read(&mut raw[filled..]) {
            Ok(0) => break,
            Ok(read) => filled += read,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
    match filled {
        0 => Ok(None),
        REPORT_LEN => Report::decode(&raw)
            .map(Some)
            .ok_or_else(|| io::Error::other("malformed report from the process zygote")),
        _ => Err(io::Error::other("truncated report from the process zygote")),
    }
}

/// The errno of the program's own start reads like `std::process::Command`'s; the steps
/// before it say which one failed.
fn launch_error(stage: Stage, errno: i32) -> io::Error {
    let os = io::Error::from_raw_os_error(errno);
    match stage {
        Stage::Program => os,
        Stage::Supervisor => io::Error::new(os.kind(), format!("starting the process supervisor: {os}")),
        Stage::Zygote => io::Error::new(os.kind(), format!("the process zygote refused the request: {os}")),
    }
}

/// The request blob, and how it travels to the zygote.
struct Blob {
    len: u64,
    travel: Travel,
}

enum Travel {
    /// In the request datagram: an ordinary command's argv and environment.
    Inline(Vec<u8>),
    /// In a memfd: argv and environment of any size.
    Memfd(File),
}

impl Blob {
    fn of(spec: &SpawnSpec) -> io::Result<Self> {
        // The zygote's own cwd is `/`: a relative cwd must mean the same as it does in the host.
        let cwd = match spec.cwd.is_absolute() {
            true => Cow::Borrowed(spec.cwd.as_path()),
            false => Cow::Owned(std::env::current_dir()?.join(&spec.cwd)),
        };
        let bytes = encode_blob(&spec.argv, &spec.env, cwd.as_os_str().as_bytes());
        let len = bytes.len() as u64;
        if bytes.len() <= INLINE_BLOB_MAX {
            return Ok(Self {
                len,
                travel: Travel::Inline(bytes),
            });
        }
        const NAME: &CStr = c"seam-spawn-request";
        // SAFETY: a NUL-terminated name and integer flags.
        let fd = unsafe { libc::memfd_create(NAME.as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: memfd_create just returned this fd and nothing else owns it.
        let mut file = File::from(unsafe { OwnedFd::from_raw_fd(fd) });
        file.write_all(&bytes)?;
        Ok(Self {
            len,
            travel: Travel::Memfd(file),
        })
    }
}
