//! The terminal seam over PTY sessions, whatever starts the shell: everything but the launch
//! (`launch`), shared by terminal-bash and terminal-sandbox.

use crate::bindings::exports::seam::terminal::terminal::{
    ByteRange, Config as WitConfig, DecidedBy, Error, ForegroundState, Guest, ReadResult, SendResult, SessionInfo,
    Snapshot, SpawnRequest,
};
use crate::bindings::seam::subprocess::subprocess::{self, Terminal};
use crate::bindings::seam::subprocess::types::{Screen, TerminalSpec};

use crate::config::{self, Config};
use crate::registry::{Busy, Record};
use crate::{errors, marker, readiness, registry, signals};

fn attach(record: &Record) -> Result<Terminal, Error> {
    subprocess::attach_terminal(record.terminal).map_err(errors::from_subprocess)
}

/// A screen read waits for output to pause this long, at most this many times.
const SCREEN_SETTLE_MS: u32 = 5;
const SCREEN_SETTLE_ROUNDS: usize = 20;

fn snapshot(s: Screen, terminal: &Terminal) -> Snapshot {
    Snapshot {
        rows: s.rows,
        cols: s.cols,
        lines: s.lines,
        cursor_row: s.cursor_row,
        cursor_col: s.cursor_col,
        alternate: s.alternate,
        running: terminal.exited().is_none(),
    }
}

fn lossy(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

fn info(id: &str, record: &Record) -> SessionInfo {
    let terminal = subprocess::attach_terminal(record.terminal).ok();
    let exit = terminal.as_ref().map(|t| t.exited());
    // Where the shell is now, after its `cd`s; once that cannot be known (it exited), where it
    // was last seen.
    let cwd = terminal
        .as_ref()
        .and_then(|t| t.shell_cwd())
        .unwrap_or_else(|| record.cwd.clone());
    // The shell holding the terminal is at its prompt only while it waits there: busy (a loop
    // of builtins, or on its way back from a killed command) it takes no command yet. Past the
    // prompt marker of everything sent, it is only on its way to the prompt (running PS1,
    // setting up its line editor), which the next send waits out.
    let foreground = match (&exit, terminal.as_ref().map(|t| (t, t.foreground()))) {
        (Some(None), Some((_, Ok(f)))) if f.waiting_for_input => ForegroundState::ReadingInput,
        (Some(None), Some((t, Ok(f)))) if !f.shell_waiting && !all_sent_finished(t, record) => ForegroundState::Program,
        _ => ForegroundState::Prompt,
    };
    SessionInfo {
        id: id.to_owned(),
        owner: record.owner.clone(),
        cwd,
        shell: record.shell.clone(),
        rows: record.rows,
        cols: record.cols,
        busy: registry::is_busy(id),
        foreground,
        running: matches!(exit, Some(None)),
        exit_code: exit.flatten().and_then(|o| o.exit_code),
    }
}

/// Whether every command sent has finished: the last send ended at its prompt marker, or a
/// marker came since.
fn all_sent_finished(terminal: &Terminal, record: &Record) -> bool {
    record.pending_from.is_none_or(|from| {
        readiness::finished_between(terminal, &record.nonce, from, terminal.wait_output(u64::MAX, 0))
    })
}

/// A nonce no program prints by accident: the session's host id and the clock's nanoseconds.
fn nonce(terminal: u64) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    format!("{terminal:x}{nanos:x}")
}

impl Guest for crate::Provider {
    fn effective_config() -> WitConfig {
        Config::load().unwrap_or_default().to_wit()
    }

