//! `seam bench`: seam's costs measured side by side with what they replace, in one run, so
//! ratios hold on a noisy machine.

mod fs;
mod lsp;
mod plugins;
mod sandbox;
mod swap;
mod terminal;

use crate::natives::process::{CollectSpec, OutputSpec, ProcessTable, SpawnSpec, Stream};
use crate::world::builtin;
use crate::{Runtime, World, WorldFile};
use serde::Serialize;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};
use wasmtime::Store;
use wasmtime::component::{Linker, ResourceTable};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

/// One line of the report.
#[derive(Debug, Serialize)]
pub struct Row {
    pub name: &'static str,
    pub value: f64,
    pub baseline: Option<f64>,
    pub ratio: Option<f64>,
    pub unit: &'static str,
    pub goal: &'static str,
}

impl Row {
    fn versus(name: &'static str, value: f64, baseline: f64, unit: &'static str, goal: &'static str) -> Self {
        Self {
            name,
            value,
            baseline: Some(baseline),
            ratio: Some(value / baseline),
            unit,
            goal,
        }
    }
}

pub struct Options {
    pub quick: bool,
    /// Groups to run (see [`GROUPS`]); empty runs them all.
    pub only: Vec<String>,
    /// The `seam` executable, for the cold-process row.
    pub seam_exe: std::path::PathBuf,
    pub workspace: std::path::PathBuf,
}

impl Options {
    fn wants(&self, group: &str) -> bool {
        self.only.is_empty() || self.only.iter().any(|g| g == group)
    }
}

/// The benchmark groups, in the order they run; `seam bench --only` selects among them.
pub const GROUPS: &[&str] = &[
    "crossing", "lane", "bash", "cli", "mcp", "sandbox", "fs", "swap", "terminal", "lsp", "plugins",
];

/// Run the selected benchmarks; `report` is called with each row as soon as it is measured.
pub fn run(runtime: &Arc<Runtime>, options: &Options, mut report: impl FnMut(Row)) -> anyhow::Result<()> {
    if let Some(unknown) = options.only.iter().find(|g| !GROUPS.contains(&g.as_str())) {
        anyhow::bail!("unknown benchmark group `{unknown}` (groups: {})", GROUPS.join(", "));
    }
    let scale = if options.quick { 1 } else { 5 };
    let workspace = &options.workspace;
    if options.wants("crossing") {
        report(crossing(runtime, workspace, 20_000 * scale)?);
    }
    if options.wants("lane") {
        for row in lane_rows(runtime, workspace, 200 * scale)? {
            report(row);
        }
    }
    let default = World::load(runtime, WorldFile::default_world(), Some(workspace))?;
    if options.wants("bash") {
        for row in bash_end_to_end(&default, 20 * scale)? {
            report(row);
        }
        report(bash_long_output(&default, 4 * scale)?);
    }
    if options.wants("cli") {
        report(cold_cli(options, 5 * scale)?);
    }
    if options.wants("mcp") {
        report(mcp_round_trip(runtime, options, 200 * scale)?);
    }
    if options.wants("sandbox") {
        for row in sandbox::rows(runtime, workspace, 20 * scale)? {
            report(row);
        }
    }
    if options.wants("fs") {
        let scratch = fs::Scratch::new()?;
        report(fs::read_10mb(&default, &scratch, 5 * scale)?);
        report(fs::write_1mb(&default, &scratch, 5 * scale)?);
        report(fs::grep_tree(runtime, &fs::repository(workspace), 5 * scale)?);
    }
    if options.wants("swap") {
        report(swap::row(runtime, workspace, 5 * scale)?);
    }
    if options.wants("terminal") {
        for row in terminal::rows(&default, 40 * scale)? {
            report(row);
        }
    }
    if options.wants("lsp") {
        for row in lsp::hover(runtime, 20 * scale)? {
            report(row);
        }
    }
    if options.wants("plugins") {
        for row in plugins::rows(runtime, &fs::repository(workspace), 50 * scale)? {
            report(row);
        }
    }
    Ok(())
}

