//! A world after linking: one InstancePre per component, built from a linker it shares with
//! the components whose imports agree with its own, ready to be instantiated in any number of
//! lanes.

use crate::lane::Lane;
use crate::link::LinkError;
use crate::link::plan::{self, NodeDecl, Plan, ResourceSlot, Role};
use crate::natives::HostState;
use crate::natives::bindings::natives::seam::host::config::WorldSettings;
use crate::natives::bindings::tool::PluginIndices;
use crate::world::file::Limits;
use crate::world::host_linkers::WorldLinkers;
use std::sync::Arc;
use wasmtime::Engine;
use wasmtime::component::InstancePre;

pub struct LinkedNode {
    pub name: String,
    pub role: Role,
    pub pre: InstancePre<Lane>,
    /// Where a tool's exports are, found once: a call loads them from its instance by index.
    pub tool: Option<PluginIndices>,
    /// The component's settings from the world file, as a JSON object.
    pub config: String,
    /// The names of the interfaces it exports.
    pub exports: Vec<String>,
    /// Limits of a lane serving a call of this component's tools (unused for providers: a
    /// lane runs under the limits of the tool it serves).
    pub limits: Limits,
    /// Content hash and config: equal fingerprints mean the same provider behaviour, so a
    /// swap keeps its state.
    pub fingerprint: String,
}

pub struct Linked {
    pub nodes: Vec<LinkedNode>,
    pub resources: Vec<ResourceSlot>,
    /// What every node imports and what serves it (for `seam world check`).
    pub plan: Plan,
    pub host: Arc<HostState>,
    /// The world's limits: a lane serving no tool call runs under them.
    pub limits: Limits,
    /// Prefix of this world's state namespaces.
    pub key: String,
    /// The world's session defaults, as providers read them.
    pub settings: WorldSettings,
}

impl Linked {
    pub fn state_space(&self, node: usize) -> String {
        format!("{}/{}", self.key, self.nodes[node].name)
    }
}

pub struct LinkInput {
    pub decl: NodeDecl,
    pub config: String,
    pub limits: Limits,
    pub fingerprint: String,
}

pub fn link(
    engine: &Engine,
    inputs: Vec<LinkInput>,
    host: Arc<HostState>,
    limits: Limits,
    key: String,
    settings: WorldSettings,
) -> Result<Linked, LinkError> {
    let mut decls = Vec::with_capacity(inputs.len());
    let mut extras = Vec::with_capacity(inputs.len());
    for input in inputs {
        decls.push(input.decl);
        extras.push((input.config, input.limits, input.fingerprint));
    }
    let mut plan = plan::plan(engine, &decls)?;
    let mut nodes = Vec::with_capacity(decls.len());
    let mut linkers = WorldLinkers::new(engine);
    for ((index, decl), (config, limits, fingerprint)) in decls.into_iter().enumerate().zip(extras) {
        let pre = linkers
            .for_imports(&plan.imports[index])
            .and_then(|linker| linker.instantiate_pre(&decl.component))
            .map_err(|e| LinkError::Instantiate {
                component: decl.name.clone(),
                message: format!("{e:#}"),
            })?;
        let tool = match decl.role {
            Role::Tool => Some(PluginIndices::new(&pre).map_err(|e| LinkError::Instantiate {
                component: decl.name.clone(),
                message: format!("a tool component must export seam:tool/tool: {e:#}"),
            })?),
            Role::Provider => None,
        };
        let exports = decl
            .component
            .component_type()
            .exports(engine)
            .map(|(name, _)| name.to_string())
            .collect();
        nodes.push(LinkedNode {
            name: decl.name,
            role: decl.role,
            pre,
            tool,
            config,
            exports,
            limits,
            fingerprint,
        });
    }
    let resources = std::mem::take(&mut plan.resources);
    Ok(Linked {
        nodes,
        resources,
        plan,
        host,
        limits,
        key,
        settings,
    })
}
