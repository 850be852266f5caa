//! Resolve every import of every component to exactly one provider, before any call.
//!
//! Inputs are the world's components (providers, possibly stacked, and tools); the output is a
//! plan saying, for each import of each component, what serves it: WASI with nothing granted,
//! a host native, the call context, or an export of a provider component (with the function
//! export indices and resource type ids forwarding needs).

use super::error::LinkError;
use super::names::InterfaceName;
use super::plugin_identity;
use super::plugin_policy::{self, Site};
use super::typecheck::{self, ResourceMatch};
use wasmtime::Engine;
use wasmtime::component::types::ComponentItem;
use wasmtime::component::{Component, ComponentExportIndex, ResourceType};

/// The host natives this host implements, all at version 0.1.0.
pub const NATIVES: &[&str] = &["process", "log", "state", "config", "sandbox-launch", "fsio", "pty"];
const NATIVE_VERSION: &str = "0.1.0";
/// The call context a tool may import (implemented by the host, not a native).
pub const CALL_CONTEXT: &str = "seam:tool/context";
/// The channel to a human; served by the host unless a provider of the world exports it.
pub const ASKER: &str = "seam:approval/asker";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Provider,
    Tool,
}

/// A component of the world as the plan sees it.
pub struct NodeDecl {
    pub name: String,
    pub role: Role,
    pub component: Component,
    /// The next provider down this provider's stack (it serves this one's imports of the seam).
    pub inner: Option<usize>,
    /// False for inner elements of a stack: they serve only the wrapper above them.
    pub visible: bool,
    /// For a provider, the seam label of the stack it belongs to in the world file.
    pub seam: Option<String>,
    /// For a third-party plugin, the seam labels it may import; None = every seam (first-party
    /// tools and providers).
    pub grants: Option<Vec<String>>,
}

/// What serves one import.
#[derive(Debug)]
pub enum Target {
    Wasi,
    Native,
    CallContext,
    /// seam:approval/asker answered by whoever called (terminal, MCP client, embedder).
    Asker,
    /// An interface of types only: nothing to serve.
    TypesOnly,
    Provider(Forward),
}

#[derive(Debug)]
pub struct Forward {
    pub provider: usize,
    /// The provider's export name (may carry a newer compatible version than the import).
    pub export: String,
    pub funcs: Vec<FuncForward>,
    /// The consumer-side resources of this import: name and dynamic type id.
    pub resources: Vec<(String, u32)>,
}

#[derive(Debug)]
pub struct FuncForward {
    pub name: String,
    /// Index of this function in a lane's cache of provider functions.
    pub slot: usize,
    pub export_index: ComponentExportIndex,
    /// Whether its arguments, and its results, can carry resource handles to translate: values
    /// that cannot pass through untouched (arguments are not even copied).
    pub translate: Translate,
    /// For a plugin's import: where its arguments carry a sandbox policy, which the host
    /// replaces with the session's (see `plugin_policy`).
    pub policy_sites: Vec<(usize, Site)>,
    /// For a plugin's import of a seam interface: where its arguments name a session or an
    /// agent, which the host replaces with the call's own (see `plugin_identity`).
    pub identity_sites: Vec<(usize, plugin_identity::Site)>,
}

/// Which values of a forwarded function can carry resource handles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Translate {
    pub args: bool,
    pub results: bool,
}

#[derive(Debug)]
pub struct ImportPlan {
    pub name: String,
    pub target: Target,
}

/// A provider-exported resource type every consumer of it sees as one dynamic host type.
#[derive(Debug)]
pub struct ResourceSlot {
    pub provider: usize,
    /// Where the provider exports the resource type (valid for every instance of it).
    pub index: ComponentExportIndex,
    ty: ResourceType,
}

#[derive(Debug, Default)]
pub struct Plan {
    /// Per node, its imports in declaration order.
    pub imports: Vec<Vec<ImportPlan>>,
    /// Indexed by dynamic resource type id.
    pub resources: Vec<ResourceSlot>,
    /// Provider nodes in dependency order (a provider after everything it imports).
    pub order: Vec<usize>,
    /// How many forwarded functions the world has (the size of a lane's function cache).
    pub func_slots: usize,
    /// The world's seam:sandbox/policy `resolve`, which sets the policy of plugins' calls.
    pub policy_resolver: Option<PolicyResolver>,
}

