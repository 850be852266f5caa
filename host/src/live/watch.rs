//! Watching a live world's files: the world file and every component file it names are polled
//! for changes every 250 ms, and SIGHUP forces a reload. Polling needs no inotify watch per
//! file and sees a component file replaced by rename, which editors and build tools do.

use super::{LiveWorld, ReloadError, Swapped};
use crate::world::file::WorldFile;
use nix::sys::signal::{SaFlags, SigAction, SigHandler, SigSet, Signal, sigaction};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

/// How often the watched files are checked.
pub const POLL_INTERVAL: Duration = Duration::from_millis(250);

/// Set by the SIGHUP handler, taken by the watcher.
static HANGUP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_hangup(_: libc::c_int) {
    HANGUP.store(true, Ordering::Relaxed);
}

/// What a file looked like when last checked: (modified, length), None when it is missing.
type Stamp = Option<(SystemTime, u64)>;

fn stamp(path: &Path) -> Stamp {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

/// The files a reload depends on: the world file and, when it parses, its component files.
fn watched(world: &Path) -> Vec<PathBuf> {
    let mut paths = vec![world.to_path_buf()];
    if let Ok(file) = WorldFile::load(world) {
        paths.extend(file.component_paths());
    }
    paths
}

/// Reload `live` on a thread of its own whenever a watched file changes or SIGHUP arrives;
/// `report` hears every outcome. The thread ends when `live` is dropped. A world without a
/// file has nothing to watch.
pub fn spawn(
    live: &Arc<LiveWorld>,
    report: impl Fn(Result<Swapped, ReloadError>) + Send + 'static,
) -> std::io::Result<()> {
    let Some(world_path) = live.path().map(Path::to_path_buf) else {
        return Ok(());
    };
    let handler = SigAction::new(SigHandler::Handler(on_hangup), SaFlags::SA_RESTART, SigSet::empty());
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe { sigaction(Signal::SIGHUP, &handler) }.map_err(std::io::Error::from)?;
    let weak = Arc::downgrade(live);
    std::thread::Builder::new().name("seam-watch".into()).spawn(move || {
        let mut paths = watched(&world_path);
        let mut stamps: Vec<Stamp> = paths.iter().map(|p| stamp(p)).collect();
        loop {
            std::thread::sleep(POLL_INTERVAL);
            let Some(live) = weak.upgrade() else { return };
            let now: Vec<Stamp> = paths.iter().map(|p| stamp(p)).collect();
            if now == stamps && !HANGUP.swap(false, Ordering::Relaxed) {
                continue;
            }
            // Stamped before the reload: a file written while the world loads differs from its
            // stamp and triggers another reload.
            paths = watched(&world_path);
            stamps = paths.iter().map(|p| stamp(p)).collect();
            report(live.reload());
        }
    })?;
    Ok(())
}
