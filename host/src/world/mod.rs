//! A world: the components named by a world file, compiled, link-checked and ready to serve
//! tool calls, each call in a lane of its own.

pub mod builtin;
pub mod cache;
mod config_check;
pub(crate) mod epoch;
pub mod file;
mod host_linkers;
pub mod linked;
mod owners;
mod retire;
mod runtime;
mod spares;
mod summary;
mod tool_schema;
mod tools;

pub use owners::Released;
pub use runtime::{Runtime, RuntimeOptions};
pub use tools::{Content, ToolResult, ToolSpec};

use crate::lane::{CallContext, Lane, Session};
use crate::link::LinkError;
use crate::link::names::InterfaceName;
use crate::link::plan::{NodeDecl, Role, Target};
use crate::natives::bindings::tool as tool_bindings;
use file::{ComponentRef, Limits, SandboxMode, WorldFile};
use linked::{LinkInput, Linked};
use spares::Spares;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use wasmtime::component::Val;
use wasmtime::{AsContextMut, Store};

/// Why a world could not be loaded. Every message names the component at fault.
#[derive(Debug, thiserror::Error)]
pub enum WorldError {
    #[error(transparent)]
    File(#[from] file::WorldFileError),
    #[error("{0}")]
    UnknownComponent(String),
    #[error("cannot read component {name} at {path}: {message}")]
    Unreadable {
        name: String,
        path: String,
        message: String,
    },
    #[error("component {name} is not a valid component: {message}")]
    Invalid { name: String, message: String },
    #[error(transparent)]
    Link(#[from] LinkError),
    #[error("tool {tool} is defined by both {first} and {second}")]
    DuplicateTool {
        tool: String,
        first: String,
        second: String,
    },
    #[error("{component} failed to describe its tools: {message}")]
    Describe { component: String, message: String },
    #[error("{component} describes a tool {tool:?} that clients cannot use: {problem}")]
    ToolInvalid {
        component: String,
        tool: String,
        problem: String,
    },
    #[error("[config.{component}] is not valid: {message}")]
    Config { component: String, message: String },
    #[error("workspace {path}: {message}")]
    Workspace { path: String, message: String },
}

impl WorldError {
    pub fn code(&self) -> &'static str {
        match self {
            Self::File(_) => "WORLD_INVALID",
            Self::UnknownComponent(_) => "WORLD_UNKNOWN_COMPONENT",
            Self::Unreadable { .. } => "COMPONENT_UNREADABLE",
            Self::Invalid { .. } => "COMPONENT_INVALID",
            Self::Link(e) => e.code(),
            Self::DuplicateTool { .. } => "WORLD_DUPLICATE_TOOL",
            Self::Describe { .. } => "COMPONENT_DESCRIBE_FAILED",
            Self::ToolInvalid { .. } => "WORLD_TOOL_INVALID",
            Self::Config { .. } => "WORLD_CONFIG_INVALID",
            Self::Workspace { .. } => "WORLD_WORKSPACE_INVALID",
        }
    }
}

pub struct World {
    runtime: Arc<Runtime>,
    linked: Arc<Linked>,
    file: WorldFile,
    workspace: PathBuf,
    tools: Vec<ToolSpec>,
    /// Tool name → the node serving it.
    tool_nodes: BTreeMap<String, usize>,
    spares: Arc<Spares>,
}

impl World {
    /// Load, compile and link a world. `workspace` overrides the world file's.
    pub fn load(runtime: &Arc<Runtime>, file: WorldFile, workspace: Option<&Path>) -> Result<Self, WorldError> {
        let mut world = Self::assemble(runtime, file, workspace, None)?;
        config_check::check_settings(&world)?;
        world.describe_tools()?;
        Ok(world)
    }

    /// Load what one call of `tool` needs. When a full load of this same world (same file, same
    /// components) was recorded, only the components the tool can reach are loaded and linked,
    /// which is most of a cold `seam call`, and no tool is asked to describe itself: the record
    /// says which component serves `tool`, the only tool such a world knows. Otherwise the whole
    /// world is loaded and recorded.
    pub fn load_for(
        runtime: &Arc<Runtime>,
        file: WorldFile,
        workspace: Option<&Path>,
        tool: &str,
    ) -> Result<Self, WorldError> {
        let key = summary::key(&file, &placements(&file));
        let recalled = key.as_deref().and_then(|key| summary::recall(&runtime.cache, key));
        if let Some((reach, node)) = recalled.as_ref().and_then(|summary| summary.reach(tool)) {
            let mut world = Self::assemble(runtime, file, workspace, Some(&reach))?;
            world.tool_nodes.insert(tool.to_string(), node);
            return Ok(world);
        }
        let world = Self::load(runtime, file, workspace)?;
        if let Some(key) = key {
            summary::record(&runtime.cache, &key, &world.summary());
        }
        Ok(world)
    }

