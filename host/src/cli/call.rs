//! `seam call`: one call from the command line, or a script of calls as JSON lines.

use seam_host::lane::PROGRESS_LOG;
use seam_host::{Content, Progress, ToolResult, World};
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args)]
pub struct Args {
    /// The tool to call (see `seam tools`).
    #[arg(required_unless_present = "batch")]
    tool: Option<String>,
    /// The arguments, a JSON object; `-` reads them from stdin (a whole file's content for
    /// `write`, say, without quoting it for the shell).
    #[arg(default_value = "{}")]
    arguments: String,
    /// Print the whole result as JSON: {content, is_error, code}.
    #[arg(long)]
    pub json: bool,
    /// Read calls from stdin, one JSON object per line: {"tool": NAME, "args": {...}}; answer
    /// each with one JSON line (blank lines are skipped). All calls share one session of one world; a line
    /// {"sandbox_mode": MODE} changes that session's standing sandbox mode. At the end of input
    /// the session's agent is released: its terminals and background jobs are closed. Exits 1
    /// when any line's result is an error.
    #[arg(long, conflicts_with_all = ["tool", "json"])]
    batch: bool,
}

pub const AFTER_HELP: &str =
    "Output: the result on stdout. On stderr, `[error: CODE]` after an error's text, and progress
