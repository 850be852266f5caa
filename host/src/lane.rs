//! A lane: the store one tool call runs in. It holds the tool component and, instantiated on
//! first use, each provider the call reaches. Dropping the lane frees every instance, so a
//! fault poisons one call and a swapped world never leaks into calls already running.

use crate::fault::{self, Fault, Seen};
use crate::link::forward::Proxies;
use crate::world::epoch::{Awake, Epoch};
use crate::world::file::Limits;
use crate::world::linked::Linked;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use wasmtime::component::{Func, Instance, ResourceTable, ResourceType};
use wasmtime::{Engine, ResourceLimiter, Result, Store, StoreContextMut, UpdateDeadline};
use wasmtime_wasi::p2::pipe::MemoryOutputPipe;
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

/// Guest stdout and stderr kept per lane: panic messages end up in fault reports, and what a
/// plugin prints in the log (target `seam::guest`).
const STDERR_CAPACITY: usize = 1 << 20;

/// The session a call belongs to.
#[derive(Clone, Debug)]
pub struct Session {
    pub id: String,
    pub cwd: String,
    pub agent: String,
}

/// Progress of a long call, reported by the tool through seam:tool/context.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub done: f64,
    pub total: Option<f64>,
    pub message: Option<String>,
}

pub type ProgressSink = Arc<dyn Fn(Progress) + Send + Sync>;

/// The log target of what a person waiting should be told: a component compiling, a call's
/// progress at the command line. The CLI shows it by default.
pub const PROGRESS_LOG: &str = "seam::progress";

/// What the host knows about the call being served.
#[derive(Clone)]
pub struct CallContext {
    pub session: Session,
    pub call_id: String,
    pub cancelled: Arc<AtomicBool>,
    pub progress: Option<ProgressSink>,
    /// Who answers approval requests for this call; none means no human can be asked.
    pub asker: Option<crate::approval::Asker>,
    /// Cancels the call from outside: the processes it spawned are registered here.
    pub cancel: crate::cancel::CancelToken,
}

impl CallContext {
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed) || self.cancel.is_cancelled()
    }

    /// Cancel the call: set the flag tools poll and terminate the processes it spawned.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
        self.cancel.cancel();
    }
}

pub struct Lane {
    pub(crate) linked: Arc<Linked>,
    pub(crate) call: CallContext,
    pub(crate) proxies: Proxies,
    /// Memory and guest time this call may use: the limits of the tool it serves.
    pub(crate) limits: Limits,
    pub(crate) table: ResourceTable,
    wasi: WasiCtx,
    stderr: MemoryOutputPipe,
    instances: Vec<Option<Instance>>,
    /// Provider functions already looked up, by forwarding slot.
    pub(crate) funcs: Vec<Option<Func>>,
    /// Per provider: its runtime resource types and the dynamic ids consumers know them by.
    resource_types: Vec<Vec<(ResourceType, u32)>>,
    /// The component executing now, innermost last.
    stack: Vec<usize>,
    /// Where a failure first crossed a component boundary.
    faulted_in: Option<usize>,
    started: Instant,
    blocked: Duration,
    memory_denied: bool,
    timed_out: bool,
    /// Bytes the call's linear memories grew by past their initial sizes: roughly what dropping
    /// the lane will have to reset.
    grown: usize,
    /// Held while guest code may run here, so the epoch ticks for its time limit.
    awake: Option<Awake>,
}

