//! `tool-terminal`: the terminal_* tools a model calls, over whichever terminal provider the
//! world links. Every call names the calling agent as the session owner; a session opens under
//! the session's sandbox policy.

mod args;
mod describe;
mod render;

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:tool-terminal;

            world tool-terminal {
                import seam:terminal/terminal@0.1.0;
                import seam:sandbox/policy@0.1.0;
                import seam:tool/context@0.1.0;
                export seam:tool/tool@0.1.0;
            }
        "#,
        // Dependencies first: terminal uses seam:sandbox.
        path: ["../../../wit/sandbox", "../../../wit/terminal", "../../../wit/tool"],
        generate_all,
    });
}

seam_guest::wit_tool_result!(bindings::seam::tool::types);

use bindings::exports::seam::tool::tool::{Call, Guest, ToolResult, ToolSpec};
use bindings::seam::sandbox::policy;
use bindings::seam::terminal::terminal::{self, Error, SpawnRequest};
use bindings::seam::tool::context;
use seam_guest::args::parse;

struct ToolTerminal;

impl Guest for ToolTerminal {
    fn describe() -> Vec<ToolSpec> {
        describe::tools()
    }

    fn invoke(call: Call) -> ToolResult {
        let owner = call.session.agent.as_str();
        let result = match call.name.as_str() {
            "terminal_open" => parse(&call.arguments).map(|a| open(owner, &call.session.id, &call.session.cwd, a)),
            "terminal_send" => parse(&call.arguments).map(|a| send(owner, a)),
            "terminal_read" => parse(&call.arguments).map(|a| read(owner, a)),
            "terminal_signal" => parse(&call.arguments).map(|a| signal(owner, a)),
            "terminal_close" => parse(&call.arguments).map(|a| close(owner, a)),
            "terminal_list" => parse::<args::List>(&call.arguments).map(|_| list(owner)),
            other => {
                let message = format!("tool-terminal has no tool named {other:?}");
                return seam_guest::ToolResult::error("UNKNOWN_TOOL", message).into();
            }
        };
        match result {
            Ok(Ok(text)) => seam_guest::ToolResult::text(text),
            Ok(Err(error)) => seam_guest::ToolResult::error(error.code, error.message),
            Err(bad_args) => bad_args.into(),
        }
        .into()
    }
}

/// A session under the session's standing sandbox policy: a confining provider runs its shell
/// inside the sandbox, one that does not confine runs it as it is.
fn open(owner: &str, session: &str, session_cwd: &str, a: args::Open) -> Result<String, Error> {
    let standing = policy::resolve(session, Some(session_cwd), None).map_err(|e| Error {
        code: e.code,
        message: e.message,
    })?;
    let request = SpawnRequest {
        cwd: seam_guest::paths::in_session(a.cwd.as_deref(), session_cwd, context::home),
        rows: a.rows,
        cols: a.cols,
        env: Vec::new(),
        shell: a.shell,
        sandbox: Some(standing.policy),
    };
    let info = terminal::spawn(owner, &request)?;
    Ok(format!(
        "Opened terminal session {}.\n{}",
        info.id,
        render::session(&info)
    ))
}

fn send(owner: &str, a: args::Send) -> Result<String, Error> {
    let result = terminal::send(owner, &a.session_id, &a.typed(), a.wait_ms)?;
    Ok(render::send(&a.session_id, &result))
}

fn read(owner: &str, a: args::Read) -> Result<String, Error> {
    if a.screen {
        if a.from_byte.is_some() || a.max_bytes.is_some() {
            return Err(Error {
                code: seam_guest::args::INVALID_ARGUMENTS.to_owned(),
                message: "`screen` shows the visible screen; `from_byte` and `max_bytes` read the output \
                          stream: give one or the other"
                    .to_owned(),
            });
        }
        let screen = terminal::screen(owner, &a.session_id)?;
        return Ok(render::screen_read(&a.session_id, &screen));
    }
    let result = terminal::read(owner, &a.session_id, a.from_byte, a.max_bytes)?;
    Ok(render::read(&a.session_id, &result))
}

fn signal(owner: &str, a: args::Signal) -> Result<String, Error> {
    terminal::signal(owner, &a.session_id, &a.signal)?;
    Ok(format!("Sent {} to the foreground of {}.", a.signal, a.session_id))
}

fn close(owner: &str, a: args::Close) -> Result<String, Error> {
    terminal::close(owner, &a.session_id)?;
    Ok(format!("Closed terminal session {}.", a.session_id))
}

fn list(owner: &str) -> Result<String, Error> {
    let sessions = terminal::list_sessions(owner)?;
    if sessions.is_empty() {
        return Ok("No open terminal sessions.".to_owned());
    }
    Ok(sessions.iter().map(render::session).collect::<Vec<_>>().join("\n"))
}

bindings::export!(ToolTerminal with_types_in bindings);
