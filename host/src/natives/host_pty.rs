//! seam:host/pty over the native PTY shim.

use super::bindings::natives::seam::host::pty as wit;
use super::pty::{Chunk, PtyError, PtyOutcome, PtySession, PtySpec, Snapshot, TerminalWait};
use crate::lane::Lane;
use std::sync::Arc;
use std::time::Duration;
use wasmtime::Result;
use wasmtime::component::Resource;

/// A provider's handle to a PTY session. Dropping it keeps the session: it outlives the call.
pub struct PtyHandle {
    session: Arc<PtySession>,
}

fn error(e: PtyError) -> wit::Error {
    wit::Error {
        code: e.code().to_string(),
        message: e.to_string(),
    }
}

fn outcome(o: PtyOutcome) -> wit::Outcome {
    wit::Outcome {
        exit_code: o.exit_code,
        signal: o.signal,
    }
}

fn terminal_wait(w: TerminalWait) -> wit::TerminalWait {
    match w {
        TerminalWait::None => wit::TerminalWait::None,
        TerminalWait::Reading => wit::TerminalWait::Reading,
        TerminalWait::Polling => wit::TerminalWait::Polling,
    }
}

fn chunk(c: Chunk) -> wit::Chunk {
    wit::Chunk {
        data: c.data,
        start: c.start,
        next: c.next,
        lossy: c.lossy,
        eof: c.eof,
    }
}

fn screen(s: Snapshot) -> wit::Screen {
    wit::Screen {
        rows: s.rows,
        cols: s.cols,
        lines: s.lines,
        cursor_row: s.cursor_row,
        cursor_col: s.cursor_col,
        alternate: s.alternate,
    }
}

impl Lane {
    fn pty(&self, handle: &Resource<PtyHandle>) -> Result<Arc<PtySession>> {
        Ok(self.table.get(handle)?.session.clone())
    }
}

impl wit::Host for Lane {
    fn spawn(&mut self, spec: wit::SpawnSpec) -> Result<Result<Resource<PtyHandle>, wit::Error>> {
        tracing::debug!(component = self.current_name(), program = ?spec.argv.first(), cwd = %spec.cwd, "spawn terminal");
        let spec = PtySpec {
            argv: spec.argv,
            cwd: spec.cwd,
            env: spec.env,
            rows: spec.rows,
            cols: spec.cols,
            scrollback_bytes: usize::try_from(spec.scrollback_bytes).unwrap_or(usize::MAX),
            grace: Duration::from_millis(spec.grace_ms.into()),
        };
        let host = self.linked.host.clone();
        match self.blocking(|| host.ptys.spawn(spec)) {
            Ok(session) => Ok(Ok(self.table.push(PtyHandle { session })?)),
            Err(e) => Ok(Err(error(e))),
        }
    }

    fn attach(&mut self, id: u64) -> Result<Result<Resource<PtyHandle>, wit::Error>> {
        match self.linked.host.ptys.get(id) {
            Ok(session) => Ok(Ok(self.table.push(PtyHandle { session })?)),
            Err(e) => Ok(Err(error(e))),
        }
    }
}

impl wit::HostSession for Lane {
    fn id(&mut self, this: Resource<PtyHandle>) -> Result<u64> {
        Ok(self.pty(&this)?.id())
    }

    fn pid(&mut self, this: Resource<PtyHandle>) -> Result<u32> {
        Ok(self.pty(&this)?.pid())
    }

    fn read_from(
        &mut self,
        this: Resource<PtyHandle>,
        from_byte: u64,
        max_bytes: u32,
    ) -> Result<Result<wit::Chunk, wit::Error>> {
        Ok(Ok(chunk(self.pty(&this)?.read_from(from_byte, max_bytes as usize))))
    }

    fn read_text_from(
        &mut self,
        this: Resource<PtyHandle>,
        from_byte: u64,
        max_bytes: u32,
    ) -> Result<Result<wit::TextChunk, wit::Error>> {
        let c = self.pty(&this)?.read_text_from(from_byte, max_bytes as usize);
        Ok(Ok(wit::TextChunk {
            text: c.text,
            start: c.start,
            next: c.next,
            lossy: c.lossy,
            eof: c.eof,
            replaced: c.replaced,
        }))
    }

    fn wait_output(&mut self, this: Resource<PtyHandle>, after_byte: u64, timeout_ms: u32) -> Result<u64> {
        let session = self.pty(&this)?;
        let timeout = Duration::from_millis(timeout_ms.into());
        Ok(self.blocking(|| session.wait_output(after_byte, timeout)))
    }

    fn write(&mut self, this: Resource<PtyHandle>, data: Vec<u8>) -> Result<Result<(), wit::Error>> {
        let session = self.pty(&this)?;
        Ok(self.blocking(|| session.write(&data)).map_err(error))
    }

    fn echoes(&mut self, this: Resource<PtyHandle>) -> Result<Result<bool, wit::Error>> {
        Ok(self.pty(&this)?.echoes().map_err(error))
    }

    fn screen(&mut self, this: Resource<PtyHandle>) -> Result<wit::Screen> {
        Ok(screen(self.pty(&this)?.screen()))
    }

    fn resize(&mut self, this: Resource<PtyHandle>, rows: u16, cols: u16) -> Result<Result<(), wit::Error>> {
        Ok(self.pty(&this)?.resize(rows, cols).map_err(error))
    }

    fn foreground_pgid(&mut self, this: Resource<PtyHandle>) -> Result<Result<i32, wit::Error>> {
        Ok(self.pty(&this)?.foreground_pgid().map_err(error))
    }

    fn shell_group(&mut self, this: Resource<PtyHandle>) -> Result<i32> {
        Ok(self.pty(&this)?.shell_group())
    }

    fn shell_cwd(&mut self, this: Resource<PtyHandle>) -> Result<Option<String>> {
        Ok(self.pty(&this)?.shell_cwd())
    }

    fn adopt_foreground_as_shell(&mut self, this: Resource<PtyHandle>) -> Result<Result<i32, wit::Error>> {
        Ok(self.pty(&this)?.adopt_foreground_as_shell().map_err(error))
    }

    fn foreground_wait(&mut self, this: Resource<PtyHandle>) -> Result<Result<wit::TerminalWait, wit::Error>> {
        let session = self.pty(&this)?;
        let wait = self.blocking(|| session.foreground_wait());
        Ok(wait.map(terminal_wait).map_err(error))
    }

    fn signal_foreground(&mut self, this: Resource<PtyHandle>, signal: i32) -> Result<Result<(), wit::Error>> {
        Ok(self.pty(&this)?.signal_foreground(signal).map_err(error))
    }

    fn exited(&mut self, this: Resource<PtyHandle>) -> Result<Option<wit::Outcome>> {
        Ok(self.pty(&this)?.exited().map(outcome))
    }

    fn close(&mut self, this: Resource<PtyHandle>) -> Result<wit::Outcome> {
        let session = self.pty(&this)?;
        let host = self.linked.host.clone();
        // Forget the id first so no later call attaches to a closing session.
        let closed = self.blocking(|| host.ptys.close(session.id()).unwrap_or_else(|| session.close()));
        Ok(outcome(closed))
    }

    fn drop(&mut self, this: Resource<PtyHandle>) -> Result<()> {
        self.table.delete(this)?;
        Ok(())
    }
}