/// Rows measured in several rounds of the same groups, each as measured in its median round
/// (by ratio; by value when it has no baseline). One slow or fast round moves no verdict, and a
/// row's value, baseline and ratio still come from one run side by side. Rows keep the order in
/// which they were first measured.
pub fn median_rows(rounds: Vec<Vec<Row>>) -> Vec<Row> {
    let mut by_name: Vec<Vec<Row>> = Vec::new();
    for row in rounds.into_iter().flatten() {
        match by_name.iter_mut().find(|rows| rows[0].name == row.name) {
            Some(rows) => rows.push(row),
            None => by_name.push(vec![row]),
        }
    }
    let key = |row: &Row| row.ratio.unwrap_or(row.value);
    by_name
        .into_iter()
        .map(|mut rows| {
            rows.sort_by(|a, b| key(a).total_cmp(&key(b)));
            rows.swap_remove(rows.len() / 2)
        })
        .collect()
}

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn time(f: impl FnOnce()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}

/// The bench tool (`bench_cross`) over a provider that does nothing.
const BENCH_WORLD: &str = "tools = [\"bench-tool\"]\n[providers]\nnoop = \"bench-provider\"\n";

/// consumer → host → provider, against the host calling the provider directly.
fn crossing(runtime: &Arc<Runtime>, workspace: &Path, n: u32) -> anyhow::Result<Row> {
    let file = WorldFile::parse(BENCH_WORLD, "<bench world>", workspace)?;
    let world = World::load(runtime, file, Some(workspace))?;
    let call = |n: u32| {
        time(|| {
            let result = world.call("bench_cross", &format!("{{\"n\": {n}}}"), world.call_context("bench"));
            assert!(!result.is_error, "bench_cross failed: {}", result.text());
        })
    };
    let mut through_seam = Vec::new();
    for _ in 0..7 {
        let empty = call(0);
        let full = call(n);
        through_seam.push(full.saturating_sub(empty).as_secs_f64() * 1e6 / f64::from(n));
    }

    let provider = builtin::find("bench-provider").ok_or_else(|| anyhow::anyhow!("bench-provider is not built in"))?;
    let component = runtime
        .cache
        .load(&runtime.engine, provider.name, provider.wasm, provider.hash)
        .map_err(|e| anyhow::anyhow!("{e:#}"))?;
    let mut linker = Linker::<Direct>::new(&runtime.engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker).map_err(|e| anyhow::anyhow!("{e:#}"))?;
    let mut store = Store::new(&runtime.engine, Direct::default());
    store.set_epoch_deadline(u64::MAX / 2);
    let instance = linker
        .instantiate(&mut store, &component)
        .map_err(|e| anyhow::anyhow!("{e:#}"))?;
    let interface = instance
        .get_export_index(&mut store, None, "seam-bench:noop/noop@0.1.0")
        .ok_or_else(|| anyhow::anyhow!("bench-provider exports no noop interface"))?;
    let func = instance
        .get_export_index(&mut store, Some(&interface), "noop")
        .and_then(|index| instance.get_typed_func::<(u32,), (u32,)>(&mut store, index).ok())
        .ok_or_else(|| anyhow::anyhow!("bench-provider exports no noop function"))?;
    let mut direct = Vec::new();
    for _ in 0..7 {
        let mut x = 0;
        let took = time(|| {
            for _ in 0..n {
                x = func.call(&mut store, (x,)).map(|(r,)| r).unwrap_or(x);
            }
        });
        direct.push(took.as_secs_f64() * 1e6 / f64::from(n));
    }
    Ok(Row::versus(
        "seam_crossing_vs_direct_call",
        median(through_seam),
        median(direct),
        "µs/call",
        "≤ 3× and ≤ 1 µs",
    ))
}

#[derive(Default)]
struct Direct {
    wasi: Option<WasiCtx>,
    table: ResourceTable,
}

impl WasiView for Direct {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: self.wasi.get_or_insert_with(|| WasiCtx::builder().build()),
            table: &mut self.table,
        }
    }
}

/// The components one bash call reaches: the tool, the policy it resolves, the shell and the
/// subprocess provider, and the jobs registry it tells of ended background jobs (plus the
/// approval provider linked for escalations).
const BASH_CHAIN_WORLD: &str = "tools = [\"tool-bash\"]\n[providers]\nsubprocess = \"subprocess-local\"\n\
    shell = \"bash-local\"\njobs = \"jobs-local\"\npolicy = \"sandbox-policy\"\napproval = \"approval-never\"\n";