lines: components compiling on first use, and what the call says while it runs (a command's
description, a language server indexing).
Exit status: 0; 1 when the result is an error (with --batch, when any line's is); 2 when the
world is refused or the command line is wrong.";

impl Args {
    /// The tool of a single call; None for a batch.
    pub fn single_tool(&self) -> Option<&str> {
        self.tool.as_deref().filter(|_| !self.batch)
    }
}

pub fn run(world: &World, args: &Args) -> anyhow::Result<ExitCode> {
    if args.batch {
        return batch(world);
    }
    let tool = args.tool.as_deref().unwrap_or_default();
    let arguments = match args.arguments.as_str() {
        "-" => std::io::read_to_string(std::io::stdin().lock())
            .map_err(|e| anyhow::anyhow!("cannot read the arguments from stdin: {e}"))?,
        given => given.to_owned(),
    };
    let result = world.call(tool, &arguments, context(world, tool, "cli"));
    if args.json {
        say!("{}", serde_json::to_string(&result)?)?;
    } else {
        print_content(&result)?;
        if let (true, Some(code)) = (result.is_error, &result.code) {
            eprintln!("[error: {code}]");
            if code == "INVALID_ARGUMENTS"
                && let Some(hint) = arguments_hint(world, tool, &arguments)
            {
                eprintln!("{hint}");
            }
        }
    }
    Ok(if result.is_error {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// For arguments that are not a JSON object (a command typed as is, say), how to write them:
/// the tool's one required text argument holding what was typed, else where they are described.
fn arguments_hint(world: &World, tool: &str, arguments: &str) -> Option<String> {
    if serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(arguments).is_ok() {
        return None;
    }
    let schema = world.spec_of(tool)?.input_schema;
    let required = schema["required"].as_array().map(Vec::as_slice).unwrap_or_default();
    let example = match required {
        [name] if schema["properties"][name.as_str()?]["type"] == "string" => {
            let object = serde_json::json!({ name.as_str()?: arguments });
            // Single-quoted for the shell: a quote inside ends the quoting, is escaped, resumes it.
            format!(
                ", for example: seam call {tool} '{}'",
                object.to_string().replace('\'', r"'\''")
            )
        }
        _ => String::new(),
    };
    Some(format!(
        "The arguments are one JSON object{example}; `seam tools` describes each tool's."
    ))
}

/// The session's standing sandbox mode set by batch line `line`.
fn set_mode(world: &World, mode: &str, line: usize) -> ToolResult {
    let Some(parsed) = seam_host::world::file::SandboxMode::parse(mode) else {
        return ToolResult::error(
            "INVALID_REQUEST",
            format!("line {line}: sandbox_mode {mode:?}: expected read-only, workspace-write or danger-full-access"),
        );
    };
    match world.set_sandbox_mode(&world.session().id, parsed) {
        Ok(()) => ToolResult {
            content: vec![seam_host::Content::Text {
                text: format!("sandbox mode of this session: {mode}"),
            }],
            is_error: false,
            code: None,
        },
        Err(error) => error,
    }
}

/// Approvals are asked on the controlling terminal, whatever stdin and stdout carry; what the
/// tool says of its progress (a language server indexing, a command's description) goes to
/// stderr with the other progress lines.
fn context(world: &World, tool: &str, call_id: &str) -> seam_host::CallContext {
    let mut context = world.call_context(call_id);
    context.asker = Some(seam_host::approval::terminal_asker());
    let tool = tool.to_owned();
    context.progress = Some(Arc::new(move |progress: Progress| {
        if let Some(line) = progress_line(&progress) {
            tracing::info!(target: PROGRESS_LOG, "{tool}: {line}");
        }
    }));
    context
}

/// A progress report as a line: its message and, when the total is known, how far it is.
fn progress_line(progress: &Progress) -> Option<String> {
    let done = progress.total.map(|total| format!("{} of {total}", progress.done));
    match (&progress.message, done) {
        (Some(message), Some(done)) => Some(format!("{message} ({done})")),
        (Some(message), None) => Some(message.clone()),
        (None, done) => done,
    }
}

fn print_content(result: &ToolResult) -> std::io::Result<()> {
    for content in &result.content {
        match content {
            Content::Text { text } => say!("{text}")?,
            Content::Image { data, mime_type } => say!("[image: {mime_type}, {} base64 characters]", data.len())?,
        }
    }
    Ok(())
}

/// One batch line: a call, {"tool": NAME, "args": {...}}, or a change of the session's standing
/// sandbox mode, as a user would make between calls: {"sandbox_mode": "workspace-write"}.
/// The arguments stay the text they were: a call's JSON (a whole file for a write) is parsed
/// once, by the tool.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct BatchLine<'a> {
    tool: Option<String>,
    #[serde(borrow)]
    args: Option<&'a serde_json::value::RawValue>,
    sandbox_mode: Option<String>,
}

fn batch(world: &World) -> anyhow::Result<ExitCode> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut failed = false;
    // Lines are split as bytes: a line that is not UTF-8 is answered as a bad line, and the
    // lines after it still run.
    for (index, line) in std::io::stdin().lock().split(b'\n').enumerate() {
        let line = line?;
        let Ok(line) = std::str::from_utf8(&line) else {
            let result = ToolResult::error("INVALID_REQUEST", format!("line {}: not UTF-8", index + 1));
            writeln!(out, "{}", serde_json::to_string(&result)?)?;
            out.flush()?;
            failed = true;
            continue;
        };
        // Editors on some systems start a UTF-8 file with a byte order mark.
        let line = if index == 0 {
            line.trim_start_matches('\u{feff}')
        } else {
            line
        };
        if line.trim().is_empty() {
            continue;
        }
        let parsed = serde_json::from_str::<BatchLine<'_>>(line);
        let result = match parsed {
            Ok(BatchLine {
                tool: Some(tool),
                args,
                sandbox_mode: None,
            }) => {
                let arguments = args.map_or("null", |args| args.get());
                let arguments = if arguments == "null" { "{}" } else { arguments };
                world.call(&tool, arguments, context(world, &tool, &format!("batch-{}", index + 1)))
            }
            Ok(BatchLine {
                tool: None,
                args: None,
                sandbox_mode: Some(mode),
            }) => set_mode(world, &mode, index + 1),
            other => ToolResult::error(
                "INVALID_REQUEST",
                format!(
                    "line {}: expected {{\"tool\": NAME, \"args\": {{...}}}} or {{\"sandbox_mode\": MODE}}{}",
                    index + 1,
                    // What serde saw wrong (bad JSON, an unknown key) says what to fix.
                    other.err().map(|e| format!(" ({e})")).unwrap_or_default()
                ),
            ),
        };
        failed |= result.is_error;
        writeln!(out, "{}", serde_json::to_string(&result)?)?;
        out.flush()?;
    }
    // The session's agent is done: its terminals and background jobs end now, in order,
    // rather than by the host's exit.
    world.release_agent(&world.session().agent);
    Ok(if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}