impl Lane {
    pub(crate) fn new(linked: Arc<Linked>, call: CallContext) -> Self {
        let stderr = MemoryOutputPipe::new(STDERR_CAPACITY);
        // Nothing granted: no preopens, no environment, no arguments, no network.
        let wasi = WasiCtx::builder()
            .stdout(stderr.clone())
            .stderr(stderr.clone())
            .allow_tcp(false)
            .allow_udp(false)
            .allow_ip_name_lookup(false)
            .build();
        let (nodes, slots) = (linked.nodes.len(), linked.plan.func_slots);
        Self {
            limits: linked.limits.clone(),
            linked,
            call,
            proxies: Proxies::default(),
            table: ResourceTable::new(),
            wasi,
            stderr,
            instances: vec![None; nodes],
            funcs: vec![None; slots],
            resource_types: vec![Vec::new(); nodes],
            stack: Vec::new(),
            faulted_in: None,
            started: Instant::now(),
            blocked: Duration::ZERO,
            memory_denied: false,
            timed_out: false,
            grown: 0,
            awake: None,
        }
    }

    /// A store for a new lane: guest time checked on every epoch tick, memory under the lane's
    /// limits.
    pub(crate) fn open(engine: &Engine, epoch: &Epoch, linked: Arc<Linked>, call: CallContext) -> Store<Lane> {
        let mut store = Store::new(engine, Lane::new(linked, call));
        store.data_mut().awake = Some(epoch.awake());
        store.limiter(|lane| lane);
        store.set_epoch_deadline(1);
        store.epoch_deadline_callback(Lane::on_epoch);
        store
    }

    /// A store for a new lane serving a call of the tool component `node`, under that tool's
    /// limits (a plugin's own, or the world's): every provider the call reaches shares them.
    pub(crate) fn for_tool(
        engine: &Engine,
        epoch: &Epoch,
        linked: Arc<Linked>,
        node: usize,
        call: CallContext,
    ) -> Store<Lane> {
        let limits = linked.nodes[node].limits.clone();
        let mut store = Lane::open(engine, epoch, linked, call);
        store.data_mut().limits = limits;
        store.data_mut().enter(node);
        store
    }

    /// A lane built ahead of its call waits with no guest code to run.
    pub(crate) fn rest(&mut self) {
        self.awake = None;
    }

    /// Start serving `call` in a lane built ahead of it: its guest time counts from now.
    pub(crate) fn begin(&mut self, call: CallContext, awake: Awake) {
        self.awake = Some(awake);
        self.call = call;
        self.started = Instant::now();
        self.blocked = Duration::ZERO;
    }

    /// The providers this lane instantiated (the tool it serves excluded).
    pub(crate) fn reached_providers(&self) -> Vec<usize> {
        let tool = self.stack.first().copied();
        (0..self.instances.len())
            .filter(|&n| self.instances[n].is_some() && Some(n) != tool)
            .collect()
    }

    /// The instance of node `n` in this lane, instantiating it on first use.
    pub(crate) fn instance(store: &mut StoreContextMut<'_, Lane>, n: usize) -> Result<Instance> {
        if let Some(instance) = store.data().instances[n] {
            return Ok(instance);
        }
        let linked = store.data().linked.clone();
        store.data_mut().enter(n);
        let instance = linked.nodes[n].pre.instantiate(&mut *store);
        store.data_mut().leave(n, instance.is_err());
        let instance = instance?;
        let mut types = Vec::new();
        for (id, slot) in linked.resources.iter().enumerate() {
            if slot.provider == n {
                let ty = instance
                    .get_resource(&mut *store, slot.index)
                    .ok_or_else(|| wasmtime::format_err!("resource type vanished from {}", linked.nodes[n].name))?;
                types.push((ty, id as u32));
            }
        }
        let lane = store.data_mut();
        lane.resource_types[n] = types;
        lane.instances[n] = Some(instance);
        Ok(instance)
    }

    /// The dynamic id consumers know a provider's resource type by.
    pub(crate) fn resource_id(&self, provider: usize, ty: ResourceType) -> Result<u32> {
        self.resource_types[provider]
            .iter()
            .find(|(t, _)| *t == ty)
            .map(|(_, id)| *id)
            .ok_or_else(|| {
                wasmtime::format_err!(
                    "{} returned a resource of a type it does not export",
                    self.node_name(provider)
                )
            })
    }

    pub(crate) fn enter(&mut self, n: usize) {
        self.stack.push(n);
    }

