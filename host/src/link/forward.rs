//! Interface-agnostic forwarding: a consumer's import is defined as host functions that call
//! the provider's export in the same lane, translating resource handles on the way.
//!
//! A provider's resource reaches a consumer as a host resource of a dynamic type (one id per
//! provider resource type); the handle's rep indexes the lane's proxy table, which holds the
//! provider's own handle. Own handles move, borrows lend; the consumer dropping its handle
//! drops the provider's.

use super::plan::{FuncForward, Translate};
use super::{plugin_identity, plugin_policy};
use crate::lane::Lane;
use wasmtime::component::{LinkerInstance, ResourceAny, ResourceDynamic, ResourceType, Val};
use wasmtime::{AsContextMut, Result, StoreContextMut};

/// Provider handles lent to consumers, indexed by the rep of the consumer's dynamic handle.
#[derive(Default)]
pub struct Proxies {
    slots: Vec<Option<(usize, ResourceAny)>>,
    free: Vec<u32>,
}

impl Proxies {
    fn insert(&mut self, provider: usize, handle: ResourceAny) -> u32 {
        match self.free.pop() {
            Some(rep) => {
                self.slots[rep as usize] = Some((provider, handle));
                rep
            }
            None => {
                self.slots.push(Some((provider, handle)));
                (self.slots.len() - 1) as u32
            }
        }
    }

    fn get(&self, rep: u32) -> Result<(usize, ResourceAny)> {
        self.slots
            .get(rep as usize)
            .copied()
            .flatten()
            .ok_or_else(|| wasmtime::format_err!("unknown resource handle {rep}"))
    }

    fn take(&mut self, rep: u32) -> Result<(usize, ResourceAny)> {
        let slot = self.get(rep)?;
        self.slots[rep as usize] = None;
        self.free.push(rep);
        Ok(slot)
    }
}

/// Define these resources and functions of an import served by `provider` in a linker
/// instance.
pub fn define(
    instance: &mut LinkerInstance<'_, Lane>,
    provider: usize,
    resources: &[&(String, u32)],
    funcs: &[&FuncForward],
    interface: &str,
) -> Result<()> {
    for (name, id) in resources {
        instance.resource(name, ResourceType::host_dynamic(*id), drop_proxy)?;
    }
    for func in funcs {
        let FuncForward {
            name,
            slot,
            export_index,
            translate,
            policy_sites,
            identity_sites,
        } = func;
        let (slot, export_index, translate) = (*slot, *export_index, *translate);
        let (policy_sites, identity_sites) = (policy_sites.clone(), identity_sites.clone());
        let label: std::sync::Arc<str> = format!("{interface}.{name}").into();
        instance.func_new(name, move |mut store, _ty, args, results| {
            let lane = store.data();
            let span = tracing::enabled!(tracing::Level::DEBUG).then(|| {
                (
                    tracing::debug_span!(
                        "seam",
                        caller = lane.current_name(),
                        component = lane.node_name(provider),
                        function = &*label
                    ),
                    std::time::Instant::now(),
                )
            });
            let _entered = span.as_ref().map(|(s, _)| s.enter());
            let func = match store.data().funcs[slot] {
                Some(func) => func,
                None => {
                    let instance = Lane::instance(&mut store, provider)?;
                    let func = instance
                        .get_func(&mut store, export_index)
                        .ok_or_else(|| wasmtime::format_err!("{label} vanished from its provider"))?;
                    store.data_mut().funcs[slot] = Some(func);
                    func
                }
            };
            // A plugin's call carries the session's policy and the call's own identity.
            let imposed;
            let args = if policy_sites.is_empty() && identity_sites.is_empty() {
                args
            } else {
                let mut owned = args.to_vec();
                if !policy_sites.is_empty() {
                    let policy = session_policy(&mut store)?;
                    plugin_policy::impose(&mut owned, &policy_sites, &policy);
                }
                plugin_identity::impose(&mut owned, &identity_sites, &store.data().call.session);
                imposed = owned;
                &imposed[..]
            };
            store.data_mut().enter(provider);
            let outcome = call_translated(&mut store, provider, func, translate, args, results);
            store.data_mut().leave(provider, outcome.is_err());
            if let Some((span, start)) = &span {
                span.in_scope(|| tracing::debug!(micros = start.elapsed().as_secs_f64() * 1e6, "crossed"));
            }
            outcome
        })?;
    }
    Ok(())
}

