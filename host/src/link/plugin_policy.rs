//! A plugin's calls carry the session's sandbox policy, never one of their own.
//!
//! The enforcing seams take the policy per call from their caller (seam:shell `request.sandbox`,
//! seam:fs `write-text`'s `sandbox`, ...): first-party tools resolve it through seam:sandbox/policy
//! and ask a human before widening it. A third-party plugin granted such a seam could otherwise
//! pass `danger-full-access`, a root of `/`, or none at all, and leave the sandbox. So wherever a
//! plugin's call carries a policy, the host puts there the one seam:sandbox/policy resolves for
//! the call's session, whatever the plugin wrote. Policies are found by type at load: a record
//! of exactly `mode`, `workspace-root` and `writable-roots`, as a parameter, an option, or a
//! field of a record parameter.

use wasmtime::component::Val;
use wasmtime::component::types::{ComponentFunc, Record, Type};

/// Where a policy sits in one parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Site {
    /// The parameter is a policy.
    Policy,
    /// The parameter is an `option<policy>`: a plugin's none becomes the session's policy.
    Optional,
    /// Fields of a record parameter, by index.
    Fields(Vec<(usize, Site)>),
}

/// The policy sites of `func`'s parameters, by parameter index.
pub fn sites(func: &ComponentFunc) -> Vec<(usize, Site)> {
    func.params()
        .enumerate()
        .filter_map(|(index, (_, ty))| site(&ty).map(|site| (index, site)))
        .collect()
}

fn site(ty: &Type) -> Option<Site> {
    match ty {
        Type::Record(record) if is_policy(record) => Some(Site::Policy),
        Type::Option(option) => match option.ty() {
            Type::Record(record) if is_policy(&record) => Some(Site::Optional),
            _ => None,
        },
        Type::Record(record) => {
            let fields: Vec<(usize, Site)> = record
                .fields()
                .enumerate()
                .filter_map(|(index, field)| site(&field.ty).map(|site| (index, site)))
                .collect();
            (!fields.is_empty()).then_some(Site::Fields(fields))
        }
        _ => None,
    }
}

fn is_policy(record: &Record) -> bool {
    record
        .fields()
        .map(|field| field.name)
        .eq(["mode", "workspace-root", "writable-roots"])
}

/// Puts `policy` at every site of `args`.
pub fn impose(args: &mut [Val], sites: &[(usize, Site)], policy: &Val) {
    for (index, site) in sites {
        if let Some(arg) = args.get_mut(*index) {
            put(arg, site, policy);
        }
    }
}

fn put(value: &mut Val, site: &Site, policy: &Val) {
    match (site, value) {
        (Site::Policy, value) => *value = policy.clone(),
        (Site::Optional, value) => *value = Val::Option(Some(Box::new(policy.clone()))),
        (Site::Fields(fields), Val::Record(values)) => {
            for (index, site) in fields {
                if let Some((_, value)) = values.get_mut(*index) {
                    put(value, site, policy);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(mode: &str, root: &str) -> Val {
        Val::Record(vec![
            ("mode".into(), Val::Enum(mode.into())),
            ("workspace-root".into(), Val::String(root.into())),
            ("writable-roots".into(), Val::List(Vec::new())),
        ])
    }

    #[test]
    fn every_site_gets_the_imposed_policy() {
        let session = policy("read-only", "/ws");
        let request = Val::Record(vec![
            ("command".into(), Val::String("true".into())),
            ("sandbox".into(), Val::Option(None)),
        ]);
        let mut imposed = [
            request,
            Val::Option(Some(Box::new(policy("danger-full-access", "/")))),
            policy("workspace-write", "/"),
            Val::String("untouched".into()),
        ];
        let sites = [
            (0, Site::Fields(vec![(1, Site::Optional)])),
            (1, Site::Optional),
            (2, Site::Policy),
        ];
        impose(&mut imposed, &sites, &session);
        let Val::Record(fields) = &imposed[0] else {
            panic!("a record stays a record")
        };
        assert_eq!(fields[1].1, Val::Option(Some(Box::new(session.clone()))));
        assert_eq!(fields[0].1, Val::String("true".into()));
        assert_eq!(imposed[1], Val::Option(Some(Box::new(session.clone()))));
        assert_eq!(imposed[2], session);
        assert_eq!(imposed[3], Val::String("untouched".into()));
    }
}
