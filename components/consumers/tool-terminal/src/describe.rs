//! What the model sees: six tools over persistent terminal sessions.

use crate::bindings::seam::tool::types::ToolSpec;

const SESSION_ID: &str =
    r#""session_id": {"type": "string", "description": "The session, as terminal_open returned it (pty-N)."}"#;

fn spec(name: &str, description: &str, properties: &str, required: &[&str]) -> ToolSpec {
    ToolSpec {
        name: name.to_owned(),
        description: description.to_owned(),
        input_schema: seam_guest::json::object_schema(properties, required),
    }
}

pub fn tools() -> Vec<ToolSpec> {
    vec![
        spec(
            "terminal_open",
            "Open a persistent interactive bash session on a terminal (PTY). Unlike `bash`, its cwd, \
             variables and running programs survive across calls, so use it for interactive \
             programs (REPLs, prompts, `read`) and long-running processes you come back to. The \
             result names the session (pty-N); close it when done.",
            r#""cwd": {"type": "string", "description": "Starting directory: absolute, `~/…` in the home directory, or relative to the session's working directory."},
               "rows": {"type": "integer", "minimum": 1, "maximum": 500, "description": "Terminal height in lines (default 24)."},
               "cols": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "Terminal width in columns (default 80)."},
               "shell": {"type": "string", "description": "A bash-compatible shell instead of the default."}"#,
            &[],
        ),
        spec(
            "terminal_send",
            "Type `input` into a session (Enter is pressed unless `enter` is false) and wait until \
             it is done, waits for input, or `wait_ms` passes. The last line says which: `done, \
             exit code N`, `waiting for input` (answer with another terminal_send), or `still \
             running` (check later with terminal_read, or stop it with terminal_signal INT). One \
             send at a time per session. Output is shown as the lines it printed, without colors \
             or other terminal control sequences; byte offsets count the raw output. While a \
             full-screen program (an editor, a pager, `top`) runs, its screen is shown instead. \
             Keys are characters: \\u001b is Escape, \\u0003 is Ctrl-C to the program, \\u001b[A \
             and \\u001b[B are the up and down arrows (\\u001b[C right, \\u001b[D left).",
            &format!(
                r#"{SESSION_ID}, "input": {{"type": "string", "description": "What to type: a command, an answer, or keys."}},
                   "enter": {{"type": "boolean", "description": "Press Enter after the input (default true)."}},
                   "wait_ms": {{"type": "integer", "minimum": 0, "description": "Longest wait; 0 returns at once."}}"#
            ),
            &["session_id", "input"],
        ),
        spec(
            "terminal_read",
            "Read a session's output from where the last send or read stopped, or from `from_byte`; \
             or, with `screen`, what its terminal shows now, as a person would see it.",
            &format!(
                r#"{SESSION_ID}, "from_byte": {{"type": "integer", "minimum": 0, "description": "Byte offset in the session's output to read from (a result's next byte)."}},
                   "max_bytes": {{"type": "integer", "minimum": 1, "description": "Most bytes of output to return."}},
                   "screen": {{"type": "boolean", "description": "Show the visible screen instead of output (default false)."}}"#
            ),
            &["session_id"],
        ),
        spec(
            "terminal_signal",
            "Send a signal (INT, TERM, KILL, HUP, QUIT, TSTP, CONT) to the program in the \
             foreground of a session; INT is Ctrl-C.",
            &format!(
                r#"{SESSION_ID}, "signal": {{"type": "string", "description": "INT, TERM, KILL, HUP, QUIT, TSTP or CONT (SIGINT and int work too)."}}"#
            ),
            &["session_id", "signal"],
        ),
        spec(
            "terminal_close",
            "Close a session: its shell and everything it started are terminated.",
            SESSION_ID,
            &["session_id"],
        ),
        spec(
            "terminal_list",
            "List your open terminal sessions, each with its state: idle (at the prompt), busy \
             (a send is running), running a program (left running by an earlier send: input goes \
             to it, not to the shell), waiting for input, or exited.",
            "",
            &[],
        ),
    ]
}
