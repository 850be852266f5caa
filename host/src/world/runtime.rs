//! The process-wide runtime: one engine (with its epoch ticker), the compiled-component cache
//! and the durable host state every world shares.

use super::cache::ComponentCache;
use super::epoch::Epoch;
use super::linked::Linked;
use super::retire::Retirement;
use crate::lane::{CallContext, Lane};
use crate::natives::HostState;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use wasmtime::{Config, Enabled, Engine, InstanceAllocationStrategy, PoolingAllocationConfig, Store};

/// How a runtime is set up.
#[derive(Clone, Debug)]
pub struct RuntimeOptions {
    /// Component instances alive at once, across every lane of every world of the runtime
    /// (a bash call holds six): a call that needs one more fails with WORLD_AT_CAPACITY.
    pub max_instances: u32,
}

impl Default for RuntimeOptions {
    fn default() -> Self {
        Self { max_instances: 1000 }
    }
}

/// Lanes of one world a one-shot process can hold at once: the one calling, and those still
/// being dropped off its path (`retire::BACKLOG`), with one to spare.
const ONE_SHOT_LANES: u32 = 6;

impl RuntimeOptions {
    /// For a process that loads a world of `components` components, makes one call (or
    /// describes the tools) and exits: a pool that holds a few lanes of that world instead of
    /// 1,000 instances. Setting up the pool is proportional to its size, about a millisecond
    /// of a cold `seam call` at the default; the pool is too small for spare lanes, which a
    /// process that exits after its call would never use.
    pub fn one_shot(components: usize) -> Self {
        let components = u32::try_from(components).unwrap_or(u32::MAX);
        Self {
            max_instances: components.saturating_mul(ONE_SHOT_LANES).max(16),
        }
    }
}

/// Instances are allocated from a pool of slots reused across lanes (docs/decisions/0013):
/// a lane instantiates several components per call and drops them at its end, so reusing warm
/// slots saves the mmap/munmap of every memory, and keeping the pages a call dirtied resident
/// (reset with memset, found by PAGEMAP_SCAN) saves a page fault per 4 KiB the next call
/// touches: bulk data crosses two or three fresh memories per call otherwise.
fn instance_pool(component_instances: u32) -> PoolingAllocationConfig {
    let mut pool = PoolingAllocationConfig::default();
    pool.total_component_instances(component_instances)
        .total_core_instances(4 * component_instances)
        .total_memories(2 * component_instances)
        .total_tables(4 * component_instances)
        // Calls are synchronous: no fiber stacks (each would cost a guard-page mprotect at start).
        .total_stacks(0)
        // Room for guests bigger than first-party Rust ones (interpreters built into components).
        .max_tables_per_module(4)
        .max_memories_per_module(2)
        .table_elements(100_000)
        .max_core_instance_size(16 << 20)
        // A 32-bit memory's whole range is reserved; per-component limits are the lane's limiter.
        .max_memory_size(1 << 32)
        .linear_memory_keep_resident(RESIDENT_BYTES)
        .table_keep_resident(1 << 20)
        .max_unused_warm_slots(64)
        .pagemap_scan(Enabled::Auto);
    pool
}

/// Dirty bytes per linear memory kept resident across slot reuse; beyond this a memory is
/// returned to the kernel when its lane ends, which bounds the idle resident set.
const RESIDENT_BYTES: usize = 16 << 20;

/// The smallest instance pool that keeps spare lanes: one spare per tool of a few worlds fits
/// beside the calls in flight.
const SPARE_LANES_FROM: u32 = 256;

pub struct Runtime {
    pub(crate) engine: Engine,
    /// Ticks the engine's epoch while lanes may run guest code.
    pub(crate) epoch: Epoch,
    pub(crate) cache: ComponentCache,
    pub(crate) host: Arc<HostState>,
    /// Where finished lanes are dropped, off the callers' path.
    pub(crate) retirement: Retirement,
    /// Whether calls leave a spare lane for their tool's next call: only when the instance pool
    /// has room to spare (a spare holds its instances while it waits).
    pub(crate) spare_lanes: bool,
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
        // A trap keeps the guests' globals, so a guest stack that ran out in linear memory
        // can be told from other out-of-bounds accesses (see `fault`).
        config.coredump_on_trap(true);
        config.allocation_strategy(InstanceAllocationStrategy::Pooling(instance_pool(
            options.max_instances,
        )));
        let engine = Engine::new(&config)?;
        Ok(Arc::new(Self {
            cache: ComponentCache::new(&engine),
            epoch: Epoch::start(&engine)?,
            engine,
            host: HostState::new(ComponentCache::default_dir()),
            retirement: Retirement::start(),
            spare_lanes: options.max_instances >= SPARE_LANES_FROM,
            worlds: AtomicU64::new(0),
        }))
    }

    pub(crate) fn next_world_id(&self) -> u64 {
        self.worlds.fetch_add(1, Ordering::Relaxed)
    }

    pub(crate) fn new_store(&self, linked: Arc<Linked>, call: CallContext) -> Store<Lane> {
        Lane::open(&self.engine, &self.epoch, linked, call)
    }
}
