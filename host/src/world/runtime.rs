//! The process-wide runtime: one engine (with its epoch ticker), the compiled-component cache
//! and the durable host state every world shares.

use super::cache::ComponentCache;
use super::linked::Linked;
use crate::lane::{CallContext, Lane};
use crate::natives::HostState;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use wasmtime::{Config, Engine, Store};

/// How often guest time limits are checked.
const EPOCH_TICK: Duration = Duration::from_millis(5);

/// How a runtime is set up.
#[derive(Clone, Debug)]
pub struct RuntimeOptions {
    /// The seam executable that sandbox runners re-execute as the Landlock launcher
    /// (`seam __landlock`). Default: the current executable, which is right for the `seam`
    /// binary. A program that embeds the host must name a seam binary here: the Landlock
    /// probe refuses an executable that does not report a ruleset, but a lone Landlock
    /// candidate is not probed and would be handed the launcher arguments as they are.
    pub launcher: Option<PathBuf>,
}

impl Default for RuntimeOptions {
    fn default() -> Self {
        Self {
            launcher: std::env::current_exe().ok(),
        }
    }
}

pub struct Runtime {
    pub(crate) engine: Engine,
    pub(crate) cache: ComponentCache,
    pub(crate) host: Arc<HostState>,
    worlds: AtomicU64,
}

impl Runtime {
    pub fn new() -> wasmtime::Result<Arc<Self>> {
        Self::with_options(RuntimeOptions::default())
    }

    pub fn with_options(options: RuntimeOptions) -> wasmtime::Result<Arc<Self>> {
        let mut config = Config::new();
        config.epoch_interruption(true);
        // Components here call synchronously; component-model async would tax every crossing.
        config.concurrency_support(false);
        config.max_wasm_stack(1 << 20);
        let engine = Engine::new(&config)?;
        let weak = engine.weak();
        std::thread::Builder::new().name("seam-epoch".into()).spawn(move || {
            while let Some(engine) = weak.upgrade() {
                engine.increment_epoch();
                drop(engine);
                std::thread::sleep(EPOCH_TICK);
            }
        })?;
        Ok(Arc::new(Self {
            cache: ComponentCache::new(&engine),
            engine,
            host: HostState::new(options.launcher),
            worlds: AtomicU64::new(0),
        }))
    }

    pub(crate) fn next_world_id(&self) -> u64 {
        self.worlds.fetch_add(1, Ordering::Relaxed)
    }

    pub(crate) fn new_store(&self, linked: Arc<Linked>, call: CallContext) -> Store<Lane> {
        let mut store = Store::new(&self.engine, Lane::new(linked, call));
        store.limiter(|lane| lane);
        store.set_epoch_deadline(1);
        store.epoch_deadline_callback(Lane::on_epoch);
        store
    }
}