/// A fresh lane with the whole bash chain instantiated, and apart from it the lane's teardown
/// (instances freed, memories reset), which a small lane's call also pays before it returns.
fn lane_rows(runtime: &Arc<Runtime>, workspace: &Path, n: u32) -> anyhow::Result<[Row; 2]> {
    let world = World::load(
        runtime,
        WorldFile::parse(BASH_CHAIN_WORLD, "<bash chain>", workspace)?,
        Some(workspace),
    )?;
    world.instantiate_all().map_err(|e| anyhow::anyhow!("{e:#}"))?;
    let (mut setup, mut teardown) = (Vec::new(), Vec::new());
    for _ in 0..n {
        let started = Instant::now();
        let lane = world.instantiate_all();
        setup.push(started.elapsed().as_secs_f64() * 1e6);
        let lane = lane.map_err(|e| anyhow::anyhow!("{e:#}"))?;
        teardown.push(time(|| drop(lane)).as_secs_f64() * 1e6);
    }
    let row = |name, samples, goal| Row {
        name,
        value: median(samples),
        baseline: None,
        ratio: None,
        unit: "µs",
        goal,
    };
    Ok([
        row("lane_setup_bash_chain", setup, "≤ 50 µs"),
        row("lane_teardown_bash_chain", teardown, "—"),
    ])
}

/// The bash tool running `echo hi`, against spawning `bash -c 'echo hi'` natively; and the CPU
/// the calling thread spent per call (lanes, crossings, the spawn), steadier than wall time on
/// a shared machine.
fn bash_end_to_end(world: &World, n: u32) -> anyhow::Result<Vec<Row>> {
    let (mut seam, mut native, mut host_cpu, mut shim) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let processes = ProcessTable::new();
    let bash = which_bash()?;
    for _ in 0..n {
        shim.push(time(|| shim_echo(&processes, &bash)).as_secs_f64() * 1e3);
        let cpu_before = thread_cpu();
        seam.push(
            time(|| {
                let r = world.call("bash", r#"{"command": "echo hi"}"#, world.call_context("bench"));
                assert_eq!(r.text(), "hi");
            })
            .as_secs_f64()
                * 1e3,
        );
        host_cpu.push((thread_cpu() - cpu_before).as_secs_f64() * 1e6);
        native.push(
            time(|| {
                let out = Command::new("bash").args(["-c", "echo hi"]).output();
                assert!(out.is_ok_and(|o| o.stdout == b"hi\n"));
            })
            .as_secs_f64()
                * 1e3,
        );
    }
    let native = median(native);
    Ok(vec![
        Row::versus("bash_echo_vs_native_spawn", median(seam), native, "ms", "≤ 1.10×"),
        Row::versus(
            "bash_echo_process_shim_vs_native_spawn",
            median(shim),
            native,
            "ms",
            "—",
        ),
        Row {
            name: "bash_echo_calling_thread_cpu",
            value: median(host_cpu),
            baseline: None,
            ratio: None,
            unit: "µs",
            goal: "—",
        },
    ])
}

/// A command printing about 59 KB, just under the default output budget, so the whole output
/// crosses the chain and is shown: the bytes collected, read back as text, rendered.
fn bash_long_output(world: &World, n: u32) -> anyhow::Result<Row> {
    const COMMAND: &str = "seq 1 12000";
    let expected_bytes = (1..=12000).map(|i: u32| i.to_string().len() + 1).sum::<usize>();
    let (mut seam, mut native) = (Vec::new(), Vec::new());
    for _ in 0..n {
        let arguments = serde_json::json!({ "command": COMMAND }).to_string();
        seam.push(
            time(|| {
                let r = world.call("bash", &arguments, world.call_context("bench"));
                assert!(!r.is_error && r.text().len() + 1 == expected_bytes, "{}", r.text());
            })
            .as_secs_f64()
                * 1e3,
        );
        native.push(
            time(|| {
                let out = Command::new("bash").args(["-c", COMMAND]).output();
                assert!(out.is_ok_and(|o| o.stdout.len() == expected_bytes));
            })
            .as_secs_f64()
                * 1e3,
        );
    }
    Ok(Row::versus(
        "bash_59kb_output_vs_native_spawn",
        median(seam),
        median(native),
        "ms",
        "—",
    ))
}

/// `bash -c 'echo hi'` through the native process shim alone, spawned as bash-local asks for
/// it (stdout collected, stderr merged): the share of the bash row that no component adds.
fn shim_echo(processes: &ProcessTable, bash: &Path) {
    let mut spec = SpawnSpec::new(
        vec![bash.display().to_string(), "-c".into(), "echo hi".into()],
        std::env::temp_dir(),
    );
    // The environment the native spawn inherits: bash starts measurably faster without one
    // (no locale to load, for one).
    spec.env = std::env::vars().collect();
    spec.stdout = OutputSpec::Collect(CollectSpec {
        tail_bytes: 32 * 1024,
        head_bytes: 32 * 1024,
        spill: Some(64 << 20),
    });
    spec.stderr = OutputSpec::Merge;
    let process = processes.spawn(spec).expect("spawning bash through the shim");
    assert!(process.wait(None).is_some_and(|o| o.exit_code == Some(0)));
    assert_eq!(process.head(Stream::Stdout), b"hi\n");
    processes.forget(process.id());
}

fn which_bash() -> anyhow::Result<std::path::PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|dir| dir.join("bash"))
        .find(|path| path.is_file())
        .ok_or_else(|| anyhow::anyhow!("bash is not on PATH"))
}