    pub(crate) fn leave(&mut self, n: usize, failed: bool) {
        self.stack.pop();
        if failed && self.faulted_in.is_none() {
            self.faulted_in = Some(n);
        }
    }

    /// The component executing now (the one calling a native, for instance).
    pub(crate) fn current(&self) -> usize {
        self.stack.last().copied().unwrap_or(0)
    }

    pub(crate) fn current_name(&self) -> &str {
        self.node_name(self.current())
    }

    pub(crate) fn node_name(&self, n: usize) -> &str {
        &self.linked.nodes[n].name
    }

    /// Run host work that blocks (waiting for a process, say): it does not count as guest time,
    /// and no guest code runs in this lane until it returns, so the epoch may rest meanwhile
    /// (a call waiting minutes for a build wakes no ticker).
    pub(crate) fn blocking<R>(&mut self, work: impl FnOnce() -> R) -> R {
        let start = Instant::now();
        let result = match &self.awake {
            Some(awake) => awake.resting(work),
            None => work(),
        };
        self.count_blocked(start.elapsed());
        result
    }

    /// Blocking host work timed by a caller that could not lend the lane (it borrowed the
    /// store's memory meanwhile).
    pub(crate) fn count_blocked(&mut self, time: Duration) {
        self.blocked += time;
    }

    fn guest_time(&self) -> Duration {
        self.started.elapsed().saturating_sub(self.blocked)
    }

    /// Called on every epoch tick while guest code runs.
    pub(crate) fn on_epoch(mut store: StoreContextMut<'_, Lane>) -> Result<UpdateDeadline> {
        let lane = store.data_mut();
        if lane.guest_time() > Duration::from_millis(lane.limits.guest_time_ms) {
            lane.timed_out = true;
            return Err(wasmtime::Trap::Interrupt.into());
        }
        Ok(UpdateDeadline::Continue(1))
    }

    /// What the call's components printed, to the log at info level under target `seam::guest`
    /// (`RUST_LOG=seam::guest=info`): where a plugin author sees their `print`s.
    pub(crate) fn log_output(&self, tool: &str) {
        if !tracing::enabled!(target: "seam::guest", tracing::Level::INFO) {
            return;
        }
        let output = self.stderr.contents();
        if !output.is_empty() {
            tracing::info!(target: "seam::guest", "{tool} printed:\n{}", String::from_utf8_lossy(&output).trim_end());
        }
    }

    /// Bytes the call's linear memories grew by past their initial sizes.
    pub(crate) fn grown(&self) -> usize {
        self.grown
    }

    /// Classify an error that ended the call.
    pub(crate) fn fault(store: &mut Store<Lane>, error: &wasmtime::Error, root: usize) -> Fault {
        let guest_stack_ran_out = fault::guest_stack_ran_out(error, &mut *store);
        let lane = store.data();
        let component = lane.node_name(lane.faulted_in.unwrap_or(root)).to_string();
        let stderr = String::from_utf8_lossy(&lane.stderr.contents()).trim().to_string();
        let seen = Seen {
            timed_out: lane.timed_out,
            memory_denied: lane.memory_denied,
            guest_stack_ran_out,
        };
        Fault::classify(error, component, stderr, seen)
    }
}

impl ResourceLimiter for Lane {
    fn memory_growing(&mut self, current: usize, desired: usize, _maximum: Option<usize>) -> Result<bool> {
        let limit = self.limits.memory_mb.saturating_mul(1 << 20);
        if desired as u64 > limit {
            self.memory_denied = true;
            return Ok(false);
        }
        // Growth past the initial size (current 0 is instantiation), where bulk data lands.
        if current > 0 {
            self.grown += desired - current;
        }
        Ok(true)
    }

    fn table_growing(&mut self, _current: usize, desired: usize, _maximum: Option<usize>) -> Result<bool> {
        Ok(desired <= 1 << 20)
    }
}

impl WasiView for Lane {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}