/// Where the world's sandbox policy service answers `resolve`.
#[derive(Debug, Clone, Copy)]
pub struct PolicyResolver {
    pub provider: usize,
    pub resolve: ComponentExportIndex,
}

/// The interface whose `resolve` sets a plugin's policy.
const POLICY: &str = "seam:sandbox/policy@0.1.0";

struct Export<'a> {
    name: InterfaceName,
    raw: &'a str,
}

pub fn plan(engine: &Engine, nodes: &[NodeDecl]) -> Result<Plan, LinkError> {
    let exports: Vec<Vec<(String, ComponentItem)>> = nodes
        .iter()
        .map(|n| {
            n.component
                .component_type()
                .exports(engine)
                .map(|(name, e)| (name.to_string(), e.ty))
                .collect()
        })
        .collect();
    check_labels(nodes, &exports)?;
    let mut plan = Plan::default();
    for (index, node) in nodes.iter().enumerate() {
        let mut imports = Vec::new();
        for (name, item) in node.component.component_type().imports(engine) {
            let target = resolve(engine, nodes, &exports, index, name, &item.ty, &mut plan.resources)?;
            imports.push(ImportPlan {
                name: name.to_string(),
                target,
            });
        }
        plan.imports.push(imports);
    }
    check_stacks(nodes, &plan.imports)?;
    plan.order = dependency_order(nodes, &plan.imports)?;
    let mut slots = 0;
    for import in plan.imports.iter_mut().flatten() {
        if let Target::Provider(forward) = &mut import.target {
            for func in &mut forward.funcs {
                func.slot = slots;
                slots += 1;
            }
        }
    }
    plan.func_slots = slots;
    plan.policy_resolver = policy_resolver(nodes, &exports);
    Ok(plan)
}

/// The seams of seam's own packages, by the label a world file lists their providers under,
/// with the interface prefix a provider of each exports. Other labels name third-party seams.
const KNOWN_SEAMS: &[(&str, &str)] = &[
    ("approval", "seam:approval/"),
    ("fs", "seam:fs/"),
    ("jobs", "seam:jobs/"),
    ("lsp", "seam:lsp/"),
    ("policy", "seam:sandbox/policy@"),
    ("sandbox", "seam:sandbox/sandbox@"),
    ("shell", "seam:shell/"),
    ("subprocess", "seam:subprocess/"),
    ("terminal", "seam:terminal/"),
];

/// A provider listed under one of seam's own seams provides it: `fs = "bash-local"` would
/// otherwise load, and a plugin granted `fs` would be handed a shell.
fn check_labels(nodes: &[NodeDecl], exports: &[Vec<(String, ComponentItem)>]) -> Result<(), LinkError> {
    for (node, exported) in nodes.iter().zip(exports) {
        let Some(label) = node.seam.as_deref().filter(|_| node.visible) else {
            continue;
        };
        let Some((_, prefix)) = KNOWN_SEAMS.iter().find(|(known, _)| *known == label) else {
            continue;
        };
        if !exported.iter().any(|(name, _)| name.starts_with(prefix)) {
            let names: Vec<&str> = exported.iter().map(|(name, _)| name.as_str()).collect();
            return Err(LinkError::LabelMismatch {
                label: label.to_owned(),
                provider: node.name.clone(),
                exports: if names.is_empty() {
                    "nothing".to_owned()
                } else {
                    names.join(", ")
                },
            });
        }
    }
    Ok(())
}

/// Every wrapper of a stack calls the layer below it. A wrapper that does not (a stack listed
/// innermost first, say) would leave the layers under it unreachable: a sandbox that is never
/// asked, in a world that looks confined.
fn check_stacks(nodes: &[NodeDecl], imports: &[Vec<ImportPlan>]) -> Result<(), LinkError> {
    for (index, node) in nodes.iter().enumerate() {
        let Some(inner) = node.inner else { continue };
        let calls_inner = imports[index]
            .iter()
            .any(|import| matches!(&import.target, Target::Provider(forward) if forward.provider == inner));
        if !calls_inner {
            return Err(LinkError::StackUnreachable {
                seam: node.seam.clone().unwrap_or_else(|| node.name.clone()),
                wrapper: node.name.clone(),
                inner: nodes[inner].name.clone(),
            });
        }
    }
    Ok(())
}

