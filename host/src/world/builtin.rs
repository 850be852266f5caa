//! Components built from this repository's components/ folder and embedded in the binary.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltinKind {
    /// Serves a seam in the built-in world (components/providers/).
    Provider,
    /// A tool consumer (components/consumers/).
    Tool,
    /// Used by `seam bench` (components/bench/).
    Bench,
}

pub struct Builtin {
    pub name: &'static str,
    pub kind: BuiltinKind,
    /// What it does, from its crate's description.
    pub description: &'static str,
    pub wasm: &'static [u8],
    /// SHA-256 of `wasm`, hex: the compiled-component cache key.
    pub hash: &'static str,
}

pub static BUILTINS: &[Builtin] = include!(concat!(env!("OUT_DIR"), "/builtins.rs"));

pub fn find(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.name == name)
}

/// Where the build left every component it built, test fixtures included.
pub const ARTIFACTS_DIR: &str = env!("SEAM_ARTIFACTS_DIR");