/// The policy the world's seam:sandbox/policy resolves for the call's session (no escalation):
/// what a plugin's call carries wherever it carries one.
fn session_policy(store: &mut StoreContextMut<'_, Lane>) -> Result<Val> {
    let Some(resolver) = store.data().linked.plan.policy_resolver else {
        return Err(wasmtime::format_err!(
            "a plugin's call carries a sandbox policy, and this world has no seam:sandbox/policy provider to set it"
        ));
    };
    let instance = Lane::instance(store, resolver.provider)?;
    let resolve = instance
        .get_func(&mut *store, resolver.resolve)
        .ok_or_else(|| wasmtime::format_err!("seam:sandbox/policy lost its resolve"))?;
    let session = &store.data().call.session;
    let args = [
        Val::String(session.id.clone()),
        Val::Option(Some(Box::new(Val::String(session.cwd.clone())))),
        Val::Option(None),
    ];
    let mut results = [Val::Bool(false)];
    store.data_mut().enter(resolver.provider);
    let outcome = resolve.call(&mut *store, &args, &mut results);
    store.data_mut().leave(resolver.provider, outcome.is_err());
    outcome?;
    let [result] = results;
    match result {
        Val::Result(Ok(Some(effective))) => match *effective {
            Val::Record(fields) => fields
                .into_iter()
                .find(|(name, _)| name == "policy")
                .map(|(_, policy)| policy),
            _ => None,
        }
        .ok_or_else(|| wasmtime::format_err!("seam:sandbox/policy resolved no policy")),
        error => Err(wasmtime::format_err!(
            "the sandbox policy of a plugin's call could not be resolved: {error:?}"
        )),
    }
}

/// Calls the provider's `func`, translating the handles in the values that can carry them;
/// the others pass as they are (a call's arguments are not copied).
fn call_translated(
    store: &mut StoreContextMut<'_, Lane>,
    provider: usize,
    func: wasmtime::component::Func,
    translate: Translate,
    args: &[Val],
    results: &mut [Val],
) -> Result<()> {
    if translate.args {
        let args = args.iter().map(|v| to_provider(store, v)).collect::<Result<Vec<_>>>()?;
        func.call(&mut *store, &args, results)?;
    } else {
        func.call(&mut *store, args, results)?;
    }
    if !translate.results {
        return Ok(());
    }
    for result in results.iter_mut() {
        let value = std::mem::replace(result, Val::Bool(false));
        *result = to_consumer(store, provider, value)?;
    }
    Ok(())
}

/// The consumer dropped its handle: drop the provider's.
fn drop_proxy(mut store: StoreContextMut<'_, Lane>, rep: u32) -> Result<()> {
    let (provider, handle) = store.data_mut().proxies.take(rep)?;
    store.data_mut().enter(provider);
    let outcome = handle.resource_drop(&mut store);
    store.data_mut().leave(provider, outcome.is_err());
    outcome
}

