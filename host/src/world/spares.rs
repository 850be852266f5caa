//! Spare lanes (docs/decisions/0019): when a call of a tool ends, a fresh lane for its next call
//! is instantiated off the caller's path, with the tool and the providers that call reached,
//! so the next call starts with its components ready. A spare never ran a call: it is as fresh
//! as a lane built on demand, and a provider it lacks still instantiates on first use.

use crate::lane::{CallContext, Lane};
use crate::natives::bindings::tool::Plugin;
use crate::world::epoch::Epoch;
use crate::world::linked::Linked;
use std::sync::{Arc, Mutex};
use wasmtime::{AsContextMut, Engine, Store};

/// A lane with its tool instantiated and its exports found.
pub(crate) struct Spare {
    pub store: Store<Lane>,
    pub plugin: Plugin,
}

impl Spare {
    /// The spare, now serving `call`.
    pub fn serving(mut self, call: CallContext, epoch: &Epoch) -> Self {
        self.store.data_mut().begin(call, epoch.awake());
        // Its deadline passed while it waited: the first tick of the call re-arms it.
        self.store.set_epoch_deadline(1);
        self
    }
}

/// At most one spare per tool component of a world.
pub(crate) struct Spares {
    by_node: Mutex<Vec<Option<Spare>>>,
}

impl Spares {
    pub fn new(nodes: usize) -> Arc<Self> {
        Arc::new(Self {
            by_node: Mutex::new((0..nodes).map(|_| None).collect()),
        })
    }

    /// The spare of tool `node`, if one waits.
    pub fn take(&self, node: usize) -> Option<Spare> {
        self.lock()[node].take()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Option<Spare>>> {
        // A panic while holding the lock leaves at worst a slot empty or filled.
        self.by_node.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// What a spare for tool `node` is built from: the lane of the call that just ended tells which
/// providers to instantiate.
pub(crate) struct Order {
    pub engine: Engine,
    pub epoch: Epoch,
    pub linked: Arc<Linked>,
    pub spares: Arc<Spares>,
    pub node: usize,
    pub reached: Vec<usize>,
    /// Stands in until a call takes the spare.
    pub placeholder: CallContext,
}

impl Order {
    /// Build the spare and leave it for the next call; a component that fails to instantiate
    /// leaves none (the call that builds its own lane reports the fault).
    pub fn fill(self) {
        let mut store = Lane::for_tool(
            &self.engine,
            &self.epoch,
            self.linked.clone(),
            self.node,
            self.placeholder,
        );
        let Ok(plugin) = tool_plugin(&self.linked, &mut store, self.node) else {
            return;
        };
        for &provider in &self.reached {
            if Lane::instance(&mut store.as_context_mut(), provider).is_err() {
                return;
            }
        }
        store.data_mut().rest();
        // One built for a call in parallel may wait there: it is dropped outside the lock.
        let replaced = self.spares.lock()[self.node].replace(Spare { store, plugin });
        drop(replaced);
    }
}

/// The tool component `node` instantiated in `store`, its exports found by index.
pub(crate) fn tool_plugin(linked: &Linked, store: &mut Store<Lane>, node: usize) -> wasmtime::Result<Plugin> {
    let instance = Lane::instance(&mut store.as_context_mut(), node)?;
    let indices = linked.nodes[node].tool.as_ref().expect("linked tools have indices");
    indices.load(store, &instance)
}
