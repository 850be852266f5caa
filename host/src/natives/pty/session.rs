//! One PTY session: a shell leading its own session with the PTY as controlling terminal.

use super::device;
use super::drain::{self, Output};
use super::error::PtyError;
use super::kernel::{self, TerminalWait};
use super::screen::{Screen, Snapshot};
use super::scrollback::{Chunk, Scrollback, TextChunk};
use super::spec::PtySpec;
use crate::natives::inherited;
use crate::natives::tree_cgroup::TreeCgroup;
use nix::errno::Errno;
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// How the shell ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PtyOutcome {
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
}

impl From<ExitStatus> for PtyOutcome {
    fn from(s: ExitStatus) -> Self {
        Self {
            exit_code: s.code(),
            signal: s.signal(),
        }
    }
}

/// How long a write waits for room in the terminal's input queue before failing.
const WRITE_STALL: Duration = Duration::from_secs(10);
/// How long `close` waits for the session's cgroup to empty after killing it.
const CGROUP_KILL_WAIT: Duration = Duration::from_secs(5);

/// Descriptors and threads that exist until `close`.
struct Live {
    master: Arc<OwnedFd>,
    /// Dropping it wakes the drain thread.
    stop: OwnedFd,
    drain: JoinHandle<()>,
}

pub struct PtySession {
    id: u64,
    pid: u32,
    /// The shell's process group: the child's own, unless the shell was started through a
    /// launcher (a sandbox) and adopted later (`adopt_foreground_as_shell`).
    shell_group: AtomicI32,
    device: u64,
    grace: Duration,
    output: Arc<Output>,
    child: Mutex<Child>,
    outcome: Mutex<Option<PtyOutcome>>,
    live: Mutex<Option<Live>>,
    /// Holds the whole session tree where the host can create cgroups.
    cgroup: Option<TreeCgroup>,
}

