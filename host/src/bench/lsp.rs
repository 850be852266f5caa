//! Warm hover through tool-lsp (lane, tool-lsp, lsp-stdio, fs and subprocess providers, the
//! transient didOpen → hover → didClose) against the same sequence written directly to a
//! second rust-analyzer's pipes, on the same project, in the same run.

use super::{Row, median, thread_cpu};
use crate::{Runtime, World, WorldFile};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

const LIB_RS: &str = include_str!("../../../tests/fixtures/lsp/rust/src/lib.rs");
const SHAPES_RS: &str = include_str!("../../../tests/fixtures/lsp/rust/src/shapes.rs");
const CARGO_TOML: &str = include_str!("../../../tests/fixtures/lsp/rust/Cargo.toml");

/// rust-analyzer's options in both runs: the project has no build scripts or proc macros, and
/// no background cache priming competes with the measured hovers.
fn initialization_options() -> Value {
    json!({"cargo": {"buildScripts": {"enable": false}}, "procMacro": {"enable": false}, "checkOnSave": false,
           "cachePriming": {"enable": false}})
}

const WORLD: &str = r#"tools = ["tool-lsp"]
[providers]
subprocess = "subprocess-local"
fs = "fs-local"
lsp = "lsp-stdio"
[config.lsp-stdio.servers.rust-analyzer]
command = ["rust-analyzer"]
extensions = [".rs"]
initialization_options = { cargo = { buildScripts = { enable = false } }, procMacro = { enable = false }, checkOnSave = false, cachePriming = { enable = false } }
"#;

/// Where the hover asks: `total_area` on the line with non-ASCII text before it (1-based).
fn hover_position() -> (u32, u32) {
    let (index, line) = LIB_RS
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("é😀"))
        .expect("the fixture has its non-ASCII line");
    let at = line.find("total_area").expect("the call is on that line");
    (index as u32 + 1, line[..at].encode_utf16().count() as u32 + 1)
}

/// The warm hover's wall time against the direct client's, and the calling thread's CPU per
/// hover on each side (steadier than wall time on a shared machine).
pub(super) fn hover(runtime: &Arc<Runtime>, n: u32) -> anyhow::Result<Vec<Row>> {
    // Each server gets its own copy of the crate: rust-analyzer watches its files, and seam
    // reading the document must not wake the other server in the middle of a measurement.
    let project = Project::new("seam")?;
    let root = project.0.clone();
    let direct_project = Project::new("direct")?;

    let world = World::load(
        runtime,
        WorldFile::parse(WORLD, "<lsp bench world>", &root)?,
        Some(&root),
    )?;
    let (line, character) = hover_position();
    let args =
        json!({"operation": "hover", "file_path": "src/lib.rs", "line": line, "character": character}).to_string();
    let through_tool = || {
        let (start, cpu) = (Instant::now(), thread_cpu());
        let result = world.call("lsp", &args, world.call_context("bench"));
        anyhow::ensure!(
            !result.is_error && result.text().contains("fn total_area"),
            "lsp hover: {}",
            result.text()
        );
        Ok((start.elapsed().as_secs_f64() * 1e3, cpu_micros_since(cpu)))
    };
    // The first query waits for indexing.
    through_tool()?;

    let mut direct = Direct::start(&direct_project.0)?;
    direct.warm_up(line - 1, character - 1)?;

    let (mut tool, mut pipes, mut tool_cpu, mut pipes_cpu) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..n {
        let (ms, cpu) = through_tool()?;
        tool.push(ms);
        tool_cpu.push(cpu);
        let cpu = thread_cpu();
        pipes.push(direct.hover_ms(line - 1, character - 1)?);
        pipes_cpu.push(cpu_micros_since(cpu));
    }
    direct.stop();
    Ok(vec![
        Row::versus(
            "lsp_hover_warm_vs_direct_pipes",
            median(tool),
            median(pipes),
            "ms",
            "≤ 1.2×",
        ),
        Row::versus(
            "lsp_hover_calling_thread_cpu",
            median(tool_cpu),
            median(pipes_cpu),
            "µs",
            "—",
        ),
    ])
}

fn cpu_micros_since(before: Duration) -> f64 {
    (thread_cpu() - before).as_secs_f64() * 1e6
}

/// The fixture crate in a scratch directory, removed at the end.
struct Project(std::path::PathBuf);