/// The visible provider exporting seam:sandbox/policy, and its `resolve`.
fn policy_resolver(nodes: &[NodeDecl], exports: &[Vec<(String, ComponentItem)>]) -> Option<PolicyResolver> {
    let wanted = InterfaceName::parse(POLICY).expect("a valid interface name");
    nodes.iter().enumerate().find_map(|(provider, node)| {
        if node.role != Role::Provider || !node.visible {
            return None;
        }
        let (export, _) = exports[provider]
            .iter()
            .find(|(name, _)| InterfaceName::parse(name).is_some_and(|name| name.serves(&wanted)))?;
        let instance = node.component.get_export_index(None, export)?;
        let resolve = node.component.get_export_index(Some(&instance), "resolve")?;
        Some(PolicyResolver { provider, resolve })
    })
}

fn resolve(
    engine: &Engine,
    nodes: &[NodeDecl],
    exports: &[Vec<(String, ComponentItem)>],
    index: usize,
    import: &str,
    item: &ComponentItem,
    resources: &mut Vec<ResourceSlot>,
) -> Result<Target, LinkError> {
    let node = &nodes[index];
    let unsupported = || LinkError::Unsupported {
        component: node.name.clone(),
        item: import.to_string(),
    };
    let (ComponentItem::ComponentInstance(instance), Some(wanted)) = (item, InterfaceName::parse(import)) else {
        return Err(unsupported());
    };
    if wanted.namespace() == "wasi" {
        return Ok(Target::Wasi);
    }
    if wanted.package == "seam:host" {
        if node.role != Role::Provider {
            return Err(LinkError::HostForbidden {
                component: node.name.clone(),
                interface: import.to_string(),
            });
        }
        let offered = InterfaceName::parse(&format!("seam:host/{}@{NATIVE_VERSION}", wanted.interface));
        return match offered {
            Some(offered) if NATIVES.contains(&wanted.interface.as_str()) && offered.serves(&wanted) => {
                Ok(Target::Native)
            }
            _ => Err(LinkError::UnknownNative {
                component: node.name.clone(),
                interface: import.to_string(),
            }),
        };
    }
    if wanted.unversioned() == CALL_CONTEXT {
        return Ok(Target::CallContext);
    }
    let items: Vec<(String, ComponentItem)> = instance.exports(engine).map(|(n, e)| (n.to_string(), e.ty)).collect();
    if !items
        .iter()
        .any(|(_, i)| matches!(i, ComponentItem::ComponentFunc(_) | ComponentItem::Resource(_)))
    {
        return Ok(Target::TypesOnly);
    }

    let provider = match choose_provider(nodes, exports, index, import, &wanted) {
        Err(LinkError::Missing { .. }) if wanted.unversioned() == ASKER => return Ok(Target::Asker),
        chosen => chosen?,
    };
    check_grant(node, &nodes[provider], import)?;
    let (export_raw, export_item) = exports[provider]
        .iter()
        .find(|(n, _)| InterfaceName::parse(n).is_some_and(|n| n.serves(&wanted)))
        .expect("choose_provider found this export");
    let ComponentItem::ComponentInstance(offered) = export_item else {
        return Err(unsupported());
    };
    let offered: Vec<(String, ComponentItem)> = offered.exports(engine).map(|(n, e)| (n.to_string(), e.ty)).collect();
    build_forward(
        engine, nodes, index, import, provider, export_raw, &items, &offered, resources,
    )
}

/// A plugin reaches a provider only through a seam label it was granted. Checked after the
/// provider is chosen, so the refusal names the seam that would have served the import.
fn check_grant(node: &NodeDecl, provider: &NodeDecl, import: &str) -> Result<(), LinkError> {
    let Some(grants) = &node.grants else {
        return Ok(());
    };
    let seam = provider.seam.clone().unwrap_or_else(|| provider.name.clone());
    if grants.contains(&seam) {
        return Ok(());
    }
    Err(LinkError::NotGranted {
        component: node.name.clone(),
        interface: import.to_string(),
        seam,
        provider: provider.name.clone(),
    })
}