impl PtySession {
    pub(super) fn spawn(id: u64, spec: PtySpec) -> Result<Self, PtyError> {
        spec.validate()?;
        let pair = device::open(spec.rows, spec.cols)?;
        let cgroup = TreeCgroup::create(&format!("pty-{id}"));
        let entry = cgroup.as_ref().map(TreeCgroup::entry);
        let dup = |fd: &OwnedFd| fd.try_clone().map(Stdio::from).map_err(PtyError::io("dup pty slave"));
        let mut command = Command::new(&spec.argv[0]);
        command
            .args(&spec.argv[1..])
            .env_clear()
            .envs(spec.env.iter().map(|(k, v)| (k, v)))
            .current_dir(&spec.cwd)
            .stdin(dup(&pair.slave)?)
            .stdout(dup(&pair.slave)?)
            .stderr(dup(&pair.slave)?);
        // SAFETY: every call here is a plain syscall, async-signal-safe; nothing here allocates.
        unsafe {
            command.pre_exec(move || {
                // std resets the signal mask; the dispositions the host ignores are ours to reset.
                inherited::reset_dispositions();
                inherited::close_on_exec_from(3);
                if libc::setsid() < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // stdin is the slave by now: make it the new session's controlling terminal.
                if libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // Orphans of the session (double forks, setsid'd daemons) reparent to the shell,
                // where `close` finds them; the attribute survives execve.
                if libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // Everything the shell starts is born in the session's cgroup, whatever session
                // or parent it later has. Failing to enter leaves the other teardown alone.
                if let Some(entry) = entry {
                    let _ = entry.enter();
                }
                Ok(())
            });
        }
        let child = command.spawn().map_err(|source| PtyError::SpawnFailed {
            program: spec.argv[0].clone(),
            source,
        })?;
        // Only the shell holds the slave now: when its session is gone the master reads EIO.
        drop(command);
        drop(pair.slave);
        let (stop_read, stop) =
            nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC).map_err(|e| PtyError::io("pipe2")(e.into()))?;
        let master = Arc::new(pair.master);
        let output = Arc::new(Output {
            scrollback: Mutex::new(Scrollback::new(spec.scrollback_bytes)),
            screen: Mutex::new(Screen::new(spec.rows, spec.cols)),
            changed: Default::default(),
            draining: Default::default(),
        });
        let drain = {
            let (master, output) = (master.clone(), output.clone());
            std::thread::Builder::new()
                .name(format!("pty-{id}-drain"))
                .spawn(move || drain::run(master, stop_read, output))
                .map_err(PtyError::io("start pty drain thread"))?
        };
        Ok(Self {
            id,
            pid: child.id(),
            shell_group: AtomicI32::new(child.id() as i32),
            device: pair.device,
            grace: spec.grace,
            output,
            child: Mutex::new(child),
            outcome: Mutex::new(None),
            live: Mutex::new(Some(Live { master, stop, drain })),
            cgroup,
        })
    }

    pub fn id(&self) -> u64 {
        self.id
    }

    /// The shell's pid, also its process group and session id.
    pub fn pid(&self) -> u32 {
        self.pid
    }

    fn master(&self) -> Result<Arc<OwnedFd>, PtyError> {
        let live = self.live.lock().expect("pty lock");
        live.as_ref().map(|l| l.master.clone()).ok_or(PtyError::Closed)
    }

    /// Never blocks. Reads keep working after the shell exited, until `close`.
    pub fn read_from(&self, from: u64, max: usize) -> Chunk {
        self.output.scrollback.lock().expect("scrollback lock").read(from, max)
    }

    /// [`read_from`](Self::read_from) as text: whole characters of at most `max` bytes.
    pub fn read_text_from(&self, from: u64, max: usize) -> TextChunk {
        self.output
            .scrollback
            .lock()
            .expect("scrollback lock")
            .read_text(from, max)
    }

    /// Offset just past the last byte received so far.
    pub fn end(&self) -> u64 {
        self.output.scrollback.lock().expect("scrollback lock").end()
    }

    /// Blocks until output past `offset` exists, the stream ended, or `timeout` passed; returns the
    /// end offset then. Lets a provider wait for output without polling.
    pub fn wait_output(&self, offset: u64, timeout: Duration) -> u64 {
        let guard = self.output.scrollback.lock().expect("scrollback lock");
        let (guard, _) = self
            .output
            .changed
            .wait_timeout_while(guard, timeout, |s| s.end() <= offset && !s.read(offset, 0).eof)
            .expect("scrollback lock");
        guard.end()
    }

    /// Input as typed at the terminal: cursor keys written as `ESC [ A` reach a program that asked
    /// for application cursor keys (less, vim) as `ESC O A`, as a terminal's keyboard sends them.
    pub fn write(&self, data: &[u8]) -> Result<(), PtyError> {
        let master = self.master()?;
        let keys = self.output.screen.lock().expect("screen lock").keys(data);
        let mut rest = &keys[..];
        while !rest.is_empty() {
            match nix::unistd::write(master.as_fd(), rest) {
                Ok(n) => rest = &rest[n..],
                Err(Errno::EINTR) => {}
                Err(Errno::EAGAIN) => {
                    // The terminal's input queue is full: wait for the program to read.
                    let mut fds = [PollFd::new(master.as_fd(), PollFlags::POLLOUT)];
                    let timeout = PollTimeout::try_from(WRITE_STALL).unwrap_or(PollTimeout::MAX);
                    if poll(&mut fds, timeout).map_err(|e| PtyError::io("poll pty")(e.into()))? == 0 {
                        return Err(PtyError::io("write to pty")(std::io::ErrorKind::TimedOut.into()));
                    }
                }
                Err(e) => return Err(PtyError::io("write to pty")(e.into())),
            }
        }
        Ok(())
    }

    /// Whether the terminal echoes typed input itself (see `device::echoes`).
    pub fn echoes(&self) -> Result<bool, PtyError> {
        device::echoes(&*self.master()?)
    }

    pub fn resize(&self, rows: u16, cols: u16) -> Result<(), PtyError> {
        super::spec::check_size(rows, cols)?;
        device::resize(&*self.master()?, rows, cols)?;
        self.output.screen.lock().expect("screen lock").resize(rows, cols);
        Ok(())
    }

    /// What the terminal shows now. Works after the shell exited, until `close`.
    pub fn screen(&self) -> Snapshot {
        self.output.screen.lock().expect("screen lock").snapshot()
    }

    /// The terminal's foreground process group. A terminal whose shell has ended has none, and
    /// reports 0: that must never reach `killpg`, where it names the caller's own group.
    pub fn foreground_pgid(&self) -> Result<i32, PtyError> {
        let master = self.master()?;
        let pgid = nix::unistd::tcgetpgrp(master.as_fd())
            .map(Pid::as_raw)
            .map_err(|e| PtyError::io("tcgetpgrp")(e.into()))?;
        if pgid <= 1 {
            return Err(PtyError::Closed);
        }
        Ok(pgid)
    }

    /// How the foreground group waits on this terminal (kernel wait channels).
    pub fn foreground_wait(&self) -> Result<TerminalWait, PtyError> {
        let pgid = self.foreground_pgid()?;
        // Input just sent may not have reached the terminal yet: a program asleep on it then is
        // not waiting for input, it is about to get some.
        device::deliver_input(&*self.master()?);
        let wait = kernel::group_wait_on_tty(pgid, self.device);
        // Not waiting while what its programs wrote has not reached the scrollback: a program
        // blocked writing to the terminal (its output not drained yet, on a loaded host) sleeps
        // where a reader would, and a program's prompt must be read before it counts as asking.
        // Looked at after the wait: output written before the sleep is pending still.
        if wait != TerminalWait::None && self.output_in_flight()? {
            return Ok(TerminalWait::None);
        }
        Ok(wait)
    }

    /// Output written to the terminal that is not in the scrollback yet: in the master, or taken
    /// from it by the drain thread. In that order: bytes leave the first for the second.
    fn output_in_flight(&self) -> Result<bool, PtyError> {
        Ok(device::output_pending(&*self.master()?) || self.output.draining.load(Ordering::SeqCst))
    }

    /// The shell's process group (see `adopt_foreground_as_shell`).
    pub fn shell_group(&self) -> i32 {
        self.shell_group.load(Ordering::Relaxed)
    }

    /// The shell's current directory: the shell leads its group, so the group's id is its pid.
    pub fn shell_cwd(&self) -> Option<String> {
        if self.exited().is_some() {
            return None;
        }
        let cwd = std::fs::read_link(format!("/proc/{}/cwd", self.shell_group())).ok()?;
        Some(cwd.to_string_lossy().into_owned())
    }

    /// The group in the foreground now is the shell's from here on. A shell started through a
    /// launcher (a sandbox) is not the session's first process; once it shows its prompt, it
    /// holds the foreground. Returns that group.
    pub fn adopt_foreground_as_shell(&self) -> Result<i32, PtyError> {
        let pgid = self.foreground_pgid()?;
        self.shell_group.store(pgid, Ordering::Relaxed);
        Ok(pgid)
    }

    /// A real signal to the foreground process group (never a control character).
    pub fn signal_foreground(&self, signal: i32) -> Result<(), PtyError> {
        let signal = Signal::try_from(signal).map_err(|_| PtyError::InvalidSpec(format!("no signal {signal}")))?;
        let pgid = self.foreground_pgid()?;
        killpg(Pid::from_raw(pgid), signal).map_err(|e| PtyError::io("killpg")(e.into()))
    }

    /// The shell's outcome once it has ended (reaps it).
    pub fn exited(&self) -> Option<PtyOutcome> {
        let mut outcome = self.outcome.lock().expect("pty lock");
        if outcome.is_none()
            && let Ok(Some(status)) = self.child.lock().expect("pty lock").try_wait()
        {
            *outcome = Some(status.into());
        }
        *outcome
    }

    /// Ends the whole session tree, reaps the shell, stops the drain thread and closes every
    /// descriptor. Idempotent.
    pub fn close(&self) -> PtyOutcome {
        let live = self.live.lock().expect("pty lock").take();
        if let Some(live) = live {
            kernel::terminate_session(self.pid as i32, self.grace);
            // What the walk could not find (a double fork racing the kill, reparented to init
            // once the shell died) is still in the cgroup.
            if let Some(cgroup) = &self.cgroup {
                cgroup.kill_all(CGROUP_KILL_WAIT);
            }
            let status = self.child.lock().expect("pty lock").wait();
            let mut outcome = self.outcome.lock().expect("pty lock");
            if let (None, Ok(status)) = (*outcome, status) {
                *outcome = Some(status.into());
            }
            drop(outcome);
            drop(live.stop);
            // The drain thread drops its clone of the master when it returns; ours drops here.
            let _ = live.drain.join();
            drop(live.master);
        }
        self.exited().unwrap_or(PtyOutcome {
            exit_code: None,
            signal: None,
        })
    }
}

impl Drop for PtySession {
    fn drop(&mut self) {
        self.close();
    }
}