impl Project {
    fn new(name: &str) -> anyhow::Result<Self> {
        let dir = std::env::temp_dir().join(format!("seam-bench-lsp-{name}-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("src"))?;
        let project = Self(std::fs::canonicalize(dir)?);
        std::fs::write(project.0.join("Cargo.toml"), CARGO_TOML)?;
        std::fs::write(project.0.join("src/lib.rs"), LIB_RS)?;
        std::fs::write(project.0.join("src/shapes.rs"), SHAPES_RS)?;
        Ok(project)
    }
}

impl Drop for Project {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// rust-analyzer driven over its pipes by a minimal client.
struct Direct {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    uri: String,
    next_id: u64,
    quiescent: bool,
}

impl Direct {
    fn start(root: &Path) -> anyhow::Result<Self> {
        let mut child = Command::new("rust-analyzer")
            .current_dir(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| anyhow::anyhow!("cannot start rust-analyzer: {e}"))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        let root_uri = format!("file://{}", root.display());
        let mut direct = Self {
            child,
            stdin,
            stdout,
            uri: format!("{root_uri}/src/lib.rs"),
            next_id: 1,
            quiescent: false,
        };
        let params = json!({
            "processId": null,
            "rootUri": root_uri,
            "workspaceFolders": [{"uri": root_uri, "name": "bench"}],
            "initializationOptions": initialization_options(),
            "capabilities": {
                "general": {"positionEncodings": ["utf-8", "utf-16"]},
                "window": {"workDoneProgress": true},
                "workspace": {"configuration": true},
                "textDocument": {"hover": {"contentFormat": ["markdown", "plaintext"]}},
                "experimental": {"serverStatusNotification": true},
            },
        });
        direct.request("initialize", params)?;
        direct.send(&json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}))?;
        Ok(direct)
    }

    /// Wait until the server is quiescent (indexed), then hover until it answers for real.
    fn warm_up(&mut self, line: u32, character: u32) -> anyhow::Result<()> {
        while !self.quiescent {
            let message = self.receive()?;
            self.serve(message, 0)?;
        }
        let deadline = Instant::now() + Duration::from_secs(300);
        loop {
            if self.hover(line, character)?.get("contents").is_some() {
                return Ok(());
            }
            anyhow::ensure!(Instant::now() < deadline, "rust-analyzer never answered the hover");
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    fn hover_ms(&mut self, line: u32, character: u32) -> anyhow::Result<f64> {
        let start = Instant::now();
        let answer = self.hover(line, character)?;
        anyhow::ensure!(answer.get("contents").is_some(), "direct hover: {answer}");
        Ok(start.elapsed().as_secs_f64() * 1e3)
    }

    /// The same transient open as lsp-stdio's: didOpen version 1 → hover → didClose.
    fn hover(&mut self, line: u32, character: u32) -> anyhow::Result<Value> {
        // The server negotiated UTF-8 (as with lsp-stdio): convert the UTF-16 column.
        let text = LIB_RS.lines().nth(line as usize).unwrap_or_default();
        let byte = text
            .char_indices()
            .scan(0u32, |units, (at, c)| {
                let here = *units;
                *units += c.len_utf16() as u32;
                Some((at, here))
            })
            .find(|&(_, units)| units == character)
            .map_or(text.len(), |(at, _)| at);
        let document = json!({"uri": self.uri});
        // didOpen goes out in the same write as the request, as lsp-stdio sends it.
        let open = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": self.uri, "languageId": "rust", "version": 1, "text": LIB_RS}}});
        let answer = self.request_after(
            &[open],
            "textDocument/hover",
            json!({"textDocument": document, "position": {"line": line, "character": byte}}),
        );
        self.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": document}}))?;
        answer
    }

    fn request(&mut self, method: &str, params: Value) -> anyhow::Result<Value> {
        self.request_after(&[], method, params)
    }

    /// A request written in one go after `notifications`, and its answer.
    fn request_after(&mut self, notifications: &[Value], method: &str, params: Value) -> anyhow::Result<Value> {
        let id = self.next_id;
        self.next_id += 1;
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let mut messages = notifications.to_vec();
        messages.push(request);
        self.send_all(&messages)?;
        loop {
            let message = self.receive()?;
            if let Some(answer) = self.serve(message, id)? {
                return Ok(answer);
            }
        }
    }

    /// Answer the server's own requests (nothing configured, progress tokens accepted), note its
    /// status, and return the result when `message` answers request `id`.
    fn serve(&mut self, message: Value, id: u64) -> anyhow::Result<Option<Value>> {
        match (message.get("method").and_then(Value::as_str), message.get("id")) {
            (Some(method), Some(request)) => {
                let result = match method {
                    "workspace/configuration" => {
                        let items = message["params"]["items"].as_array().map_or(0, Vec::len);
                        Value::Array(vec![Value::Null; items])
                    }
                    _ => Value::Null,
                };
                self.send(&json!({"jsonrpc": "2.0", "id": request, "result": result}))?;
            }
            (Some("experimental/serverStatus"), None) => {
                self.quiescent = message["params"]["quiescent"].as_bool().unwrap_or(false);
            }
            (None, Some(answered)) if answered.as_u64() == Some(id) => {
                return Ok(Some(message.get("result").cloned().unwrap_or(Value::Null)));
            }
            _ => {}
        }
        Ok(None)
    }

    fn send(&mut self, message: &Value) -> anyhow::Result<()> {
        self.send_all(std::slice::from_ref(message))
    }

    /// Messages framed into one buffer and written with one write.
    fn send_all(&mut self, messages: &[Value]) -> anyhow::Result<()> {
        let mut wire = Vec::new();
        for message in messages {
            let body = serde_json::to_vec(message)?;
            write!(wire, "Content-Length: {}\r\n\r\n", body.len())?;
            wire.extend_from_slice(&body);
        }
        self.stdin.write_all(&wire)?;
        Ok(self.stdin.flush()?)
    }

    fn receive(&mut self) -> anyhow::Result<Value> {
        let mut length = None;
        loop {
            let mut header = String::new();
            anyhow::ensure!(
                self.stdout.read_line(&mut header)? > 0,
                "rust-analyzer closed its output"
            );
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some(value) = header.strip_prefix("Content-Length:") {
                length = Some(value.trim().parse::<usize>()?);
            }
        }
        let mut body = vec![0; length.ok_or_else(|| anyhow::anyhow!("a frame without Content-Length"))?];
        self.stdout.read_exact(&mut body)?;
        Ok(serde_json::from_slice(&body)?)
    }

    fn stop(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
