//! Hot swap latency: from a change of the world file to the new world serving, through the
//! watcher `seam mcp` runs (a 250 ms poll, then load, link and swap), against loading the
//! same world directly (what the swap costs beyond the poll).

use super::{BASH_CHAIN_WORLD, Row, median, time};
use crate::live::{LiveWorld, watch};
use crate::{Runtime, World, WorldFile};
use std::path::Path;
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

/// The bash chain world with bash-local's config set to `bytes`: each rewrite is a provider
/// swap.
fn world_text(bytes: u32) -> String {
    format!("{BASH_CHAIN_WORLD}\n[config.bash-local]\nmax_output_bytes = {bytes}\n")
}

pub(super) fn row(runtime: &Arc<Runtime>, workspace: &Path, n: u32) -> anyhow::Result<Row> {
    let dir = std::env::temp_dir().join(format!("seam-bench-swap-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let measured = measure(runtime, workspace, &dir.join("world.toml"), n);
    let _ = std::fs::remove_dir_all(&dir);
    measured
}

fn measure(runtime: &Arc<Runtime>, workspace: &Path, path: &Path, n: u32) -> anyhow::Result<Row> {
    std::fs::write(path, world_text(65536))?;
    let world = World::load(runtime, WorldFile::load(path)?, Some(workspace))?;
    let live = Arc::new(LiveWorld::new(runtime.clone(), world, Some(path), Some(workspace)));
    let (swapped, swaps) = mpsc::channel();
    watch::spawn(&live, move |outcome| {
        let _ = swapped.send((Instant::now(), outcome.map(|_| ()).map_err(|e| e.to_string())));
    })?;
    let mut samples = Vec::new();
    for i in 0..n {
        // Past the modification-time granularity of coarse file systems, and spread over the
        // poll period: the watcher polls in step with the last swap, so a fixed pause would
        // always land at the same phase of it.
        std::thread::sleep(Duration::from_millis(30 + u64::from(i) * 97 % 250));
        let written = Instant::now();
        std::fs::write(path, world_text(65535 - i))?;
        let (at, outcome) = swaps.recv_timeout(Duration::from_secs(30))?;
        outcome.map_err(|e| anyhow::anyhow!("the swapped world was refused: {e}"))?;
        samples.push(at.duration_since(written).as_secs_f64() * 1e3);
    }
    let loads = (0..n)
        .map(|_| {
            time(|| {
                let file = WorldFile::load(path).expect("the bench world parses");
                let _ = World::load(runtime, file, Some(workspace));
            })
            .as_secs_f64()
                * 1e3
        })
        .collect();
    Ok(Row::versus(
        "hot_swap_to_serving_vs_load",
        median(samples),
        median(loads),
        "ms",
        "≤ 300 ms (poll 250 ms)",
    ))
}