/// CPU time of the calling thread so far.
fn thread_cpu() -> Duration {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes the timespec we pass and nothing else.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// A cold `seam call bash` process (warm component cache) against `bash -c true`.
fn cold_cli(options: &Options, n: u32) -> anyhow::Result<Row> {
    let run = |cmd: &mut Command| time(|| assert!(cmd.output().is_ok_and(|o| o.status.success()))).as_secs_f64() * 1e3;
    let seam_call = || {
        let mut cmd = Command::new(&options.seam_exe);
        cmd.args(["--workspace"])
            .arg(&options.workspace)
            .args(["call", "bash", r#"{"command": "true"}"#]);
        cmd
    };
    run(&mut seam_call());
    let (mut seam, mut native) = (Vec::new(), Vec::new());
    for _ in 0..n {
        seam.push(run(&mut seam_call()));
        native.push(run(Command::new("bash").args(["-c", "true"])));
    }
    let (seam, native) = (median(seam), median(native));
    Ok(Row {
        name: "cold_cli_call_vs_bash_true",
        value: seam,
        baseline: Some(native),
        ratio: Some(seam / native),
        unit: "ms",
        goal: "≤ +10 ms",
    })
}

/// A `tools/call` round trip of the trivial `bench_cross` (n = 0) over `seam mcp`'s stdio, as a
/// minimal JSON-RPC client sees it, against the same call made in-process with `World::call`.
fn mcp_round_trip(runtime: &Arc<Runtime>, options: &Options, n: u32) -> anyhow::Result<Row> {
    let file = std::env::temp_dir().join(format!("seam-bench-world-{}.toml", std::process::id()));
    std::fs::write(&file, BENCH_WORLD)?;
    let mut server = Command::new(&options.seam_exe)
        .arg("--world")
        .arg(&file)
        .arg("--workspace")
        .arg(&options.workspace)
        .arg("mcp")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()?;
    let measured = match (server.stdin.take(), server.stdout.take()) {
        (Some(stdin), Some(stdout)) => {
            let mut client = RpcClient {
                stdin,
                stdout: std::io::BufReader::new(stdout),
                next_id: 0,
            };
            client.round_trips(n)
        }
        _ => Err(anyhow::anyhow!("seam mcp has no stdio pipes")),
    };
    // Closing stdin ends the session; the server exits on its own.
    let _ = server.wait();
    let _ = std::fs::remove_file(&file);
    let over_mcp = measured?;

    let world = World::load(
        runtime,
        WorldFile::parse(BENCH_WORLD, "<bench world>", &options.workspace)?,
        Some(&options.workspace),
    )?;
    let in_process = (0..n)
        .map(|_| {
            time(|| {
                let result = world.call("bench_cross", r#"{"n": 0}"#, world.call_context("bench"));
                assert!(!result.is_error, "bench_cross failed: {}", result.text());
            })
            .as_secs_f64()
                * 1e6
        })
        .collect();
    Ok(Row::versus(
        "mcp_tools_call_vs_in_process",
        over_mcp,
        median(in_process),
        "µs",
        "≤ 1000 µs",
    ))
}

/// Just enough JSON-RPC over newline-delimited stdio to time requests.
struct RpcClient {
    stdin: std::process::ChildStdin,
    stdout: std::io::BufReader<std::process::ChildStdout>,
    next_id: u64,
}

impl RpcClient {
    /// Initialize, then time `n` calls after a warm-up; the median in µs.
    fn round_trips(&mut self, n: u32) -> anyhow::Result<f64> {
        self.request(
            "initialize",
            serde_json::json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "seam-bench", "version": env!("CARGO_PKG_VERSION")},
            }),
        )?;
        self.send(&serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
        let call = serde_json::json!({"name": "bench_cross", "arguments": {"n": 0}});
        for _ in 0..10 {
            self.request("tools/call", call.clone())?;
        }
        let mut samples = Vec::new();
        for _ in 0..n {
            let start = Instant::now();
            let response = self.request("tools/call", call.clone())?;
            samples.push(start.elapsed().as_secs_f64() * 1e6);
            if response["result"]["isError"] != false {
                anyhow::bail!("bench_cross over MCP failed: {response}");
            }
        }
        Ok(median(samples))
    }

    fn request(&mut self, method: &str, params: serde_json::Value) -> anyhow::Result<serde_json::Value> {
        use std::io::BufRead;
        self.next_id += 1;
        let id = self.next_id;
        self.send(&serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        let mut line = String::new();
        loop {
            line.clear();
            if self.stdout.read_line(&mut line)? == 0 {
                anyhow::bail!("seam mcp closed its stdout during {method}");
            }
            let message: serde_json::Value = serde_json::from_str(&line)?;
            // Notifications and other traffic are skipped; only our answer ends the wait.
            if message["id"] == id {
                if message.get("error").is_some() {
                    anyhow::bail!("{method} failed: {message}");
                }
                return Ok(message);
            }
        }
    }

    fn send(&mut self, message: &serde_json::Value) -> anyhow::Result<()> {
        use std::io::Write;
        let mut line = serde_json::to_vec(message)?;
        line.push(b'\n');
        self.stdin.write_all(&line)?;
        self.stdin.flush()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &'static str, value: f64, baseline: Option<f64>) -> Row {
        match baseline {
            Some(baseline) => Row::versus(name, value, baseline, "ms", "—"),
            None => Row {
                name,
                value,
                baseline: None,
                ratio: None,
                unit: "µs",
                goal: "—",
            },
        }
    }

    #[test]
    fn each_row_comes_whole_from_its_median_round() {
        let rounds = vec![
            vec![row("a", 3.0, Some(1.0)), row("b", 50.0, None)],
            vec![row("a", 2.0, Some(2.0)), row("b", 90.0, None)],
            vec![row("a", 2.4, Some(1.2)), row("b", 40.0, None)],
        ];
        let rows = median_rows(rounds);
        let names: Vec<&str> = rows.iter().map(|r| r.name).collect();
        assert_eq!(names, ["a", "b"]);
        // By ratio (3, 1, 2): the third round's, its value and baseline with it.
        assert_eq!(
            (rows[0].value, rows[0].baseline, rows[0].ratio),
            (2.4, Some(1.2), Some(2.0))
        );
        // Without a baseline, by value.
        assert_eq!(rows[1].value, 50.0);
    }

    #[test]
    fn a_row_missing_from_some_rounds_is_kept() {
        let rows = median_rows(vec![
            vec![row("a", 1.0, None)],
            vec![row("a", 3.0, None), row("c", 7.0, None)],
        ]);
        let got: Vec<(&str, f64)> = rows.iter().map(|r| (r.name, r.value)).collect();
        assert_eq!(got, [("a", 3.0), ("c", 7.0)]);
    }
}
