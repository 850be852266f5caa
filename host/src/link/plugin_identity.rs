//! A plugin acts as its call: wherever a plugin's call into one of seam's own interfaces names
//! a session (`session`) or an agent (`owner`, `agent`), as a parameter or a field of a record
//! parameter, the host puts the call's own there, whatever the plugin wrote. Otherwise a plugin
//! granted `fs` could skip the read-before-write guard by naming no session, and one granted
//! `jobs` or `terminal` could read, kill or type into another agent's work. Found by name and
//! type, only in `seam:` packages, where these names mean the caller; in a third party's
//! interface a `session` may mean anything.

use crate::lane::Session;
use wasmtime::component::Val;
use wasmtime::component::types::{ComponentFunc, Type};

/// What one value names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Identity {
    /// `session: string`: the call's session id.
    Session,
    /// `session: option<string>`: the call's session id; a plugin's none becomes it.
    OptionalSession,
    /// `owner: string` or `agent: string`: the call's agent.
    Agent,
}

/// Where an identity sits in one parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Site {
    /// The parameter itself.
    Param(Identity),
    /// Fields of a record parameter, by index (a job's `start-request.owner`, an approval
    /// request's `agent`).
    Fields(Vec<(usize, Identity)>),
}

/// The identity sites of `func`'s parameters, by parameter index.
pub fn sites(func: &ComponentFunc) -> Vec<(usize, Site)> {
    func.params()
        .enumerate()
        .filter_map(|(index, (name, ty))| site(name, &ty).map(|site| (index, site)))
        .collect()
}

fn site(name: &str, ty: &Type) -> Option<Site> {
    if let Some(identity) = identity(name, ty) {
        return Some(Site::Param(identity));
    }
    let Type::Record(record) = ty else {
        return None;
    };
    let fields: Vec<(usize, Identity)> = record
        .fields()
        .enumerate()
        .filter_map(|(index, field)| identity(field.name, &field.ty).map(|identity| (index, identity)))
        .collect();
    (!fields.is_empty()).then_some(Site::Fields(fields))
}

fn identity(name: &str, ty: &Type) -> Option<Identity> {
    match (name, ty) {
        ("session", Type::String) => Some(Identity::Session),
        ("session", Type::Option(option)) if matches!(option.ty(), Type::String) => Some(Identity::OptionalSession),
        ("owner" | "agent", Type::String) => Some(Identity::Agent),
        _ => None,
    }
}

/// Puts the call's session or agent at every site of `args`.
pub fn impose(args: &mut [Val], sites: &[(usize, Site)], session: &Session) {
    for (index, site) in sites {
        match (site, args.get_mut(*index)) {
            (Site::Param(identity), Some(arg)) => *arg = value(*identity, session),
            (Site::Fields(fields), Some(Val::Record(values))) => {
                for &(field, identity) in fields {
                    if let Some((_, at)) = values.get_mut(field) {
                        *at = value(identity, session);
                    }
                }
            }
            _ => {}
        }
    }
}

fn value(identity: Identity, session: &Session) -> Val {
    match identity {
        Identity::Session => Val::String(session.id.clone()),
        Identity::OptionalSession => Val::Option(Some(Box::new(Val::String(session.id.clone())))),
        Identity::Agent => Val::String(session.agent.clone()),
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
        let request = |owner: &str| {
            Val::Record(vec![
                ("kind".into(), Val::String("bash".into())),
                ("owner".into(), Val::String(owner.into())),
            ])
        };
        let mut args = [
            Val::String("agent-b".into()),
            Val::Option(None),
            Val::String("s2".into()),
            request("agent-b"),
            Val::String("untouched".into()),
        ];
        let sites = [
            (0, Site::Param(Identity::Agent)),
            (1, Site::Param(Identity::OptionalSession)),
            (2, Site::Param(Identity::Session)),
            (3, Site::Fields(vec![(1, Identity::Agent)])),
        ];
        impose(&mut args, &sites, &session);
        assert_eq!(
            args,
            [
                Val::String("agent-a".into()),
                Val::Option(Some(Box::new(Val::String("s1".into())))),
                Val::String("s1".into()),
                request("agent-a"),
                Val::String("untouched".into()),
            ]
        );
    }
}