/// The stack's next provider when it exports the interface, otherwise the one visible provider.
fn choose_provider(
    nodes: &[NodeDecl],
    exports: &[Vec<(String, ComponentItem)>],
    index: usize,
    import: &str,
    wanted: &InterfaceName,
) -> Result<usize, LinkError> {
    let offers = |p: usize| -> Vec<Export<'_>> {
        exports[p]
            .iter()
            .filter_map(|(raw, _)| InterfaceName::parse(raw).map(|name| Export { name, raw }))
            .filter(|e| e.name.unversioned() == wanted.unversioned())
            .collect()
    };
    let serves = |p: usize| offers(p).iter().any(|e| e.name.serves(wanted));
    if let Some(inner) = nodes[index].inner
        && !offers(inner).is_empty()
    {
        return if serves(inner) {
            Ok(inner)
        } else {
            Err(version_error(nodes, index, import, inner, &offers(inner)))
        };
    }
    let candidates: Vec<usize> = (0..nodes.len())
        .filter(|&p| p != index && nodes[p].role == Role::Provider && nodes[p].visible)
        .filter(|&p| !offers(p).is_empty())
        .collect();
    let serving: Vec<usize> = candidates.iter().copied().filter(|&p| serves(p)).collect();
    match serving.as_slice() {
        [one] => Ok(*one),
        [] => match candidates.first() {
            Some(&p) => Err(version_error(nodes, index, import, p, &offers(p))),
            None => Err(LinkError::Missing {
                component: nodes[index].name.clone(),
                interface: import.to_string(),
                hint: String::new(),
            }),
        },
        many => Err(LinkError::Ambiguous {
            component: nodes[index].name.clone(),
            interface: import.to_string(),
            // Each with the label it has in the world file: the same component under two
            // labels would otherwise read as one name twice.
            providers: many
                .iter()
                .map(|&p| match &nodes[p].seam {
                    Some(seam) => format!("{} (as {seam})", nodes[p].name),
                    None => nodes[p].name.clone(),
                })
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}

fn version_error(nodes: &[NodeDecl], index: usize, import: &str, provider: usize, offers: &[Export<'_>]) -> LinkError {
    LinkError::Version {
        component: nodes[index].name.clone(),
        interface: import.to_string(),
        provider: nodes[provider].name.clone(),
        offered: offers.iter().map(|e| e.raw).collect::<Vec<_>>().join(", "),
    }
}

struct ByName<'a> {
    consumer: &'a [(String, ResourceType)],
    provider: &'a [(String, ResourceType)],
}

impl ResourceMatch for ByName<'_> {
    fn same(&self, c: &ResourceType, p: &ResourceType) -> bool {
        let name = |list: &[(String, ResourceType)], t: &ResourceType| {
            list.iter().find(|(_, r)| r == t).map(|(n, _)| n.clone())
        };
        match (name(self.consumer, c), name(self.provider, p)) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn build_forward(
    _engine: &Engine,
    nodes: &[NodeDecl],
    index: usize,
    import: &str,
    provider: usize,
    export: &str,
    wanted: &[(String, ComponentItem)],
    offered: &[(String, ComponentItem)],
    resources: &mut Vec<ResourceSlot>,
) -> Result<Target, LinkError> {
    let consumer_resources: Vec<(String, ResourceType)> = wanted
        .iter()
        .filter_map(|(n, i)| match i {
            ComponentItem::Resource(r) => Some((n.clone(), *r)),
            _ => None,
        })
        .collect();
    let provider_resources: Vec<(String, ResourceType)> = offered
        .iter()
        .filter_map(|(n, i)| match i {
            ComponentItem::Resource(r) => Some((n.clone(), *r)),
            _ => None,
        })
        .collect();
    let problem = |function: &str, problem: String| LinkError::Function {
        component: nodes[index].name.clone(),
        interface: import.to_string(),
        function: function.to_string(),
        provider: nodes[provider].name.clone(),
        problem,
    };

    let component = &nodes[provider].component;
    let instance_index = component
        .get_export_index(None, export)
        .ok_or_else(|| problem("*", "does not export this interface".into()))?;
    let mut resource_ids = Vec::new();
    for (name, _) in &consumer_resources {
        let Some((_, ty)) = provider_resources.iter().find(|(n, _)| n == name) else {
            return Err(problem(name, "does not export this resource".into()));
        };
        let id = match resources.iter().position(|s| s.provider == provider && s.ty == *ty) {
            Some(id) => id,
            None => {
                let index = component
                    .get_export_index(Some(&instance_index), name)
                    .ok_or_else(|| problem(name, "does not export this resource".into()))?;
                resources.push(ResourceSlot {
                    provider,
                    index,
                    ty: *ty,
                });
                resources.len() - 1
            }
        };
        resource_ids.push((name.clone(), id as u32));
    }

    let matcher = ByName {
        consumer: &consumer_resources,
        provider: &provider_resources,
    };
    let plugin = nodes[index].grants.is_some();
    let seam_interface = InterfaceName::parse(import).is_some_and(|name| name.namespace() == "seam");
    let mut funcs = Vec::new();
    for (name, item) in wanted {
        let ComponentItem::ComponentFunc(want) = item else {
            continue;
        };
        let Some(have) = offered.iter().find_map(|(n, i)| match i {
            ComponentItem::ComponentFunc(f) if n == name => Some(f),
            _ => None,
        }) else {
            return Err(problem(name, "does not export".into()));
        };
        typecheck::check_func(want, have, &matcher).map_err(|e| problem(name, e))?;
        let export_index = component
            .get_export_index(Some(&instance_index), name)
            .ok_or_else(|| problem(name, "does not export".into()))?;
        funcs.push(FuncForward {
            name: name.clone(),
            slot: 0,
            export_index,
            translate: Translate {
                args: want.params().any(|(_, t)| typecheck::carries_resources(&t)),
                results: want.results().any(|t| typecheck::carries_resources(&t)),
            },
            policy_sites: if plugin { plugin_policy::sites(want) } else { Vec::new() },
            identity_sites: if plugin && seam_interface {
                plugin_identity::sites(want)
            } else {
                Vec::new()
            },
        });
    }
    Ok(Target::Provider(Forward {
        provider,
        export: export.to_string(),
        funcs,
        resources: resource_ids,
    }))
}

/// Providers ordered so each comes after the providers it imports; a cycle is refused.
fn dependency_order(nodes: &[NodeDecl], imports: &[Vec<ImportPlan>]) -> Result<Vec<usize>, LinkError> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Active,
        Done,
    }
    fn visit(
        n: usize,
        imports: &[Vec<ImportPlan>],
        nodes: &[NodeDecl],
        marks: &mut [Mark],
        path: &mut Vec<usize>,
        order: &mut Vec<usize>,
    ) -> Result<(), LinkError> {
        match marks[n] {
            Mark::Done => return Ok(()),
            Mark::Active => {
                let start = path.iter().position(|&p| p == n).unwrap_or(0);
                let mut names: Vec<&str> = path[start..].iter().map(|&p| nodes[p].name.as_str()).collect();
                names.push(&nodes[n].name);
                return Err(LinkError::Cycle {
                    path: names.join(" -> "),
                });
            }
            Mark::New => {}
        }
        marks[n] = Mark::Active;
        path.push(n);
        for import in &imports[n] {
            if let Target::Provider(f) = &import.target {
                visit(f.provider, imports, nodes, marks, path, order)?;
            }
        }
        path.pop();
        marks[n] = Mark::Done;
        order.push(n);
        Ok(())
    }
    let mut marks = vec![Mark::New; nodes.len()];
    let mut order = Vec::new();
    for n in 0..nodes.len() {
        visit(n, imports, nodes, &mut marks, &mut Vec::new(), &mut order)?;
    }
    Ok(order.into_iter().filter(|&n| nodes[n].role == Role::Provider).collect())
}
