//! The seam's `terminal` resource: one host PTY session, one to one. Dropping the handle keeps
//! the session (it outlives the call); `close` ends it.

use crate::bindings::exports::seam::subprocess::subprocess::GuestTerminal;
use crate::bindings::seam::host::pty::{self, TerminalWait};
use crate::bindings::seam::subprocess::types::{Chunk, Error, Foreground, Outcome, Screen, TextChunk};
use crate::errors;

pub struct LocalTerminal {
    session: pty::Session,
}

impl LocalTerminal {
    pub fn new(session: pty::Session) -> Self {
        Self { session }
    }
}

fn outcome(o: pty::Outcome) -> Outcome {
    Outcome {
        exit_code: o.exit_code,
        signal: o.signal,
        // A terminal's shell is ended by its owner; what it ran is stopped with it.
        left_running: 0,
    }
}

impl GuestTerminal for LocalTerminal {
    fn id(&self) -> u64 {
        self.session.id()
    }

    fn read_from(&self, from_byte: u64, max_bytes: u32) -> Result<Chunk, Error> {
        let c = self.session.read_from(from_byte, max_bytes).map_err(errors::from_pty)?;
        Ok(Chunk {
            data: c.data,
            start: c.start,
            next: c.next,
            lossy: c.lossy,
            // The scrollback is memory only: what slid out is gone.
            spill_path: None,
            spilled_bytes: 0,
            eof: c.eof,
        })
    }

    fn read_text_from(&self, from_byte: u64, max_bytes: u32) -> Result<TextChunk, Error> {
        let c = self
            .session
            .read_text_from(from_byte, max_bytes)
            .map_err(errors::from_pty)?;
        Ok(TextChunk {
            text: c.text,
            start: c.start,
            next: c.next,
            lossy: c.lossy,
            spill_path: None,
            spilled_bytes: 0,
            eof: c.eof,
            replaced: c.replaced,
        })
    }

    fn wait_output(&self, after_byte: u64, timeout_ms: u32) -> u64 {
        self.session.wait_output(after_byte, timeout_ms)
    }

    fn write(&self, data: Vec<u8>) -> Result<(), Error> {
        self.session.write(&data).map_err(errors::from_pty)
    }

    fn echoes(&self) -> Result<bool, Error> {
        self.session.echoes().map_err(errors::from_pty)
    }

    fn screen(&self) -> Screen {
        let s = self.session.screen();
        Screen {
            rows: s.rows,
            cols: s.cols,
            lines: s.lines,
            cursor_row: s.cursor_row,
            cursor_col: s.cursor_col,
            alternate: s.alternate,
        }
    }

    fn resize(&self, rows: u16, cols: u16) -> Result<(), Error> {
        self.session.resize(rows, cols).map_err(errors::from_pty)
    }

    fn foreground(&self) -> Result<Foreground, Error> {
        let pgid = self.session.foreground_pgid().map_err(errors::from_pty)?;
        let wait = self.session.foreground_wait().map_err(errors::from_pty)?;
        let is_shell = pgid == self.session.shell_group();
        // The shell polls at its own prompt: not a program waiting for input (the prompt marker
        // tells that), but the sign that it took all that was typed.
        Ok(Foreground {
            pgid,
            is_shell,
            waiting_for_input: wait == TerminalWait::Reading || (wait == TerminalWait::Polling && !is_shell),
            shell_waiting: is_shell && wait != TerminalWait::None,
        })
    }

    fn adopt_foreground_as_shell(&self) -> Result<(), Error> {
        self.session
            .adopt_foreground_as_shell()
            .map(drop)
            .map_err(errors::from_pty)
    }

    fn shell_cwd(&self) -> Option<String> {
        self.session.shell_cwd()
    }

    fn signal_foreground(&self, signal: i32) -> Result<(), Error> {
        self.session.signal_foreground(signal).map_err(errors::from_pty)
    }

    fn exited(&self) -> Option<Outcome> {
        self.session.exited().map(outcome)
    }

    fn close(&self) -> Outcome {
        outcome(self.session.close())
    }
}
