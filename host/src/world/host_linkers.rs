//! Linkers holding what the host itself serves a component (WASI, the natives, the call
//! context, the asker), built once per runtime for each combination a component imports and
//! cloned for every component: defining WASI alone is ~100 functions, and doing it again per
//! component was most of linking a world.

use crate::lane::Lane;
use crate::link::plan::{ImportPlan, Target};
use crate::natives::bindings;
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use wasmtime::Engine;
use wasmtime::component::{HasSelf, Linker};

/// Which host-served parts a component imports. Natives are defined only for components that
/// import them (providers: the plan refuses them to tools before any linker is built).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct HostParts {
    wasi: bool,
    natives: bool,
    context: bool,
    asker: bool,
}

impl HostParts {
    fn of(imports: &[ImportPlan]) -> Self {
        let mut parts = Self::default();
        for import in imports {
            match import.target {
                Target::Wasi => parts.wasi = true,
                Target::Native => parts.natives = true,
                Target::CallContext => parts.context = true,
                Target::Asker => parts.asker = true,
                Target::TypesOnly | Target::Provider(_) => {}
            }
        }
        parts
    }

    fn linker(self, engine: &Engine) -> wasmtime::Result<Linker<Lane>> {
        let mut linker = Linker::new(engine);
        if self.wasi {
            wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
        }
        if self.natives {
            bindings::natives::Natives::add_to_linker::<Lane, HasSelf<Lane>>(&mut linker, |lane| lane)?;
        }
        if self.context {
            bindings::tool::seam::tool::context::add_to_linker::<Lane, HasSelf<Lane>>(&mut linker, |lane| lane)?;
        }
        if self.asker {
            bindings::asker::seam::approval::asker::add_to_linker::<Lane, HasSelf<Lane>>(&mut linker, |lane| lane)?;
        }
        Ok(linker)
    }
}

#[derive(Default)]
pub struct HostLinkers {
    built: Mutex<HashMap<HostParts, Linker<Lane>>>,
}

impl HostLinkers {
    /// A linker with the host-served parts `imports` need, to which the caller adds the
    /// component's forwarded and types-only instances.
    pub fn for_imports(&self, engine: &Engine, imports: &[ImportPlan]) -> wasmtime::Result<Linker<Lane>> {
        let parts = HostParts::of(imports);
        let mut built = self.built.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(linker) = built.get(&parts) {
            return Ok(linker.clone());
        }
        let linker = parts.linker(engine)?;
        built.insert(parts, linker.clone());
        Ok(linker)
    }
}