    fn spawn(owner: String, request: SpawnRequest) -> Result<SessionInfo, Error> {
        registry::check_live(&owner)?;
        let config = Config::load()?;
        let (rows, cols) = (request.rows.unwrap_or(config.rows), request.cols.unwrap_or(config.cols));
        config::check_size(rows, cols)?;
        // The session's output is also drawn by a terminal emulator (`screen`), so full-screen
        // programs can paint; a caller who wants plain streams asks for TERM=dumb.
        let mut env = vec![("TERM".to_owned(), "xterm-256color".to_owned())];
        env.extend(request.env);
        let shell = request.shell.unwrap_or_else(|| config.shell_path.clone());
        let shell = subprocess::resolve_executable(&shell, &env).map_err(errors::from_subprocess)?;
        let argv = std::iter::once(shell.clone())
            .chain(config.shell_args.iter().cloned())
            .collect();
        let argv = crate::launch::shell_argv(argv, &request.cwd, request.sandbox)?;
        let spec = TerminalSpec {
            argv,
            cwd: request.cwd.clone(),
            env,
            rows,
            cols,
            scrollback_bytes: config.scrollback_bytes,
            grace_ms: config.grace_ms,
        };
        let terminal = subprocess::spawn_terminal(&spec).map_err(errors::from_subprocess)?;
        let nonce = nonce(terminal.id());
        let start = terminal.wait_output(u64::MAX, 0);
        terminal
            .write(marker::init_line(&nonce).as_bytes())
            .map_err(errors::from_subprocess)?;
        let ready = readiness::wait(&terminal, &nonce, start, config.timeout_ms, false, &config);
        if ready.decided_by != DecidedBy::PromptMarker {
            terminal.close();
            return Err(errors::error(
                errors::SPAWN_FAILED,
                format!(
                    "{shell} never showed its prompt marker ({}); the shell must be bash, which runs \
                     PROMPT_COMMAND",
                    match ready.decided_by {
                        DecidedBy::Exited => "it exited",
                        DecidedBy::Timeout => "it timed out",
                        _ => "it waits for input instead",
                    }
                ),
            ));
        }
        // At its prompt the shell holds the foreground: its group is the shell's, also when a
        // launcher (a sandbox) started it.
        terminal.adopt_foreground_as_shell().map_err(errors::from_subprocess)?;
        let id = registry::next_id();
        let record = Record {
            owner,
            cwd: request.cwd,
            shell,
            rows,
            cols,
            terminal: terminal.id(),
            nonce,
            // What came before (the echoed init line) is ours, not the user's.
            origin: ready.end,
            cursor: ready.end,
            pending_from: None,
        };
        registry::save(&id, &record);
        Ok(info(&id, &record))
    }

    fn send(owner: String, id: String, input: String, wait_ms: Option<u32>) -> Result<SendResult, Error> {
        let record = registry::fenced(&owner, &id)?;
        let config = Config::load()?;
        let terminal = attach(&record)?;
        if terminal.exited().is_some() {
            return Err(errors::error(errors::CLOSED, format!("the shell of {id} has exited")));
        }
        let wait_ms = wait_ms.unwrap_or(config.timeout_ms);
        let _busy = Busy::acquire(&id, u64::from(wait_ms) + u64::from(config.readiness_ms) + 5_000)?;
        let start = terminal.wait_output(u64::MAX, 0);
        // Typed ahead only while the earlier command may still run: one that ended since (a
        // Ctrl-C, say) left its marker, which must not be taken for this command's.
        let typed_ahead = record
            .pending_from
            .is_some_and(|from| !readiness::finished_between(&terminal, &record.nonce, from, start));
        if !typed_ahead {
            readiness::wait_for_line_editor(&terminal);
        }
        terminal.write(input.as_bytes()).map_err(errors::from_subprocess)?;
        let decision = readiness::wait(&terminal, &record.nonce, start, wait_ms, typed_ahead, &config);
        // More than fits: the end is shown, where a command prints its result and its errors.
        let shown_from = decision
            .output_end
            .saturating_sub(u64::from(config.max_read_bytes))
            .max(start);
        let chunk = terminal
            .read_text_from(shown_from, (decision.output_end - shown_from) as u32)
            .map_err(errors::from_subprocess)?;
        let retained_from = if shown_from > start {
            terminal.read_from(start, 0).map_err(errors::from_subprocess)?.start
        } else {
            chunk.start
        };
        let left_out = (retained_from < chunk.start).then_some(ByteRange {
            start: retained_from,
            end: chunk.start,
        });
        let next = decision.end;
        // After a marker only the prompt follows: not output worth a read.
        let more = decision.decided_by != DecidedBy::PromptMarker && terminal.wait_output(u64::MAX, 0) > next;
        let at_prompt = decision.decided_by == DecidedBy::PromptMarker;
        // A command that finished may have changed directory: remembered for after the shell exits.
        registry::after_send(&id, next, !at_prompt, at_prompt.then(|| terminal.shell_cwd()).flatten());
        let output = lossy(&marker::strip(chunk.text.as_bytes(), &record.nonce));
        // A program still running that paints with cursor moves is read on its screen, whether it
        // took the alternate screen (vim, less) or draws over the shell's (top).
        let still_running = !matches!(decision.decided_by, DecidedBy::PromptMarker | DecidedBy::Exited);
        let screen = terminal.screen();
        let painted = screen.alternate || (still_running && seam_guest::plain::paints_screen(&output));
        Ok(SendResult {
            output,
            ready: decision.ready,
            decided_by: decision.decided_by,
            exit_code: decision.exit_code,
            next,
            more,
            dropped: retained_from.saturating_sub(start),
            left_out,
            full_screen: painted.then(|| snapshot(screen, &terminal)),
        })
    }