    /// What a full load learned: which component serves each tool, which serve each import.
    fn summary(&self) -> summary::Summary {
        summary::Summary {
            tools: self.tool_nodes.clone(),
            imports: self
                .linked
                .plan
                .imports
                .iter()
                .map(|imports| summary::providers(imports))
                .collect(),
        }
    }

    /// Load the world's components (only those in `keep`, by load order, when given) and link
    /// them; their tools are not known yet.
    fn assemble(
        runtime: &Arc<Runtime>,
        file: WorldFile,
        workspace: Option<&Path>,
        keep: Option<&[usize]>,
    ) -> Result<Self, WorldError> {
        let workspace = workspace
            .map(Path::to_path_buf)
            .or_else(|| file.workspace.clone())
            .unwrap_or_else(|| PathBuf::from("."));
        let absolute = std::path::absolute(&workspace).unwrap_or_else(|_| workspace.clone());
        let refused = |message: String| WorldError::Workspace {
            path: absolute.display().to_string(),
            message,
        };
        let workspace = std::fs::canonicalize(&workspace).map_err(|e| refused(e.to_string()))?;
        if !workspace.is_dir() {
            return Err(refused(
                "not a directory: the workspace is the directory tools work in".into(),
            ));
        }
        let mut wanted = placements(&file);
        if let Some(keep) = keep {
            wanted = summary::subset(wanted, keep);
        }
        let inputs = runtime.node_inputs(&file, wanted)?;
        // A world loaded from a file keeps its state namespaces across reloads of that file,
        // so a hot swap clears only the providers that changed.
        let key = file
            .state_key
            .clone()
            .unwrap_or_else(|| format!("world-{}", runtime.next_world_id()));
        let settings = crate::natives::bindings::natives::seam::host::config::WorldSettings {
            workspace: workspace.display().to_string(),
            sandbox_mode: file.sandbox.as_str().to_string(),
            temp_dir: std::fs::canonicalize(std::env::temp_dir())
                .unwrap_or_else(|_| std::env::temp_dir())
                .display()
                .to_string(),
        };
        let linked = linked::link(
            &runtime.engine,
            inputs,
            runtime.host.clone(),
            file.limits.clone(),
            key,
            settings,
        )
        .map_err(|error| match error {
            LinkError::Missing {
                component, interface, ..
            } => LinkError::Missing {
                hint: runtime
                    .built_in_provider_line(&interface)
                    .map_or_else(String::new, |line| {
                        format!("; the built-in world serves it with `{line}` under [providers]")
                    }),
                component,
                interface,
            },
            other => other,
        })?;
        Ok(Self {
            runtime: runtime.clone(),
            spares: Spares::new(linked.nodes.len()),
            linked: Arc::new(linked),
            file,
            workspace,
            tools: Vec::new(),
            tool_nodes: BTreeMap::new(),
        })
    }

    fn describe_tools(&mut self) -> Result<(), WorldError> {
        for (node, n) in self.linked.nodes.iter().enumerate() {
            if n.role != Role::Tool {
                continue;
            }
            let specs = self.describe(node).map_err(|message| WorldError::Describe {
                component: n.name.clone(),
                message,
            })?;
            for spec in specs {
                if let Some(&other) = self.tool_nodes.get(&spec.name) {
                    return Err(WorldError::DuplicateTool {
                        tool: spec.name,
                        first: self.linked.nodes[other].name.clone(),
                        second: n.name.clone(),
                    });
                }
                let tool = spec.name.clone();
                let spec = ToolSpec::from_wit(spec, &n.name).map_err(|problem| WorldError::ToolInvalid {
                    component: n.name.clone(),
                    tool,
                    problem,
                })?;
                self.tool_nodes.insert(spec.name.clone(), node);
                self.tools.push(spec);
            }
        }
        Ok(())
    }

    /// The tools the tool component `node` says it serves.
    fn describe(&self, node: usize) -> Result<Vec<tool_bindings::seam::tool::types::ToolSpec>, String> {
        self.with_tool(node, self.call_context("describe"), |store, plugin| {
            plugin.seam_tool_tool().call_describe(store)
        })
    }

