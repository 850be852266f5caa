//! The command line: argument parsing, world loading, and one module per command.

/// One line to stdout, as `println!` but returning the error: when the reader has gone
/// (`seam tools | head`) the command ends quietly instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

mod bench;
mod call;
mod check;
mod components;
mod mcp;
mod tools;

use clap::{Parser, Subcommand};
use seam_host::lane::PROGRESS_LOG;
use seam_host::{Runtime, RuntimeOptions, World, WorldError, WorldFile};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// seam gives an agent an execution world made of WebAssembly components: tools the model
/// calls (bash, ...), the providers they run on (a local machine, a sandbox), and native shims
/// beneath. A world file says which provider serves each seam; without one, the built-in
/// default world runs (local bash, unconfined).
#[derive(Parser)]
#[command(name = "seam", version, propagate_version = true, after_help = EXAMPLES)]
struct Cli {
    /// World file (TOML) naming providers and tools; default: the built-in world.
    #[arg(long, short, global = true, value_name = "FILE")]
    world: Option<PathBuf>,
    /// Workspace root and session cwd, overriding the world file's (default: current directory).
    #[arg(long, global = true, value_name = "DIR")]
    workspace: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

const EXAMPLES: &str = "Examples:
  seam tools                                   list the tools of the default world
  seam call bash '{\"command\": \"ls -la\"}'       run a tool once
  echo '{\"tool\":\"bash\",\"args\":{\"command\":\"pwd\"}}' | seam call --batch
  seam world components                        the built-in providers and tools, with what each does
  seam --world examples/worlds/local.toml world check
  seam bench --quick
  seam --workspace ~/project mcp               serve the tools to an MCP client over stdio

Logs go to stderr: warnings and progress by default (components compiling on first use, a call's
progress); RUST_LOG=seam_host=debug shows every seam crossing (component, function, duration).";

#[derive(Subcommand)]
enum Command {
    /// List the world's tools with their descriptions and argument schemas.
    Tools(tools::Args),
    /// Call a tool with JSON arguments, or many calls as JSON lines (--batch).
    #[command(after_help = call::AFTER_HELP)]
    Call(call::Args),
    /// Inspect a world.
    World {
        #[command(subcommand)]
        command: WorldCommand,
    },
    /// Measure seam against direct calls and native processes, side by side.
    Bench(bench::Args),
    /// Serve the world's tools to an MCP client over stdin/stdout (logs go to stderr).
    Mcp,
}

#[derive(Subcommand)]
enum WorldCommand {
    /// Load and link a world; print each component, its imports and what serves each, or why
    /// the world is refused.
    Check {
        /// World file (default: --world, else the built-in world).
        file: Option<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// List the built-in components a world file can name, providers and tools, with what
    /// each does.
    Components {
        /// Print JSON: [{"name", "kind", "description"}].
        #[arg(long)]
        json: bool,
    },
}

pub fn run() -> ExitCode {
    // SAFETY: the first thing `main` does, while the process has one thread.
    unsafe { seam_host::natives::initial_environ::hide() };
    seam_host::natives::own_memory::keep_private();
    keep_child_statuses();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                // Warnings, and what a person waiting should know (a component compiling).
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(format!("warn,{PROGRESS_LOG}=info"))),
        )
        .with_writer(std::io::stderr)
        // Colors for a person at a terminal; an MCP client's log file or a pipe gets plain text.
        .with_ansi(std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none())
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Tools(ref args) => load(&cli, None).and_then(|w| left_to_exit(w, |w| tools::run(w, args))),
        Command::Call(ref args) => {
            load_for_call(&cli, args.single_tool()).and_then(|w| left_to_exit(w, |w| call::run(w, args)))
        }
        Command::World {
            command: WorldCommand::Check { ref file, json },
        } => check::run(&cli, file.clone(), json),
        Command::World {
            command: WorldCommand::Components { json },
        } => components::run(json),
        Command::Bench(ref args) => bench::run(&cli, args),
        Command::Mcp => runtime().and_then(|runtime| {
            let world = load_on(&runtime, &cli, None)?;
            mcp::run(runtime, world, cli.world.as_deref(), cli.workspace.as_deref())
        }),
    };
    match result {
        Ok(code) => code,
        Err(e) if reader_gone(&e) => ExitCode::SUCCESS,
        // Asked for JSON, a caller gets JSON on stdout even when the world would not load.
        Err(e) if e.downcast_ref::<Refused>().is_some() && wants_json(&cli.command) => {
            let (code, message) = refusal(&e);
            let answer = match cli.command {
                Command::Call(_) => serde_json::json!({
                    "content": [{"type": "text", "text": message}], "is_error": true, "code": code
                }),
                _ => serde_json::json!({"refused": {"code": code, "message": message}}),
            };
            println!("{answer}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("seam: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// The process shim waits for the statuses of the children it starts. An ignored SIGCHLD is
/// inherited across exec, and with it the kernel discards those statuses: a terminal whose
/// shell exited would read as still running.
fn keep_child_statuses() {
    // SAFETY: sets the default action of one signal; no handler runs.
    unsafe { libc::signal(libc::SIGCHLD, libc::SIG_DFL) };
}

/// Whether the command failed only because stdout's reader closed it.
fn reader_gone(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Runs `command` on `world`, then leaves the world to the process's exit, which is next: the
/// kernel reclaims its compiled components, instance pool and helper processes at once, while
/// dropping it would unmap and free them one by one (a measurable part of a cold `seam call`).
fn left_to_exit(world: World, command: impl FnOnce(&World) -> anyhow::Result<ExitCode>) -> anyhow::Result<ExitCode> {
    let result = command(&world);
    std::mem::forget(world);
    result
}

fn world_file(cli: &Cli, file: Option<PathBuf>) -> anyhow::Result<WorldFile> {
    Ok(match file.or_else(|| cli.world.clone()) {
        Some(path) => WorldFile::load(&path).map_err(|e| Refused::from(WorldError::from(e)))?,
        None => WorldFile::default_world(),
    })
}

/// Whether the command prints JSON (`--json`).
fn wants_json(command: &Command) -> bool {
    match command {
        Command::Tools(args) => args.json,
        Command::Call(args) => args.json,
        _ => false,
    }
}

/// A load failure's code and message: a refused world's own, else WORLD_INVALID.
fn refusal(e: &anyhow::Error) -> (&'static str, String) {
    match e.downcast_ref::<Refused>() {
        Some(refused) => (refused.code, refused.message.clone()),
        None => ("WORLD_INVALID", format!("{e:#}")),
    }
}

/// A world that would not load, with its stable code: `[CODE] message` as text.
#[derive(Debug, thiserror::Error)]
#[error("[{code}] {message}")]
pub struct Refused {
    pub code: &'static str,
    pub message: String,
}

impl From<WorldError> for Refused {
    fn from(error: WorldError) -> Self {
        Self {
            code: error.code(),
            message: error.to_string(),
        }
    }
}

/// The world of a one-shot command (`seam tools`, `seam world check`), on a runtime sized for it.
fn load(cli: &Cli, file: Option<PathBuf>) -> anyhow::Result<World> {
    let file = world_file(cli, file)?;
    load_file(&one_shot_runtime(&file)?, cli, file)
}

fn load_on(runtime: &Arc<Runtime>, cli: &Cli, file: Option<PathBuf>) -> anyhow::Result<World> {
    load_file(runtime, cli, world_file(cli, file)?)
}

fn load_file(runtime: &Arc<Runtime>, cli: &Cli, file: WorldFile) -> anyhow::Result<World> {
    Ok(World::load(runtime, file, cli.workspace.as_deref()).map_err(Refused::from)?)
}

/// The world of `seam call`: for one call, what that tool can reach (see `World::load_for`);
/// for `--batch`, the whole world on a runtime that keeps spare lanes between calls.
fn load_for_call(cli: &Cli, tool: Option<&str>) -> anyhow::Result<World> {
    let Some(tool) = tool else {
        return load_on(&runtime()?, cli, None);
    };
    let file = world_file(cli, None)?;
    Ok(World::load_for(&one_shot_runtime(&file)?, file, cli.workspace.as_deref(), tool).map_err(Refused::from)?)
}

fn runtime() -> anyhow::Result<Arc<Runtime>> {
    Runtime::new().map_err(|e| anyhow::anyhow!("cannot start the wasm runtime: {e:#}"))
}

/// A runtime for a process that exits after one call or load of `file`'s world.
fn one_shot_runtime(file: &WorldFile) -> anyhow::Result<Arc<Runtime>> {
    Runtime::with_options(RuntimeOptions::one_shot(file.component_count()))
        .map_err(|e| anyhow::anyhow!("cannot start the wasm runtime: {e:#}"))
}