/// Consumer-side value → provider-side value: proxies become the provider's handles.
fn to_provider(store: &mut StoreContextMut<'_, Lane>, value: &Val) -> Result<Val> {
    Ok(match value {
        Val::Resource(handle) => {
            let dynamic = ResourceDynamic::try_from_resource_any(*handle, store.as_context_mut())?;
            let proxies = &mut store.data_mut().proxies;
            let (_, inner) = if dynamic.owned() {
                proxies.take(dynamic.rep())?
            } else {
                proxies.get(dynamic.rep())?
            };
            Val::Resource(inner)
        }
        Val::List(items) if is_plain(items) => Val::List(items.clone()),
        Val::List(items) => Val::List(items.iter().map(|v| to_provider(store, v)).collect::<Result<_>>()?),
        Val::Tuple(items) => Val::Tuple(items.iter().map(|v| to_provider(store, v)).collect::<Result<_>>()?),
        Val::Record(fields) => Val::Record(
            fields
                .iter()
                .map(|(n, v)| Ok((n.clone(), to_provider(store, v)?)))
                .collect::<Result<_>>()?,
        ),
        Val::Variant(case, payload) => Val::Variant(case.clone(), map_box(store, payload.as_deref(), to_provider)?),
        Val::Option(inner) => Val::Option(map_box(store, inner.as_deref(), to_provider)?),
        Val::Result(Ok(v)) => Val::Result(Ok(map_box(store, v.as_deref(), to_provider)?)),
        Val::Result(Err(v)) => Val::Result(Err(map_box(store, v.as_deref(), to_provider)?)),
        other => other.clone(),
    })
}

/// Provider-side value → consumer-side value: provider handles become proxies. Takes the value
/// by ownership so bulk data (a list of bytes) moves through without a copy.
fn to_consumer(store: &mut StoreContextMut<'_, Lane>, provider: usize, value: Val) -> Result<Val> {
    let each = |store: &mut StoreContextMut<'_, Lane>, items: Vec<Val>| -> Result<Vec<Val>> {
        items.into_iter().map(|v| to_consumer(store, provider, v)).collect()
    };
    let boxed = |store: &mut StoreContextMut<'_, Lane>, v: Option<Box<Val>>| -> Result<Option<Box<Val>>> {
        v.map(|v| to_consumer(store, provider, *v).map(Box::new)).transpose()
    };
    Ok(match value {
        Val::Resource(handle) => {
            let id = store.data().resource_id(provider, handle.ty())?;
            let rep = store.data_mut().proxies.insert(provider, handle);
            Val::Resource(ResourceDynamic::new_own(rep, id).try_into_resource_any(store.as_context_mut())?)
        }
        Val::List(items) if is_plain(&items) => Val::List(items),
        Val::List(items) => Val::List(each(store, items)?),
        Val::Tuple(items) => Val::Tuple(each(store, items)?),
        Val::Record(fields) => Val::Record(
            fields
                .into_iter()
                .map(|(n, v)| Ok((n, to_consumer(store, provider, v)?)))
                .collect::<Result<_>>()?,
        ),
        Val::Variant(case, payload) => Val::Variant(case, boxed(store, payload)?),
        Val::Option(inner) => Val::Option(boxed(store, inner)?),
        Val::Result(Ok(v)) => Val::Result(Ok(boxed(store, v)?)),
        Val::Result(Err(v)) => Val::Result(Err(boxed(store, v)?)),
        other => other,
    })
}

/// A list whose elements are scalars or strings: lists are homogeneous, so the first element
/// tells, and such a list can hold no resource handle.
fn is_plain(items: &[Val]) -> bool {
    !matches!(
        items.first(),
        Some(
            Val::Resource(_)
                | Val::List(_)
                | Val::Tuple(_)
                | Val::Record(_)
                | Val::Variant(..)
                | Val::Option(_)
                | Val::Result(_)
                | Val::Map(_)
                | Val::FixedLengthList(_)
        )
    )
}

fn map_box<'a, F>(store: &mut StoreContextMut<'a, Lane>, value: Option<&Val>, mut f: F) -> Result<Option<Box<Val>>>
where
    F: FnMut(&mut StoreContextMut<'a, Lane>, &Val) -> Result<Val>,
{
    value.map(|v| f(store, v).map(Box::new)).transpose()
}
