//! Waiting for a sent command: which rule decides, in order of authority.
//!
//! 1. the prompt marker of this session came back: the command finished (`prompt-marker`);
//! 2. the shell exited (`exited`);
//! 3. the absolute bound passed: still running (`timeout`);
//! 4. the foreground process sleeps reading the terminal and output has settled (`stdin-wait`);
//!    a full-screen program (on the alternate screen) must be seen waiting for longer;
//! 5. no output for readiness-ms while the shell sits idle on the terminal (at a continuation
//!    prompt, or with its marker hook removed) or the foreground cannot be read, and it has sat
//!    there readiness-ms (`silence`). A quiet foreground job (`sleep`) is running, not silent: it
//!    waits for 3. So is the shell in front but not on the terminal: it runs the command itself
//!    (builtins, a read from a pipe), or, on a busy machine, has not yet printed its prompt after
//!    a job ended.
//!
//! When the send was typed while an earlier command still ran (`typed_ahead`), the first marker
//! may be that command's: the shell then runs the typed-ahead line at once, so a marker decides
//! only once output has settled and the shell sleeps on the terminal again (it has taken all that
//! was typed), and the last one wins. A program in front after a marker shows it was the earlier
//! command's: the other rules judge the program the typed line started. An earlier command whose
//! marker came back before the send (one interrupted, say) is over: its send is not typed ahead.
//!
//! A cancelled call delivers a real SIGINT to the foreground process group, then keeps waiting
//! (bounded by readiness-ms) for the prompt to come back.

use std::time::{Duration, Instant};

use crate::bindings::exports::seam::terminal::terminal::DecidedBy;
use crate::bindings::seam::subprocess::subprocess::Terminal;
use crate::bindings::seam::tool::context;
use crate::config::Config;
use crate::marker;

const SIGINT: i32 = 2;
/// A program's last output burst must be this old before its stdin-wait counts.
const SETTLE: Duration = Duration::from_millis(30);
/// A full-screen program must be seen waiting this long, with no output, before its stdin-wait
/// counts: editors and pagers wait on the terminal with a timeout between steps of one action
/// (vim pauses 100 ms while it quits), which a person watching would not take for a question.
/// Counted from when the wait was first seen, not from the last output: on a busy machine the
/// program may reach that short wait long after it last printed.
const FULL_SCREEN_SETTLE: Duration = Duration::from_millis(200);

/// How long a send waits for the shell's line editor to take the terminal after its prompt
/// marker: what the prompt runs comes in between (a PS1 that asks git for the branch).
const LINE_EDITOR_WAIT: Duration = Duration::from_millis(1_000);
/// How often, while the terminal still echoes, the shell is looked for asleep on it: one that is
/// reads without an editor (`bash --noediting`), and the terminal's echo is the only one.
const LINE_EDITOR_LOOK: Duration = Duration::from_millis(5);

pub struct Decision {
    pub decided_by: DecidedBy,
    pub ready: bool,
    pub exit_code: Option<i32>,
    /// Offset just past the command's output (past the marker when it decided).
    pub end: u64,
    /// Where the marker started, when it decided.
    pub output_end: u64,
}

/// Waits from `start` (the offset before the input was written).
pub fn wait(
    terminal: &Terminal,
    nonce: &str,
    start: u64,
    wait_ms: u32,
    typed_ahead: bool,
    config: &Config,
) -> Decision {
    let began = Instant::now();
    let mut deadline = began + Duration::from_millis(wait_ms.into());
    let poll = Duration::from_millis(config.poll_ms.into());
    let readiness = Duration::from_millis(config.readiness_ms.into());
    let mut end = terminal.wait_output(u64::MAX, 0);
    let mut last_output = began;
    let mut scanned = start;
    let mut interrupted = false;
    let mut last_marker = None;
    // Since when the shell has been seen idle on the terminal (or the foreground unreadable).
    let mut idle_since = None;
    // Since when the foreground has been seen waiting for input, with no output since.
    let mut waiting_since = None;
    loop {
        if let Some(found) = scan(terminal, nonce, start, &mut scanned, end) {
            last_marker = Some(found);
        }
        let settled = !typed_ahead || last_output.elapsed() >= SETTLE || Instant::now() >= deadline;
        if let Some(((marker_start, marker_end), exit_code)) = last_marker.filter(|_| settled) {
            let typed = if typed_ahead {
                typed_line(terminal, &mut end)
            } else {
                TypedLine::Taken
            };
            match typed {
                TypedLine::Taken => {
                    return Decision {
                        decided_by: DecidedBy::PromptMarker,
                        ready: true,
                        exit_code,
                        end: marker_end,
                        output_end: marker_start,
                    };
                }
                // The marker was the earlier command's; the other rules judge what runs now.
                TypedLine::Running => last_marker = None,
                TypedLine::Unknown => {}
            }
        }
        let quiet = last_output.elapsed();
        let decided = if let Some(outcome) = terminal.exited() {
            Some((DecidedBy::Exited, false, outcome.exit_code))
        } else if Instant::now() >= deadline {
            Some((DecidedBy::Timeout, false, None))
        } else if last_marker.is_some() {
            // A marker is settling (typed ahead): wait for the output to pause.
            None
        } else if quiet >= SETTLE.min(readiness) {
            // Reading /proc costs more than a wait: only once output paused.
            match terminal.foreground() {
                Ok(fg) if fg.waiting_for_input => {
                    let waited = waiting_since.get_or_insert_with(Instant::now).elapsed();
                    if waited < FULL_SCREEN_SETTLE && terminal.screen().alternate {
                        None
                    } else {
                        // Output since the last wait means it woke after the look (vim leaving
                        // the alternate screen as its pause ends), or that its prompt came late:
                        // either way the output has not settled; the next wait takes it in.
                        let now = terminal.wait_output(u64::MAX, 0);
                        (now == end).then_some((DecidedBy::StdinWait, true, None))
                    }
                }
                Ok(fg) if !fg.shell_waiting => {
                    idle_since = None;
                    waiting_since = None;
                    None
                }
                _ => {
                    waiting_since = None;
                    let idle = idle_since.get_or_insert_with(Instant::now).elapsed();
                    let silent = quiet >= readiness && idle >= readiness && !interrupted;
                    silent.then_some((DecidedBy::Silence, false, None))
                }
            }
        } else {
            None
        };
        if let Some((decided_by, ready, exit_code)) = decided {
            return Decision {
                decided_by,
                ready,
                exit_code,
                end,
                output_end: end,
            };
        }
        if !interrupted && context::cancelled() {
            interrupted = true;
            // A real signal to the foreground group, never a \x03 written to the terminal.
            let _ = terminal.signal_foreground(SIGINT);
            deadline = deadline.min(Instant::now() + readiness.max(Duration::from_millis(500)));
        }
        let remaining = deadline.saturating_duration_since(Instant::now());
        let next = terminal.wait_output(end, poll.min(remaining).as_millis() as u32);
        if next > end {
            end = next;
            last_output = Instant::now();
            waiting_since = None;
        }
    }
}

