//! The linkers of a world. Components share linkers: a component joins a linker when every
//! interface it imports is served there the same way, which in a world without wrapper stacks
//! means one linker for every component. Each linker starts with what the host serves (WASI,
//! the natives, the call context): defining it for each component (WASI alone is ~100
//! functions) was ~1.3 ms of a cold `seam call`, and a copy kept for later worlds cost a
//! one-shot call more to clone than a later world saves by it.

use crate::lane::Lane;
use crate::link::forward;
use crate::link::plan::{ImportPlan, Target, Translate};
use crate::natives::bindings;
use std::collections::HashMap;
use wasmtime::Engine;
use wasmtime::component::{ComponentExportIndex, HasSelf, Linker};

/// WASI, the natives and the call context. Natives are defined for tools too, harmlessly: the
/// plan refuses a tool importing seam:host/* before any linker is consulted. The asker is left
/// out: a provider may serve it instead of the host.
fn host_linker(engine: &Engine) -> wasmtime::Result<Linker<Lane>> {
    let mut linker = Linker::new(engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
    bindings::natives::Natives::add_to_linker::<Lane, HasSelf<Lane>>(&mut linker, |lane| lane)?;
    crate::natives::define_borrowing_atomic_write(&mut linker)?;
    bindings::tool::seam::tool::context::add_to_linker::<Lane, HasSelf<Lane>>(&mut linker, |lane| lane)?;
    Ok(linker)
}

/// How one interface is served in a shared linker.
#[derive(Debug, PartialEq)]
enum Served {
    Host,
    Asker,
    TypesOnly,
    Provider { provider: usize, export: String },
}

impl Served {
    fn of(target: &Target) -> Self {
        match target {
            Target::Wasi | Target::Native | Target::CallContext => Self::Host,
            Target::Asker => Self::Asker,
            Target::TypesOnly => Self::TypesOnly,
            Target::Provider(forward) => Self::Provider {
                provider: forward.provider,
                export: forward.export.clone(),
            },
        }
    }
}

struct Shared {
    linker: Linker<Lane>,
    /// By unversioned interface: the import name defined and how it is served.
    served: HashMap<String, (String, Served)>,
    /// Forwarded functions defined, by (import, function): where they call and whether they
    /// translate handles.
    funcs: HashMap<(String, String), (ComponentExportIndex, Translate)>,
    /// Forwarded resources defined, by (import, resource): their dynamic type id.
    resources: HashMap<(String, String), u32>,
}

impl Shared {
    /// Every import of the component is either new here or served exactly as it is here.
    fn agrees(&self, imports: &[ImportPlan]) -> bool {
        imports.iter().all(|import| {
            let Some((name, served)) = self.served.get(identity(&import.name)) else {
                return true;
            };
            if *name != import.name || *served != Served::of(&import.target) {
                return false;
            }
            let Target::Provider(forward) = &import.target else {
                return true;
            };
            let funcs_agree = forward.funcs.iter().all(|f| {
                self.funcs
                    .get(&(import.name.clone(), f.name.clone()))
                    .is_none_or(|&defined| defined == (f.export_index, f.translate))
            });
            let resources_agree = forward.resources.iter().all(|(resource, id)| {
                self.resources
                    .get(&(import.name.clone(), resource.clone()))
                    .is_none_or(|defined| defined == id)
            });
            funcs_agree && resources_agree
        })
    }

    /// Define what the component imports and this linker does not have yet.
    fn add(&mut self, imports: &[ImportPlan]) -> wasmtime::Result<()> {
        for import in imports {
            let key = identity(&import.name);
            let known = self.served.contains_key(key);
            match &import.target {
                Target::Wasi | Target::Native | Target::CallContext => {}
                Target::Asker if !known => {
                    bindings::asker::seam::approval::asker::add_to_linker::<Lane, HasSelf<Lane>>(
                        &mut self.linker,
                        |lane| lane,
                    )?;
                }
                Target::Asker => {}
                Target::TypesOnly => {
                    self.linker.instance(&import.name)?;
                }
                Target::Provider(forward) => {
                    let name = &import.name;
                    let resources: Vec<_> = forward
                        .resources
                        .iter()
                        .filter(|(r, id)| self.resources.insert((name.clone(), r.clone()), *id).is_none())
                        .collect();
                    let funcs: Vec<_> = forward
                        .funcs
                        .iter()
                        .filter(|f| {
                            let key = (name.clone(), f.name.clone());
                            self.funcs.insert(key, (f.export_index, f.translate)).is_none()
                        })
                        .collect();
                    let mut instance = self.linker.instance(name)?;
                    forward::define(&mut instance, forward.provider, &resources, &funcs, name)?;
                }
            }
            if !known {
                self.served
                    .insert(key.to_string(), (import.name.clone(), Served::of(&import.target)));
            }
        }
        Ok(())
    }
}

/// Names that can serve each other: one interface across versions (`ns:pkg/iface`).
fn identity(import: &str) -> &str {
    import.split_once('@').map_or(import, |(unversioned, _)| unversioned)
}

/// The linkers of one world being linked.
pub struct WorldLinkers<'a> {
    engine: &'a Engine,
    shared: Vec<Shared>,
}

impl<'a> WorldLinkers<'a> {
    pub fn new(engine: &'a Engine) -> Self {
        Self {
            engine,
            shared: Vec::new(),
        }
    }

    /// A linker serving `imports` as planned: the first that agrees with them, else a new one.
    pub fn for_imports(&mut self, imports: &[ImportPlan]) -> wasmtime::Result<&Linker<Lane>> {
        let index = match self.shared.iter().position(|shared| shared.agrees(imports)) {
            Some(index) => index,
            None => {
                self.shared.push(Shared {
                    linker: host_linker(self.engine)?,
                    served: HashMap::new(),
                    funcs: HashMap::new(),
                    resources: HashMap::new(),
                });
                self.shared.len() - 1
            }
        };
        let shared = &mut self.shared[index];
        shared.add(imports)?;
        Ok(&shared.linker)
    }
}
