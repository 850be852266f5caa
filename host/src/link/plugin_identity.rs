//! A plugin acts as its call: wherever a plugin's call into one of seam's own interfaces names
//! a session (`session`) or an agent (`owner`), the host puts the call's own there, whatever
//! the plugin wrote. Otherwise a plugin granted `fs` could skip the read-before-write guard by
//! naming no session, and one granted `jobs` or `terminal` could read, kill or type into
//! another agent's work. Found by parameter name and type, only in `seam:` packages, where
//! these names mean the caller; in a third party's interface a `session` may mean anything.

use crate::lane::Session;
use wasmtime::component::Val;
use wasmtime::component::types::{ComponentFunc, Type};

/// What one parameter names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Identity {
    /// `session: string`: the call's session id.
    Session,
    /// `session: option<string>`: the call's session id; a plugin's none becomes it.
    OptionalSession,
    /// `owner: string`: the call's agent.
    Agent,
}

/// The identity sites of `func`'s parameters, by parameter index.
pub fn sites(func: &ComponentFunc) -> Vec<(usize, Identity)> {
    func.params()
        .enumerate()
        .filter_map(|(index, (name, ty))| {
            let identity = match (name, ty) {
                ("session", Type::String) => Identity::Session,
                ("session", Type::Option(option)) if matches!(option.ty(), Type::String) => Identity::OptionalSession,
                ("owner", Type::String) => Identity::Agent,
                _ => return None,
            };
            Some((index, identity))
        })
        .collect()
}

/// Puts the call's session or agent at every site of `args`.
pub fn impose(args: &mut [Val], sites: &[(usize, Identity)], session: &Session) {
    for &(index, identity) in sites {
        if let Some(arg) = args.get_mut(index) {
            *arg = match identity {
                Identity::Session => Val::String(session.id.clone()),
                Identity::OptionalSession => Val::Option(Some(Box::new(Val::String(session.id.clone())))),
                Identity::Agent => Val::String(session.agent.clone()),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_site_gets_the_calls_own_identity() {
        let session = Session {
            id: "s1".into(),
            cwd: "/ws".into(),
            agent: "agent-a".into(),
        };
        let mut args = [
            Val::String("agent-b".into()),
            Val::Option(None),
            Val::String("s2".into()),
            Val::String("untouched".into()),
        ];
        let sites = [
            (0, Identity::Agent),
            (1, Identity::OptionalSession),
            (2, Identity::Session),
        ];
        impose(&mut args, &sites, &session);
        assert_eq!(
            args,
            [
                Val::String("agent-a".into()),
                Val::Option(Some(Box::new(Val::String("s1".into())))),
                Val::String("s1".into()),
                Val::String("untouched".into()),
            ]
        );
    }
}
