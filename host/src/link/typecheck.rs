//! Structural compatibility of a consumer's imported function with a provider's export.
//! Checked at load so a mismatch is refused before any call, not discovered mid-call.

use wasmtime::component::ResourceType;
use wasmtime::component::types::{ComponentFunc, Type};

/// Maps a resource of the consumer's import to the provider's resource it stands for.
pub trait ResourceMatch {
    fn same(&self, consumer: &ResourceType, provider: &ResourceType) -> bool;
}

/// Why two function types differ, as a short phrase for the refusal message.
pub fn check_func(consumer: &ComponentFunc, provider: &ComponentFunc, r: &dyn ResourceMatch) -> Result<(), String> {
    let cp: Vec<_> = consumer.params().collect();
    let pp: Vec<_> = provider.params().collect();
    if cp.len() != pp.len() {
        return Err(format!("takes {} parameters, not {}", pp.len(), cp.len()));
    }
    for ((cn, ct), (_, pt)) in cp.iter().zip(&pp) {
        check(ct, pt, r).map_err(|e| format!("parameter `{cn}`: {e}"))?;
    }
    let cr: Vec<_> = consumer.results().collect();
    let pr: Vec<_> = provider.results().collect();
    if cr.len() != pr.len() {
        return Err("returns a different number of results".into());
    }
    for (ct, pt) in cr.iter().zip(&pr) {
        check(ct, pt, r).map_err(|e| format!("result: {e}"))?;
    }
    Ok(())
}

fn check(c: &Type, p: &Type, r: &dyn ResourceMatch) -> Result<(), String> {
    use Type as T;
    match (c, p) {
        (T::List(c), T::List(p)) => check(&c.ty(), &p.ty(), r),
        (T::Option(c), T::Option(p)) => check(&c.ty(), &p.ty(), r),
        (T::Record(c), T::Record(p)) => {
            let cf: Vec<_> = c.fields().collect();
            let pf: Vec<_> = p.fields().collect();
            if cf.len() != pf.len() || cf.iter().zip(&pf).any(|(a, b)| a.name != b.name) {
                return Err("record fields differ".into());
            }
            for (a, b) in cf.iter().zip(&pf) {
                check(&a.ty, &b.ty, r).map_err(|e| format!("field `{}`: {e}", a.name))?;
            }
            Ok(())
        }
        (T::Tuple(c), T::Tuple(p)) => {
            let ct: Vec<_> = c.types().collect();
            let pt: Vec<_> = p.types().collect();
            if ct.len() != pt.len() {
                return Err("tuple sizes differ".into());
            }
            ct.iter().zip(&pt).try_for_each(|(a, b)| check(a, b, r))
        }
        (T::Variant(c), T::Variant(p)) => {
            let cc: Vec<_> = c.cases().collect();
            let pc: Vec<_> = p.cases().collect();
            if cc.len() != pc.len() || cc.iter().zip(&pc).any(|(a, b)| a.name != b.name) {
                return Err("variant cases differ".into());
            }
            for (a, b) in cc.iter().zip(&pc) {
                check_opt(a.ty.as_ref(), b.ty.as_ref(), r).map_err(|e| format!("case `{}`: {e}", a.name))?;
            }
            Ok(())
        }
        (T::Result(c), T::Result(p)) => {
            check_opt(c.ok().as_ref(), p.ok().as_ref(), r)?;
            check_opt(c.err().as_ref(), p.err().as_ref(), r)
        }
        (T::Enum(c), T::Enum(p)) => same_names(c.names(), p.names(), "enum cases differ"),
        (T::Flags(c), T::Flags(p)) => same_names(c.names(), p.names(), "flags differ"),
        (T::Own(c), T::Own(p)) | (T::Borrow(c), T::Borrow(p)) => {
            if r.same(c, p) {
                Ok(())
            } else {
                Err("a different resource".into())
            }
        }
        (T::Map(_) | T::Future(_) | T::Stream(_) | T::ErrorContext | T::FixedLengthList(_), _) => {
            Err("uses a type this host does not forward (map, future, stream, error-context, fixed list)".into())
        }
        (c, p) if std::mem::discriminant(c) == std::mem::discriminant(p) => Ok(()),
        (c, p) => Err(format!("expects {} but is {}", kind(c), kind(p))),
    }
}

fn check_opt(c: Option<&Type>, p: Option<&Type>, r: &dyn ResourceMatch) -> Result<(), String> {
    match (c, p) {
        (None, None) => Ok(()),
        (Some(c), Some(p)) => check(c, p, r),
        _ => Err("payloads differ".into()),
    }
}

fn same_names<'a>(c: impl Iterator<Item = &'a str>, p: impl Iterator<Item = &'a str>, msg: &str) -> Result<(), String> {
    if c.eq(p) { Ok(()) } else { Err(msg.into()) }
}

fn kind(t: &Type) -> &'static str {
    match t {
        Type::Bool => "bool",
        Type::S8 | Type::U8 | Type::S16 | Type::U16 | Type::S32 | Type::U32 | Type::S64 | Type::U64 => "an integer",
        Type::Float32 | Type::Float64 => "a float",
        Type::Char => "char",
        Type::String => "string",
        Type::List(_) => "a list",
        Type::Record(_) => "a record",
        Type::Tuple(_) => "a tuple",
        Type::Variant(_) => "a variant",
        Type::Enum(_) => "an enum",
        Type::Option(_) => "an option",
        Type::Result(_) => "a result",
        Type::Flags(_) => "flags",
        Type::Own(_) => "an owned resource",
        Type::Borrow(_) => "a borrowed resource",
        _ => "another type",
    }
}

/// Whether values of this type can carry resource handles (then forwarding must translate them).
pub fn carries_resources(t: &Type) -> bool {
    match t {
        Type::Own(_) | Type::Borrow(_) => true,
        Type::List(l) => carries_resources(&l.ty()),
        Type::Option(o) => carries_resources(&o.ty()),
        Type::Record(r) => r.fields().any(|f| carries_resources(&f.ty)),
        Type::Tuple(t) => t.types().any(|t| carries_resources(&t)),
        Type::Variant(v) => v.cases().any(|c| c.ty.as_ref().is_some_and(carries_resources)),
        Type::Result(r) => {
            r.ok().as_ref().is_some_and(carries_resources) || r.err().as_ref().is_some_and(carries_resources)
        }
        _ => false,
    }
}