    /// Run `f` against the tool component `node` in a fresh lane.
    fn with_tool<R>(
        &self,
        node: usize,
        call: CallContext,
        f: impl FnOnce(&mut Store<Lane>, &tool_bindings::Plugin) -> wasmtime::Result<R>,
    ) -> Result<R, String> {
        let mut store = self.tool_store(node, call);
        let outcome = self.plugin(&mut store, node).and_then(|plugin| f(&mut store, &plugin));
        outcome.map_err(|e| Lane::fault(&mut store, &e, node).message)
    }

    /// The tool component `node` instantiated in `store`, its exports found by index.
    fn plugin(&self, store: &mut Store<Lane>, node: usize) -> wasmtime::Result<tool_bindings::Plugin> {
        spares::tool_plugin(&self.linked, store, node)
    }

    /// A lane for a call of tool `node`: its spare when one waits, else one built now.
    fn lane_for(&self, node: usize, call: CallContext) -> (Store<Lane>, wasmtime::Result<tool_bindings::Plugin>) {
        if let Some(spare) = self.spares.take(node) {
            tracing::debug!(component = %self.linked.nodes[node].name, "a spare lane serves the call");
            let spare = spare.serving(call, &self.runtime.epoch);
            return (spare.store, Ok(spare.plugin));
        }
        let mut store = self.tool_store(node, call);
        let plugin = self.plugin(&mut store, node);
        (store, plugin)
    }

    /// The spare to build for the next call of tool `node`, after a call that ended in `store`
    /// without a fault.
    fn spare_order(&self, node: usize, store: &Store<Lane>) -> Option<spares::Order> {
        self.runtime.spare_lanes.then(|| spares::Order {
            engine: self.runtime.engine.clone(),
            epoch: self.runtime.epoch.clone(),
            linked: self.linked.clone(),
            spares: self.spares.clone(),
            node,
            reached: store.data().reached_providers(),
            placeholder: self.call_context("spare"),
        })
    }

    /// A lane serving one call of the tool component `node`.
    fn tool_store(&self, node: usize, call: CallContext) -> Store<Lane> {
        Lane::for_tool(
            &self.runtime.engine,
            &self.runtime.epoch,
            self.linked.clone(),
            node,
            call,
        )
    }

    /// Each provider's state namespace with the fingerprint (content hash + config) of the
    /// provider owning it.
    pub(crate) fn provider_spaces(&self) -> Vec<(String, &str)> {
        let nodes = self.linked.nodes.iter().enumerate();
        nodes
            .filter(|(_, n)| n.role == Role::Provider)
            .map(|(i, n)| (self.linked.state_space(i), n.fingerprint.as_str()))
            .collect()
    }

    /// The host state every world of the runtime shares.
    pub(crate) fn host(&self) -> &crate::natives::HostState {
        &self.linked.host
    }

    /// The limits calls of `tool` run under, None for a tool this world does not have.
    pub fn limits_of(&self, tool: &str) -> Option<&Limits> {
        self.tool_nodes.get(tool).map(|&node| &self.linked.nodes[node].limits)
    }

    /// The default session of this world: cwd = the workspace root.
    pub fn session(&self) -> Session {
        Session {
            id: "default".into(),
            cwd: self.workspace.display().to_string(),
            agent: "agent".into(),
        }
    }

    /// A call context in the default session.
    pub fn call_context(&self, call_id: &str) -> CallContext {
        CallContext {
            session: self.session(),
            call_id: call_id.to_string(),
            cancelled: Default::default(),
            progress: None,
            asker: None,
            cancel: Default::default(),
        }
    }

    /// What the world's tools said of themselves; empty for a world `load_for` assembled from
    /// its record, which knows only the tool it was loaded for.
    pub fn tools(&self) -> &[ToolSpec] {
        &self.tools
    }

    /// What `tool` says of itself: from [`Self::tools`], or asked of its component in a world
    /// `load_for` assembled, which did not ask.
    pub fn spec_of(&self, tool: &str) -> Option<ToolSpec> {
        if let Some(spec) = self.tools.iter().find(|spec| spec.name == tool) {
            return Some(spec.clone());
        }
        let &node = self.tool_nodes.get(tool)?;
        let spec = self.describe(node).ok()?.into_iter().find(|spec| spec.name == tool)?;
        ToolSpec::from_wit(spec, &self.linked.nodes[node].name).ok()
    }

