//! Native shims beneath the providers. `process` is the OS layer; the `seam:host/*` interfaces
//! providers import are implemented on it in `host_*` modules, over shared `HostState`.

pub mod bindings;
mod host_asker;
mod host_config;
mod host_log;
mod host_process;
mod host_state;
pub mod process;
pub mod state;

pub use host_process::ChildHandle;

use std::sync::Arc;

/// Durable host state shared by every lane of every world in this process.
pub struct HostState {
    pub processes: process::ProcessTable,
    pub state: state::StateStore,
    /// The host's environment, read once: providers scrub it (seam:host/process.environment).
    pub environment: Vec<(String, String)>,
}

impl HostState {
    pub fn new() -> Arc<Self> {
        Arc::new(Self {
            processes: process::ProcessTable::new(),
            state: state::StateStore::default(),
            environment: std::env::vars().collect(),
        })
    }
}