    fn read(owner: String, id: String, from_byte: Option<u64>, max_bytes: Option<u32>) -> Result<ReadResult, Error> {
        let record = registry::fenced(&owner, &id)?;
        let config = Config::load()?;
        let terminal = attach(&record)?;
        let max = max_bytes.unwrap_or(config.max_read_bytes).min(config.max_read_bytes);
        let chunk = terminal
            .read_text_from(from_byte.unwrap_or(record.cursor).max(record.origin), max)
            .map_err(errors::from_subprocess)?;
        registry::update_cursor(&id, chunk.next);
        Ok(ReadResult {
            output: lossy(&marker::strip(chunk.text.as_bytes(), &record.nonce)),
            start: chunk.start,
            next: chunk.next,
            lossy: chunk.lossy,
            more: terminal.wait_output(u64::MAX, 0) > chunk.next,
            running: terminal.exited().is_none(),
        })
    }

    fn screen(owner: String, id: String) -> Result<Snapshot, Error> {
        let record = registry::fenced(&owner, &id)?;
        let terminal = attach(&record)?;
        // What is still being printed (the prompt after a marker) is drawn before it is shown.
        let mut end = terminal.wait_output(u64::MAX, 0);
        for _ in 0..SCREEN_SETTLE_ROUNDS {
            let next = terminal.wait_output(end, SCREEN_SETTLE_MS);
            if next == end {
                break;
            }
            end = next;
        }
        Ok(snapshot(terminal.screen(), &terminal))
    }

    fn signal(owner: String, id: String, signal: String) -> Result<(), Error> {
        let record = registry::fenced(&owner, &id)?;
        let number = signals::parse(&signal)?;
        attach(&record)?
            .signal_foreground(number)
            .map_err(errors::from_subprocess)
    }

    fn close(owner: String, id: String) -> Result<(), Error> {
        let record = registry::fenced(&owner, &id)?;
        if let Ok(terminal) = attach(&record) {
            terminal.close();
        }
        registry::forget(&id);
        Ok(())
    }

    fn list_sessions(owner: String) -> Result<Vec<SessionInfo>, Error> {
        registry::check_live(&owner)?;
        let mut sessions: Vec<SessionInfo> = registry::all()
            .iter()
            .filter(|(_, record)| record.owner == owner)
            .map(|(id, record)| info(id, record))
            .collect();
        sessions.sort_by_key(|s| s.id.trim_start_matches("pty-").parse::<u64>().unwrap_or(u64::MAX));
        Ok(sessions)
    }

    fn release(owner: String) -> u32 {
        registry::release(&owner);
        let mut closed = 0;
        for (id, record) in registry::all().into_iter().filter(|(_, r)| r.owner == owner) {
            if let Ok(terminal) = attach(&record) {
                terminal.close();
            }
            registry::forget(&id);
            closed += 1;
        }
        closed
    }
}

/// Asked when a world that configures this component loads.
impl crate::bindings::exports::seam::host::config_check::Guest for crate::Provider {
    fn check() -> Result<(), String> {
        Config::load().map(drop).map_err(|error| error.message)
    }
}