    pub fn workspace(&self) -> &Path {
        &self.workspace
    }

    pub fn sandbox_mode(&self) -> SandboxMode {
        self.file.sandbox
    }

    /// Whether the world's commands run confined by an OS sandbox (a component imports the
    /// sandbox seam) in a mode that confines them.
    pub fn confines_commands(&self) -> bool {
        self.sandbox_mode() != SandboxMode::DangerFullAccess
            && self
                .linked
                .plan
                .imports
                .iter()
                .flatten()
                .any(|import| import.name.starts_with("seam:sandbox/sandbox@"))
    }

    pub fn origin(&self) -> &str {
        &self.file.origin
    }

    /// When the world file was read, for a world loaded from one.
    pub fn file_read_at(&self) -> Option<std::time::SystemTime> {
        self.file.read_at
    }

    /// The world's third-party plugins: their grants and limits (for `seam world check`).
    pub fn plugins(&self) -> &[file::Plugin] {
        &self.file.plugins
    }

    /// What a caller of a tool this world lacks is told: the tools it has.
    pub fn no_such_tool(&self, tool: &str) -> String {
        let known: Vec<&str> = self.tool_nodes.keys().map(String::as_str).collect();
        format!("no tool named {tool:?} in this world (tools: {})", known.join(", "))
    }

    /// Run one tool call in a lane of its own. Faults of any component become error results.
    pub fn call(&self, tool: &str, arguments: &str, call: CallContext) -> ToolResult {
        let Some(&node) = self.tool_nodes.get(tool) else {
            return ToolResult::error("UNKNOWN_TOOL", self.no_such_tool(tool));
        };
        // The lane takes the context; the request borrows copies of its few short strings and
        // the caller's arguments, which are lowered into the tool without an owned copy.
        let (session, call_id) = (call.session.clone(), call.call_id.clone());
        let request = tool_bindings::seam::tool::types::Call {
            name: tool,
            arguments,
            session: tool_bindings::seam::tool::types::Session {
                id: &session.id,
                cwd: &session.cwd,
                agent: &session.agent,
            },
            call_id: &call_id,
        };
        let (mut store, plugin) = self.lane_for(node, call);
        let outcome = plugin.and_then(|plugin| plugin.seam_tool_tool().call_invoke(&mut store, request));
        let (result, spare) = match outcome {
            Ok(result) => (ToolResult::from_wit(result), self.spare_order(node, &store)),
            Err(e) => {
                let fault = Lane::fault(&mut store, &e, node);
                tracing::warn!(code = fault.code, component = %fault.component, "{}", fault.message);
                (ToolResult::error(fault.code, fault.message), None)
            }
        };
        store.data().log_output(tool);
        self.runtime.retirement.retire(store, spare);
        result
    }

    /// The link graph: each component, its role, and what serves each import.
    pub fn graph(&self) -> Vec<GraphNode> {
        self.linked
            .nodes
            .iter()
            .zip(&self.linked.plan.imports)
            .map(|(node, imports)| GraphNode {
                component: node.name.clone(),
                role: match node.role {
                    Role::Provider => "provider",
                    Role::Tool => "tool",
                },
                imports: imports
                    .iter()
                    .map(|i| {
                        let served_by = match &i.target {
                            Target::Wasi => "host (WASI, nothing granted)".to_string(),
                            Target::Native => "host (native)".to_string(),
                            Target::CallContext => "host (call context)".to_string(),
                            Target::Asker => "host (asks the caller's human)".to_string(),
                            Target::TypesOnly => "types only".to_string(),
                            Target::Provider(f) => {
                                format!("{} ({})", self.linked.nodes[f.provider].name, f.export)
                            }
                        };
                        (i.name.clone(), served_by)
                    })
                    .collect(),
            })
            .collect()
    }

