//! Watching a live world's files: the world file and every component file it names are polled
//! for changes every 250 ms, and SIGHUP forces a reload. Polling needs no inotify watch per
//! file and sees a component file replaced by rename, which editors and build tools do.
//!
//! A world that confines its commands does not watch the files they can write (in the
//! workspace or the temp dir): a confined command could otherwise rewrite its own world and
//! turn its sandbox off. SIGHUP, which they cannot send, still reloads those.

use super::{LiveWorld, ReloadError, Swapped};
use crate::world::World;
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
/// Those `serving` lets its confined commands write are left out, with a warning when they
/// differ from `warned` (the ones named last); all are when the world file is one of them (any
/// reload would read it).
fn watched(world: &Path, serving: &World, warned: &mut Vec<PathBuf>) -> Vec<PathBuf> {
    let mut paths = vec![world.to_path_buf()];
    if let Ok(file) = WorldFile::load(world) {
        paths.extend(file.component_paths());
    }
    let (unsafe_to_watch, safe): (Vec<PathBuf>, Vec<PathBuf>) =
        paths.into_iter().partition(|path| writable_by_commands(serving, path));
    if unsafe_to_watch != *warned {
        for path in &unsafe_to_watch {
            tracing::warn!(
                path = %path.display(),
                "not watched for changes: the world's confined commands can write it and so \
                 could change their own world; send SIGHUP to reload"
            );
        }
    }
    let nothing = unsafe_to_watch.first().is_some_and(|first| first == world);
    *warned = unsafe_to_watch;
    if nothing { Vec::new() } else { safe }
}

/// Whether `path` lies where the confined commands of `world` may write: the workspace or a
/// temp dir (a sandbox's writable roots may add more, which the operator chose).
fn writable_by_commands(world: &World, path: &Path) -> bool {
    if !world.confines_commands() {
        return false;
    }
    let canonical = |path: &Path| std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let Ok(path) = std::path::absolute(path) else {
        return true;
    };
    // Where the name lies (the file may be missing for a moment: a save by rename), and, when
    // it is a symlink, where it leads: a change to either is a change to the world.
    let mut places = vec![match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) => canonical(dir).join(name),
        _ => canonical(&path),
    }];
    places.extend(std::fs::canonicalize(&path).ok());
    let roots = [
        world.workspace().to_path_buf(),
        std::env::temp_dir(),
        PathBuf::from("/tmp"),
    ]
    .map(|r| canonical(&r));
    places
        .iter()
        .any(|place| roots.iter().any(|root| place.starts_with(root)))
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
        let mut warned = Vec::new();
        let mut paths = match weak.upgrade() {
            Some(live) => watched(&world_path, &live.current(), &mut warned),
            None => return,
        };
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
            paths = watched(&world_path, &live.current(), &mut warned);
            stamps = stamps_of(&paths);
            let reloaded = live.reload();
            // The new world may confine where the old did not: watch what it allows.
            let allowed = watched(&world_path, &live.current(), &mut warned);
            if allowed != paths {
                stamps = stamps_of(&allowed);
                paths = allowed;
            }
            report(reloaded);
        }
    })?;
    Ok(())
}
