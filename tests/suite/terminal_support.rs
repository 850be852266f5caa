//! Helpers of the terminal suites: real PTY sessions on the native shim.

use seam_host::natives::pty::{PtySession, PtySpec, PtyTable};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Held by every test that opens PTYs, so the descriptor-leak count sees only its own.
pub fn pty_lock() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

pub fn bash_spec(cwd: &str) -> PtySpec {
    PtySpec {
        argv: ["/bin/bash", "--noprofile", "--norc", "-i"].map(String::from).to_vec(),
        cwd: cwd.to_string(),
        env: vec![
            ("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()),
            ("TERM".into(), "dumb".into()),
            ("HOME".into(), cwd.to_string()),
        ],
        rows: 24,
        cols: 80,
        scrollback_bytes: 1 << 20,
        grace: Duration::from_millis(500),
    }
}

/// Everything the session printed so far, lossy UTF-8.
pub fn screen(session: &PtySession) -> String {
    String::from_utf8_lossy(&session.read_from(0, usize::MAX).data).into_owned()
}

/// Waits until the output after `from` contains `needle`; panics with the output otherwise.
pub fn expect_output(session: &PtySession, from: u64, needle: &str) -> u64 {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let chunk = session.read_from(from, usize::MAX);
        let text = String::from_utf8_lossy(&chunk.data);
        if let Some(at) = text.find(needle) {
            return chunk.start + (at + needle.len()) as u64;
        }
        assert!(Instant::now() < deadline, "no {needle:?} in output: {text:?}");
        session.wait_output(chunk.next, Duration::from_millis(100));
    }
}

/// Number of descriptors of this process open on the PTY multiplexer.
pub fn open_ptmx() -> usize {
    std::fs::read_dir("/proc/self/fd")
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| std::fs::read_link(e.path()).is_ok_and(|l| l.to_string_lossy().contains("ptmx")))
        .count()
}

pub fn table() -> PtyTable {
    PtyTable::default()
}

/// The default world on a fresh workspace, with the PTY lock held until the test ends.
pub struct TerminalWorld {
    pub world: seam_host::World,
    pub dir: tempfile::TempDir,
    _guard: MutexGuard<'static, ()>,
}

impl TerminalWorld {
    pub fn new() -> Self {
        let guard = pty_lock();
        let dir = tempfile::tempdir().unwrap();
        Self {
            world: crate::common::default_world(dir.path()),
            dir,
            _guard: guard,
        }
    }

    pub fn agent(&self, name: &'static str) -> Agent<'_> {
        Agent::new(&self.world, name)
    }
}

/// Drives the terminal tools of a world as one agent.
pub struct Agent<'w> {
    pub world: &'w seam_host::World,
    pub name: &'static str,
}

impl<'w> Agent<'w> {
    pub fn new(world: &'w seam_host::World, name: &'static str) -> Self {
        Self { world, name }
    }

    pub fn call(&self, tool: &str, args: serde_json::Value) -> seam_host::ToolResult {
        self.call_with(tool, args, self.context())
    }

    pub fn context(&self) -> seam_host::CallContext {
        let mut context = self.world.call_context("test");
        context.session.agent = self.name.to_string();
        context
    }

    pub fn call_with(
        &self,
        tool: &str,
        args: serde_json::Value,
        context: seam_host::CallContext,
    ) -> seam_host::ToolResult {
        self.world.call(tool, &args.to_string(), context)
    }

    /// Opens a session and returns its id.
    pub fn open(&self) -> String {
        let result = self.call("terminal_open", serde_json::json!({}));
        let text = result.text();
        assert!(!result.is_error, "{text}");
        let id = text
            .split_whitespace()
            .find(|w| w.starts_with("pty-"))
            .expect("a session id");
        id.trim_end_matches('.').to_string()
    }

    /// A successful send's text.
    pub fn send(&self, id: &str, input: &str, wait_ms: Option<u32>) -> String {
        let mut args = serde_json::json!({"session_id": id, "input": input});
        if let Some(ms) = wait_ms {
            args["wait_ms"] = ms.into();
        }
        let result = self.call("terminal_send", args);
        assert!(!result.is_error, "{}", result.text());
        result.text()
    }

    pub fn close(&self, id: &str) {
        let result = self.call("terminal_close", serde_json::json!({"session_id": id}));
        assert!(!result.is_error, "{}", result.text());
    }
}