/// Waits until the shell's line editor holds the terminal, so what is typed next is echoed once.
/// The prompt marker comes before the prompt and the editor: a command typed in between is
/// echoed by the terminal, then again by the editor as it reads it.
pub fn wait_for_line_editor(terminal: &Terminal) {
    let began = Instant::now();
    let mut end = terminal.wait_output(u64::MAX, 0);
    // Reading /proc costs more than a look at the terminal's modes: now and then.
    let mut next_look = began + LINE_EDITOR_LOOK;
    while terminal.echoes().unwrap_or(false) && began.elapsed() < LINE_EDITOR_WAIT {
        if Instant::now() >= next_look {
            if terminal.foreground().is_ok_and(|fg| fg.shell_waiting) {
                return;
            }
            next_look = Instant::now() + LINE_EDITOR_LOOK;
        }
        end = terminal.wait_output(end, 1);
    }
}

/// Whether a prompt marker came back between `from` and `to`: the command an earlier send left
/// running has finished. Only the last stretch is read, where its marker would be.
pub fn finished_between(terminal: &Terminal, nonce: &str, from: u64, to: u64) -> bool {
    const TAIL: u64 = 4096;
    let from = from.max(to.saturating_sub(TAIL));
    to > from
        && terminal
            .read_text_from(from, (to - from) as u32)
            .is_ok_and(|chunk| marker::find_last(chunk.text.as_bytes(), nonce).is_some())
}

/// What a settled marker says of a line typed ahead.
enum TypedLine {
    /// The shell ran it: the marker is its own.
    Taken,
    /// A program runs in front: the marker was the earlier command's, printed before the shell
    /// read this line and started the program.
    Running,
    /// Not known yet.
    Unknown,
}

/// Typed ahead, the last marker may be the earlier command's, printed before the shell read this
/// one: it is this one's once the shell sleeps on the terminal again, having taken all that was
/// typed and run it, and all it printed before has been scanned (else `end` moves on, to be).
/// The shell merely in front is not enough, however long: it is there between the jobs of a
/// command, and while it runs a loop of builtins. Where the foreground cannot be read at all, the
/// marker decides.
fn typed_line(terminal: &Terminal, end: &mut u64) -> TypedLine {
    match terminal.foreground() {
        Ok(fg) if !fg.is_shell => return TypedLine::Running,
        Ok(fg) if !fg.shell_waiting => return TypedLine::Unknown,
        _ => {}
    }
    let next = terminal.wait_output(u64::MAX, 0);
    let unscanned = next > *end;
    *end = next;
    if unscanned {
        TypedLine::Unknown
    } else {
        TypedLine::Taken
    }
}

type Span = (u64, u64);

/// Scans new output (never before `start`: the previous prompt's marker is there) for the
/// marker; remembers how far it looked, keeping a marker's length of overlap so one split across
/// two waits is still found.
fn scan(terminal: &Terminal, nonce: &str, start: u64, scanned: &mut u64, end: u64) -> Option<(Span, Option<i32>)> {
    if end <= *scanned {
        return None;
    }
    let from = scanned.saturating_sub(64).max(start);
    let text = terminal.read_text_from(from, (end - from) as u32).ok()?;
    // Positions in text are byte offsets unless bytes that are not UTF-8 were replaced.
    let (chunk_start, next, found) = if text.replaced {
        let chunk = terminal.read_from(from, (end - from) as u32).ok()?;
        (chunk.start, chunk.next, marker::find_last(&chunk.data, nonce))
    } else {
        (text.start, text.next, marker::find_last(text.text.as_bytes(), nonce))
    };
    *scanned = next;
    let found = found?;
    Some((
        (chunk_start + found.start as u64, chunk_start + found.end as u64),
        found.status,
    ))
}
