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
/// How long changed files must stay unchanged before a reload reads them: a save that truncates
/// and then writes is not read half-way.
const SETTLE: Duration = Duration::from_millis(50);

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
    // A file changed between the world's reading and now is not what serves: reload at once.
    let read_at = live.current().file_read_at();
    std::thread::Builder::new().name("seam-watch".into()).spawn(move || {
        let stamps_of = |paths: &[PathBuf]| -> Vec<Stamp> { paths.iter().map(|p| stamp(p)).collect() };
        let mut paths = watched(&world_path);
        let mut stamps = stamps_of(&paths);
        let mut stale = stamps
            .iter()
            .flatten()
            .any(|(modified, _)| read_at.is_some_and(|read| *modified > read));
        loop {
            if !stale {
                std::thread::sleep(POLL_INTERVAL);
            }
            let Some(live) = weak.upgrade() else { return };
            let mut now = stamps_of(&paths);
            let forced = std::mem::take(&mut stale) | HANGUP.swap(false, Ordering::Relaxed);
            if now == stamps && !forced {
                continue;
            }
            loop {
                std::thread::sleep(SETTLE);
                let again = stamps_of(&paths);
                if again == now {
                    break;
                }
                now = again;
            }
            // An empty world file is one being written: its content comes with the next change.
            if now.first().is_some_and(|world| world.is_some_and(|(_, len)| len == 0)) {
                stamps = now;
                continue;
            }
            // Stamped before the reload: a file written while the world loads differs from its
            // stamp and triggers another reload.
            paths = watched(&world_path);
            stamps = stamps_of(&paths);
            report(live.reload());
        }
    })?;
    Ok(())
}