    /// Change a session's standing sandbox mode: the one write path of the policy service,
    /// persisted by it as a replayable session event. For the harness (a user's command), never
    /// for the model, which can only ask for one-call escalations.
    pub fn set_sandbox_mode(&self, session: &str, mode: SandboxMode) -> Result<(), ToolResult> {
        const POLICY: &str = "seam:sandbox/policy";
        let node = self.linked.nodes.iter().enumerate().find_map(|(n, node)| {
            let export = node.exports.iter().find(|e| e.starts_with(POLICY))?;
            (node.role == Role::Provider).then(|| (n, export.clone()))
        });
        let Some((node, export)) = node else {
            return Err(ToolResult::error(
                "POLICY_UNAVAILABLE",
                "this world has no sandbox policy provider",
            ));
        };
        let mut store = self
            .runtime
            .new_store(self.linked.clone(), self.call_context("set-sandbox-mode"));
        store.data_mut().enter(node);
        let called = Lane::instance(&mut store.as_context_mut(), node).and_then(|instance| {
            let interface = instance
                .get_export_index(&mut store, None, &export)
                .ok_or_else(|| wasmtime::format_err!("{export} is not exported"))?;
            let func = instance
                .get_export_index(&mut store, Some(&interface), "set-mode")
                .and_then(|index| instance.get_func(&mut store, index))
                .ok_or_else(|| wasmtime::format_err!("{export} has no set-mode"))?;
            let mut results = [Val::Bool(false)];
            let args = [Val::String(session.to_string()), Val::Enum(mode.as_str().to_string())];
            func.call(&mut store, &args, &mut results)?;
            Ok(results)
        });
        match called {
            Ok([Val::Result(Ok(_))]) => Ok(()),
            Ok([Val::Result(Err(Some(error)))]) => Err(error_record(&error)),
            Ok(other) => Err(ToolResult::error(
                "POLICY_FAILED",
                format!("unexpected answer {other:?}"),
            )),
            Err(e) => {
                let fault = Lane::fault(&mut store, &e, node);
                Err(ToolResult::error(fault.code, fault.message))
            }
        }
    }

    /// Instantiate every component of the world in one lane (what a call reaching all of them
    /// pays), without calling anything, and hand the lane back so its teardown can be timed
    /// apart. Used by `seam bench`.
    pub fn instantiate_all(&self) -> wasmtime::Result<Store<Lane>> {
        let mut store = self.runtime.new_store(self.linked.clone(), self.call_context("bench"));
        for node in 0..self.linked.nodes.len() {
            Lane::instance(&mut store.as_context_mut(), node)?;
        }
        Ok(store)
    }
}

/// A seam `error` record ({code, message}) as an error result.
fn error_record(value: &Val) -> ToolResult {
    let field = |name: &str| match value {
        Val::Record(fields) => fields.iter().find_map(|(n, v)| match v {
            Val::String(s) if n == name => Some(s.clone()),
            _ => None,
        }),
        _ => None,
    };
    ToolResult::error(
        &field("code").unwrap_or_else(|| "POLICY_FAILED".into()),
        field("message").unwrap_or_default(),
    )
}

/// One component in `seam world check`'s report.
#[derive(Debug, serde::Serialize)]
pub struct GraphNode {
    pub component: String,
    pub role: &'static str,
    /// (import, what serves it)
    pub imports: Vec<(String, String)>,
}

/// Every component of the world in load order, with its place: providers stack by stack
/// (outermost first), then tools, then plugins.
fn placements(file: &WorldFile) -> Vec<(&ComponentRef, Placement<'_>)> {
    let mut wanted = Vec::new();
    for (seam, stack) in &file.providers {
        let first = wanted.len();
        for (depth, component) in stack.iter().enumerate() {
            let place = Placement {
                role: Role::Provider,
                inner: (depth + 1 < stack.len()).then_some(first + depth + 1),
                visible: depth == 0,
                seam: Some(seam),
                grants: None,
                limits: &file.limits,
            };
            wanted.push((component, place));
        }
    }
    for component in &file.tools {
        wanted.push((component, Placement::tool(None, &file.limits)));
    }
    for plugin in &file.plugins {
        let place = Placement::tool(Some(&plugin.grants), &plugin.limits);
        wanted.push((&plugin.component, place));
    }
    wanted
}

/// Where a component sits in the world: what linking and lanes need besides its code.
struct Placement<'a> {
    role: Role,
    inner: Option<usize>,
    visible: bool,
    seam: Option<&'a str>,
    grants: Option<&'a [String]>,
    limits: &'a Limits,
}

impl<'a> Placement<'a> {
    /// A tool: first-party (no grants: every seam) or a plugin (only its grants).
    fn tool(grants: Option<&'a [String]>, limits: &'a Limits) -> Self {
        Self {
            role: Role::Tool,
            inner: None,
            visible: false,
            seam: None,
            grants,
            limits,
        }
    }
}

