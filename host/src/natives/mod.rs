//! Native shims beneath the providers. `process`, `fsio` and `sandbox_launch` are OS layers;
//! the `seam:host/*` interfaces providers import are implemented on them in `host_*` modules,
//! over shared `HostState`.

pub mod bindings;
pub mod fsio;
mod host_asker;
mod host_config;
mod host_fsio;
mod host_log;
mod host_process;
mod host_pty;
mod host_sandbox_launch;
mod host_state;
mod inherited;
pub mod initial_environ;
pub mod own_memory;
pub mod process;
pub mod pty;
pub mod sandbox_launch;
pub mod state;
pub mod tree_cgroup;
pub mod whole_text;

pub(crate) use host_fsio::define_borrowing_atomic_write;
pub use host_process::ChildHandle;
pub use host_pty::PtyHandle;

use std::path::PathBuf;
use std::sync::Arc;

/// Durable host state shared by every lane of every world in this process.
pub struct HostState {
    pub processes: process::ProcessTable,
    /// PTY sessions (seam:host/pty); they outlive the calls that open them.
    pub ptys: pty::PtyTable,
    pub state: state::StateStore,
    /// Atomic writes (seam:host/fsio), serialized per canonical target.
    pub fsio: fsio::Publisher,
    /// The host's environment, read once: providers scrub it (seam:host/process.environment).
    pub environment: Vec<(String, String)>,
    /// The compiled components' cache directory, which also holds the launcher: sandboxes keep
    /// it read-only.
    pub cache_dir: Option<PathBuf>,
    /// The Landlock launcher confined commands start behind.
    pub launcher: sandbox_launch::launcher::Launcher,
}

impl HostState {
    pub fn new(cache_dir: Option<PathBuf>) -> Arc<Self> {
        Arc::new(Self {
            processes: process::ProcessTable::new(),
            ptys: pty::PtyTable::default(),
            state: state::StateStore::default(),
            fsio: fsio::Publisher::new(),
            environment: std::env::vars().collect(),
            launcher: sandbox_launch::launcher::Launcher::carried(cache_dir.clone()),
            cache_dir,
        })
    }
}
