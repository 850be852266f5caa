//! The world file: which provider serves each seam, which tools are loaded, and the defaults
//! of a session. The built-in default world needs no file.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A component reference: a built-in name (`bash-local`) or a path to a `.wasm` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ComponentRef {
    Builtin(String),
    Path(PathBuf),
}

impl ComponentRef {
    fn parse(text: &str, base: &Path) -> Self {
        if text.ends_with(".wasm") || text.contains('/') {
            let path = Path::new(text);
            Self::Path(if path.is_absolute() {
                path.to_path_buf()
            } else {
                base.join(path)
            })
        } else {
            Self::Builtin(text.to_string())
        }
    }

    /// The name components are known by in messages, config tables and the state store.
    pub fn name(&self) -> String {
        match self {
            Self::Builtin(name) => name.clone(),
            Self::Path(path) => path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| path.display().to_string()),
        }
    }
}

/// One seam's providers: a single provider or a stack of wrappers, outermost first.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
enum ProviderEntry {
    One(String),
    Stack(Vec<String>),
}

/// Resource limits applied to every component of a call.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Largest linear memory one component instance may grow to.
    pub memory_mb: u64,
    /// Guest execution time one call may use (time blocked in the host does not count).
    pub guest_time_ms: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            memory_mb: 256,
            guest_time_ms: 10_000,
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWorld {
    workspace: Option<String>,
    sandbox: Option<String>,
    #[serde(default)]
    providers: BTreeMap<String, ProviderEntry>,
    #[serde(default)]
    tools: Vec<String>,
    #[serde(default)]
    config: BTreeMap<String, toml::Table>,
    #[serde(default)]
    limits: Limits,
}

/// The sandbox mode a session starts in unless changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SandboxMode {
    ReadOnly,
    WorkspaceWrite,
    DangerFullAccess,
}

impl SandboxMode {
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "read-only" => Some(Self::ReadOnly),
            "workspace-write" => Some(Self::WorkspaceWrite),
            "danger-full-access" => Some(Self::DangerFullAccess),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::ReadOnly => "read-only",
            Self::WorkspaceWrite => "workspace-write",
            Self::DangerFullAccess => "danger-full-access",
        }
    }
}

/// A parsed world file.
#[derive(Clone, Debug)]
pub struct WorldFile {
    /// Where the file came from (`<built-in default world>` when there is none).
    pub origin: String,
    /// The session cwd and workspace root; None = the current directory.
    pub workspace: Option<PathBuf>,
    pub sandbox: SandboxMode,
    /// Seam label → providers, outermost first.
    pub providers: BTreeMap<String, Vec<ComponentRef>>,
    pub tools: Vec<ComponentRef>,
    /// Component name → its settings (JSON object).
    pub config: BTreeMap<String, serde_json::Value>,
    pub limits: Limits,
}

/// A world file that cannot be used. Code WORLD_INVALID.
#[derive(Debug, thiserror::Error)]
#[error("{origin}: {message}")]
pub struct WorldFileError {
    pub origin: String,
    pub message: String,
}

/// The built-in default world, written out in examples/worlds/local.toml.
pub const DEFAULT_WORLD: &str = include_str!("../../../examples/worlds/local.toml");

impl WorldFile {
    pub fn default_world() -> Self {
        Self::parse(DEFAULT_WORLD, "<built-in default world>", Path::new("."))
            .expect("the built-in default world parses")
    }

    pub fn load(path: &Path) -> Result<Self, WorldFileError> {
        let origin = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| WorldFileError {
            origin: origin.clone(),
            message: format!("cannot read: {e}"),
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        Self::parse(&text, &origin, base)
    }

    /// Parse world file text; relative paths are taken from `base` (the file's folder).
    pub fn parse(text: &str, origin: &str, base: &Path) -> Result<Self, WorldFileError> {
        let fail = |message: String| WorldFileError {
            origin: origin.to_string(),
            message,
        };
        let raw: RawWorld = toml::from_str(text).map_err(|e| fail(e.to_string()))?;
        let sandbox = match raw.sandbox.as_deref() {
            None => SandboxMode::ReadOnly,
            Some(text) => SandboxMode::parse(text).ok_or_else(|| {
                fail(format!(
                    "sandbox = {text:?}: expected read-only, workspace-write or danger-full-access"
                ))
            })?,
        };
        let providers = raw
            .providers
            .into_iter()
            .map(|(seam, entry)| {
                let names = match entry {
                    ProviderEntry::One(name) => vec![name],
                    ProviderEntry::Stack(names) => names,
                };
                if names.is_empty() {
                    return Err(fail(format!("providers.{seam} names no provider")));
                }
                let refs = names.iter().map(|n| ComponentRef::parse(n, base)).collect();
                Ok((seam, refs))
            })
            .collect::<Result<_, _>>()?;
        let config = raw
            .config
            .into_iter()
            .map(|(name, table)| {
                let json = serde_json::to_value(table).map_err(|e| fail(e.to_string()))?;
                Ok((name, json))
            })
            .collect::<Result<_, _>>()?;
        Ok(Self {
            origin: origin.to_string(),
            workspace: raw.workspace.map(|w| base.join(w)),
            sandbox,
            providers,
            tools: raw.tools.iter().map(|t| ComponentRef::parse(t, base)).collect(),
            config,
            limits: raw.limits,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_world_parses() {
        let world = WorldFile::default_world();
        assert!(world.tools.contains(&ComponentRef::Builtin("tool-bash".into())));
        assert_eq!(world.sandbox, SandboxMode::ReadOnly);
    }

    #[test]
    fn stacks_paths_and_config() {
        let text = r#"
            sandbox = "workspace-write"
            tools = ["tool-bash", "plugins/wc.wasm"]
            [providers]
            fs = ["fs-observation-policy", "fs-sandbox", "fs-local"]
            shell = "bash-local"
            [config.bash-local]
            max_timeout_ms = 1000
        "#;
        let world = WorldFile::parse(text, "t.toml", Path::new("/w")).unwrap();
        assert_eq!(world.providers["fs"].len(), 3);
        assert_eq!(world.tools[1], ComponentRef::Path("/w/plugins/wc.wasm".into()));
        assert_eq!(world.config["bash-local"]["max_timeout_ms"], 1000);
        assert_eq!(world.sandbox, SandboxMode::WorkspaceWrite);
    }

    #[test]
    fn refuses_unknown_keys_and_modes() {
        assert!(WorldFile::parse("colour = 1", "t", Path::new(".")).is_err());
        assert!(WorldFile::parse("sandbox = \"open\"", "t", Path::new(".")).is_err());
    }
}