impl Runtime {
    /// The built-in world's `[providers]` line for the seam that exports `interface`, if any:
    /// a missing link is named with its fix (never filled in silently: a sandboxed world that
    /// forgot its shell must not get the unconfined one).
    fn built_in_provider_line(&self, interface: &str) -> Option<String> {
        let wanted = InterfaceName::parse(interface)?.unversioned();
        WorldFile::default_world()
            .providers
            .into_iter()
            .find_map(|(seam, stack)| {
                let ComponentRef::Builtin(name) = stack.first()? else {
                    return None;
                };
                let built_in = builtin::find(name)?;
                let component = self
                    .cache
                    .load(&self.engine, built_in.name, built_in.wasm, built_in.hash)
                    .ok()?;
                let exports = component.component_type().exports(&self.engine).any(|(export, _)| {
                    InterfaceName::parse(export).is_some_and(|export| export.unversioned() == wanted)
                });
                exports.then(|| format!("{seam} = \"{name}\""))
            })
    }

    /// Every component's link input, in order, loaded on two threads: deserializing a compiled
    /// component is mostly parsing its metadata, which two cores share well (a cold
    /// `seam call` starts ~0.35 ms sooner).
    fn node_inputs(
        &self,
        file: &WorldFile,
        wanted: Vec<(&ComponentRef, Placement<'_>)>,
    ) -> Result<Vec<LinkInput>, WorldError> {
        let (even, odd): (Vec<_>, Vec<_>) = wanted.into_iter().enumerate().partition(|(index, _)| index % 2 == 0);
        let load = |items: Vec<(usize, (&ComponentRef, Placement<'_>))>| {
            let inputs = items.into_iter();
            inputs
                .map(|(_, (component, place))| self.node_input(file, component, place))
                .collect::<Vec<_>>()
        };
        let (even, odd) = std::thread::scope(|scope| {
            let helper = scope.spawn(|| load(odd));
            let even = load(even);
            (even, helper.join())
        });
        let mut odd = odd.unwrap_or_else(|panic| std::panic::resume_unwind(panic)).into_iter();
        let mut inputs = Vec::with_capacity(even.len() + odd.len());
        for input in even {
            inputs.push(input?);
            if let Some(input) = odd.next() {
                inputs.push(input?);
            }
        }
        Ok(inputs)
    }

    fn node_input(
        &self,
        file: &WorldFile,
        component: &ComponentRef,
        place: Placement<'_>,
    ) -> Result<LinkInput, WorldError> {
        let name = component.name();
        let hash: String;
        let compiled = match component {
            ComponentRef::Builtin(builtin) => {
                let Some(b) = builtin::find(builtin) else {
                    // The bench's own components are no one's to name.
                    let known: Vec<&str> = builtin::BUILTINS
                        .iter()
                        .filter(|b| b.kind != builtin::BuiltinKind::Bench)
                        .map(|b| b.name)
                        .collect();
                    return Err(WorldError::UnknownComponent(format!(
                        "{origin}: no built-in component named {builtin:?} (built-ins: {known}; a path must end in .wasm; `seam world components` says what each does)",
                        origin = file.origin,
                        known = known.join(", ")
                    )));
                };
                hash = b.hash.to_string();
                self.cache.load(&self.engine, b.name, b.wasm, b.hash)
            }
            ComponentRef::Path(path) => {
                let (found, compiled) = self.cache.load_file(&self.engine, &name, path).map_err(|e| WorldError::Unreadable {
                    name: name.clone(),
                    path: path.display().to_string(),
                    message: e.to_string(),
                })?;
                hash = found;
                compiled
            }
        }
        .map_err(|e| WorldError::Invalid {
            name: name.clone(),
            message: invalid_component(&format!("{e:#}")),
        })?;
        let config = file
            .config
            .get(&name)
            .cloned()
            .unwrap_or_else(|| serde_json::json!({}))
            .to_string();
        Ok(LinkInput {
            decl: NodeDecl {
                name,
                role: place.role,
                component: compiled,
                inner: place.inner,
                visible: place.visible,
                seam: place.seam.map(str::to_string),
                grants: place.grants.map(<[String]>::to_vec),
            },
            fingerprint: format!("{hash}|{config}"),
            config,
            limits: place.limits.clone(),
        })
    }
}

/// Why the engine refused a component's bytes, on one line: its parser prints byte arrays over
/// many, and a file that is not WebAssembly at all is best told as such.
fn invalid_component(engine_message: &str) -> String {
    if engine_message.contains("magic header not detected") {
        return "it is not a WebAssembly file (those start with the bytes \\0asm)".to_owned();
    }
    engine_message.split_whitespace().collect::<Vec<_>>().join(" ")
}
