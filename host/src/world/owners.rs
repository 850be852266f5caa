//! Ending an agent: every provider of an owner-scoped seam (terminals, jobs) closes what the
//! agent owns and refuses its later calls with OWNER_NOT_LIVE. The host calls this when the
//! agent is gone: at the end of a `seam call --batch` session and when an MCP client
//! disconnects; an embedder calls it on its own trigger.

use super::World;
use crate::lane::Lane;
use crate::link::plan::Role;
use wasmtime::AsContextMut;
use wasmtime::component::Val;

/// Interfaces whose `release: func(owner: string) -> u32` ends an owner.
const OWNER_SEAMS: &[&str] = &["seam:terminal/terminal", "seam:jobs/jobs"];

/// What one provider did for a release: how many sessions or jobs it closed, or why it failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Released {
    pub provider: String,
    pub closed: Result<u32, String>,
}

impl World {
    /// Release `agent` in every provider of an owner-scoped seam, each in a lane of its own.
    pub fn release_agent(&self, agent: &str) -> Vec<Released> {
        let mut released = Vec::new();
        for (node, n) in self.linked.nodes.iter().enumerate() {
            let owner_seam = n.exports.iter().find(|export| {
                OWNER_SEAMS.iter().any(|seam| {
                    export
                        .strip_prefix(seam)
                        .is_some_and(|v| v.is_empty() || v.starts_with('@'))
                })
            });
            if let (Role::Provider, Some(export)) = (n.role, owner_seam) {
                let closed = self.release_in(node, export, agent);
                if let Err(message) = &closed {
                    tracing::warn!(provider = %n.name, "releasing agent {agent:?} failed: {message}");
                }
                released.push(Released {
                    provider: n.name.clone(),
                    closed,
                });
            }
        }
        released
    }

    fn release_in(&self, node: usize, export: &str, agent: &str) -> Result<u32, String> {
        let mut call = self.call_context("release");
        call.session.agent = agent.to_string();
        let mut store = self.runtime.new_store(self.linked.clone(), call);
        store.data_mut().enter(node);
        let called = Lane::instance(&mut store.as_context_mut(), node).and_then(|instance| {
            let interface = instance
                .get_export_index(&mut store, None, export)
                .ok_or_else(|| wasmtime::format_err!("{export} is not exported"))?;
            let func = instance
                .get_export_index(&mut store, Some(&interface), "release")
                .and_then(|index| instance.get_func(&mut store, index))
                .ok_or_else(|| wasmtime::format_err!("{export} has no release"))?;
            let mut results = [Val::U32(0)];
            func.call(&mut store, &[Val::String(agent.to_string())], &mut results)?;
            Ok(results)
        });
        match called {
            Ok([Val::U32(closed)]) => Ok(closed),
            Ok(other) => Err(format!("unexpected answer {other:?}")),
            Err(e) => Err(Lane::fault(&mut store, &e, node).message),
        }
    }
}
