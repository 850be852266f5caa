//! Settings are checked when a world loads: each component the world file gives a
//! `[config.NAME]` table, and that exports seam:host/config-check, is asked in a lane of its
//! own whether it accepts them. A misspelled or mistyped setting then refuses the world at
//! once, instead of failing every call that reaches the component. A component that does not
//! export the check is trusted to report bad settings when it reads them.

use super::{World, WorldError};
use crate::lane::Lane;
use crate::link::names::InterfaceName;
use wasmtime::AsContextMut;

const CONFIG_CHECK: &str = "seam:host/config-check@0.1.0";

/// Asks every configured component that can check its settings, in load order; the first
/// refusal refuses the world.
pub(super) fn check_settings(world: &World) -> Result<(), WorldError> {
    let wanted = InterfaceName::parse(CONFIG_CHECK).expect("a valid interface name");
    for (node, n) in world.linked.nodes.iter().enumerate() {
        if !world.file.config.contains_key(&n.name) {
            continue;
        }
        let export = n
            .exports
            .iter()
            .find(|name| InterfaceName::parse(name).is_some_and(|name| name.serves(&wanted)));
        if let Some(export) = export {
            let started = std::time::Instant::now();
            check(world, node, export).map_err(|message| WorldError::Config {
                component: n.name.clone(),
                message,
            })?;
            let micros = started.elapsed().as_secs_f64() * 1e6;
            tracing::debug!(component = %n.name, micros, "settings checked");
        }
    }
    Ok(())
}

/// The component's answer, or the fault that kept it from answering.
fn check(world: &World, node: usize, export: &str) -> Result<(), String> {
    let mut store = Lane::open(
        &world.runtime.engine,
        &world.runtime.epoch,
        world.linked.clone(),
        world.call_context("config-check"),
    );
    let mut lane = store.as_context_mut();
    let asked = (|| {
        let instance = Lane::instance(&mut lane, node)?;
        let interface = instance
            .get_export_index(&mut lane, None, export)
            .ok_or_else(|| wasmtime::format_err!("{export} is not exported"))?;
        let func = instance
            .get_export_index(&mut lane, Some(&interface), "check")
            .ok_or_else(|| wasmtime::format_err!("{export} has no `check`"))?;
        let check = instance.get_typed_func::<(), (Result<(), String>,)>(&mut lane, func)?;
        lane.data_mut().enter(node);
        let answer = check.call(&mut lane, ());
        lane.data_mut().leave(node, answer.is_err());
        answer
    })();
    match asked {
        Ok((answer,)) => answer,
        Err(error) => Err(Lane::fault(&mut store, &error, node).message),
    }
}
