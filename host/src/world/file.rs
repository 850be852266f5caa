//! The world file: which provider serves each seam, which tools are loaded, and the defaults
//! of a session. The built-in default world needs no file.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A path written in a world file: `~` or `~/...` in the home directory, a relative one in
/// `base` (the world file's folder).
fn resolved(text: &str, base: &Path) -> PathBuf {
    let home = || {
        std::env::var_os("HOME")
            .filter(|home| !home.is_empty())
            .map(PathBuf::from)
    };
    match text.strip_prefix('~') {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => match home() {
            Some(home) => home.join(rest.trim_start_matches('/')),
            None => base.join(text),
        },
        _ => base.join(text),
    }
}

/// A component reference: a built-in name (`bash-local`) or a path to a `.wasm` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ComponentRef {
    Builtin(String),
    Path(PathBuf),
}

impl ComponentRef {
    fn parse(text: &str, base: &Path) -> Self {
        if text.ends_with(".wasm") || text.contains('/') {
            Self::Path(resolved(text, base))
        } else {
            Self::Builtin(text.to_string())
        }
    }

    /// The name components are known by in messages, config tables and the state store.
    /// The built-in name, or the path.
    fn describe(&self) -> String {
        match self {
            Self::Builtin(name) => format!("the built-in {name}"),
            Self::Path(path) => path.display().to_string(),
        }
    }

    /// Whether two references name one component: paths by the file they reach, so
    /// `./p.wasm`, `sub/../p.wasm` and a symlink to it are one component, not two.
    fn same_as(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Path(a), Self::Path(b)) => {
                a == b || matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(a), Ok(b)) if a == b)
            }
            _ => self == other,
        }
    }

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

/// A third-party tool plugin as written in the world file: `[[plugins]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlugin {
    path: String,
    #[serde(default)]
    grants: Vec<String>,
    memory_mb: Option<u64>,
    time_ms: Option<u64>,
}

/// A third-party tool plugin: it may import only the seams it is granted, and its calls run
/// under its own limits.
#[derive(Clone, Debug, PartialEq)]
pub struct Plugin {
    pub component: ComponentRef,
    /// Seam labels of `[providers]` whose interfaces the plugin may import.
    pub grants: Vec<String>,
    /// The world's limits with the plugin's own overrides applied.
    pub limits: Limits,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWorld {
    workspace: Option<String>,
    sandbox: Option<String>,
    #[serde(default)]
    /// Each seam's providers: one name, or a stack of wrappers, outermost first (see
    /// [`provider_names`]).
    providers: BTreeMap<String, toml::Value>,
    #[serde(default)]
    tools: Vec<String>,
    #[serde(default)]
    plugins: Vec<RawPlugin>,
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

/// The names of a `[providers]` entry: a string, or an array of strings.
fn provider_names(entry: &toml::Value) -> Option<Vec<String>> {
    match entry {
        toml::Value::String(name) => Some(vec![name.clone()]),
        toml::Value::Array(names) => names.iter().map(|n| n.as_str().map(str::to_owned)).collect(),
        _ => None,
    }
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
    /// First-party tools: every seam of the world is open to them.
    pub tools: Vec<ComponentRef>,
    pub plugins: Vec<Plugin>,
    /// Component name → its settings (JSON object).
    pub config: BTreeMap<String, serde_json::Value>,
    pub limits: Limits,
    /// Prefix of the world's state namespaces when it must survive reloads: set for a world
    /// read from a file (its canonical path), None for one parsed from text.
    pub state_key: Option<String>,
    /// Content hash of the text and of the directory its relative paths start from: equal
    /// fingerprints name the same components in the same places.
    pub fingerprint: String,
    /// When the file was read (None for text): a file changed since was not what loaded.
    pub read_at: Option<std::time::SystemTime>,
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

    /// Every component file the world names (what a live world watches besides this file).
    pub fn component_paths(&self) -> Vec<PathBuf> {
        self.components()
            .filter_map(|r| match r {
                ComponentRef::Path(path) => Some(path.clone()),
                ComponentRef::Builtin(_) => None,
            })
            .collect()
    }

    /// How many components the world names: providers (each layer of a stack), tools and
    /// plugins.
    pub fn component_count(&self) -> usize {
        self.components().count()
    }

    fn components(&self) -> impl Iterator<Item = &ComponentRef> {
        let plugins = self.plugins.iter().map(|p| &p.component);
        self.providers.values().flatten().chain(&self.tools).chain(plugins)
    }

    pub fn load(path: &Path) -> Result<Self, WorldFileError> {
        let origin = path.display().to_string();
        let read_at = std::time::SystemTime::now();
        let text = std::fs::read_to_string(path).map_err(|e| WorldFileError {
            origin: origin.clone(),
            message: format!("cannot read: {e}"),
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        let mut file = Self::parse(&text, &origin, base)?;
        let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        file.state_key = Some(format!("file:{}", canonical.display()));
        file.read_at = Some(read_at);
        Ok(file)
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
        let providers: BTreeMap<String, Vec<ComponentRef>> = raw
            .providers
            .into_iter()
            .map(|(seam, entry)| {
                let names = provider_names(&entry).ok_or_else(|| {
                    fail(format!(
                        "providers.{seam} = {entry}: expected a component (a built-in name such as \
                         \"fs-local\", or a path to a .wasm file) or a list of them, a stack \
                         outermost first"
                    ))
                })?;
                if names.is_empty() {
                    return Err(fail(format!("providers.{seam} names no provider")));
                }
                let refs = names.iter().map(|n| ComponentRef::parse(n, base)).collect();
                Ok((seam, refs))
            })
            .collect::<Result<_, _>>()?;
        let tools: Vec<ComponentRef> = raw.tools.iter().map(|t| ComponentRef::parse(t, base)).collect();
        if let Some((index, twice)) = tools
            .iter()
            .enumerate()
            .find(|(index, tool)| tools[..*index].iter().any(|earlier| earlier.same_as(tool)))
        {
            return Err(fail(format!(
                "tools lists {} twice (entries {} and {}); list each tool component once",
                twice.describe(),
                tools.iter().position(|tool| tool.same_as(twice)).unwrap_or(0) + 1,
                index + 1
            )));
        }
        let config: BTreeMap<String, serde_json::Value> = raw
            .config
            .into_iter()
            .map(|(name, table)| {
                let json = serde_json::to_value(table).map_err(|e| fail(e.to_string()))?;
                Ok((name, json))
            })
            .collect::<Result<_, _>>()?;
        if raw.limits.memory_mb == 0 || raw.limits.guest_time_ms == 0 {
            return Err(fail("[limits] memory_mb and guest_time_ms must be at least 1".into()));
        }
        let plugins: Vec<Plugin> = raw
            .plugins
            .into_iter()
            .map(|plugin| {
                // A grant of a label the world does not have is a typo, not an empty grant.
                if let Some(unknown) = plugin.grants.iter().find(|g| !providers.contains_key(*g)) {
                    return Err(fail(format!(
                        "plugin {} is granted {unknown:?}, which is not a seam label of [providers]",
                        plugin.path
                    )));
                }
                // No call can run in no memory or no time: a 0 is a mistake, not a limit.
                if plugin.memory_mb == Some(0) || plugin.time_ms == Some(0) {
                    return Err(fail(format!(
                        "plugin {}: memory_mb and time_ms must be at least 1",
                        plugin.path
                    )));
                }
                Ok(Plugin {
                    component: ComponentRef::parse(&plugin.path, base),
                    grants: plugin.grants,
                    limits: Limits {
                        memory_mb: plugin.memory_mb.unwrap_or(raw.limits.memory_mb),
                        guest_time_ms: plugin.time_ms.unwrap_or(raw.limits.guest_time_ms),
                    },
                })
            })
            .collect::<Result<_, _>>()?;
        let components: Vec<&ComponentRef> = providers
            .values()
            .flatten()
            .chain(&tools)
            .chain(plugins.iter().map(|p| &p.component))
            .collect();
        // A name is what [config.NAME], grants and errors go by: two different components under
        // one name would share settings (a plugin reading a provider's) and blame.
        for (index, component) in components.iter().enumerate() {
            if let Some(other) = components[..index]
                .iter()
                .find(|other| other.name() == component.name() && !other.same_as(component))
            {
                return Err(fail(format!(
                    "two different components are named {:?}: {} and {}; a component goes by its \
                     file name without .wasm, so rename one",
                    component.name(),
                    other.describe(),
                    component.describe()
                )));
            }
        }
        // Settings for a component the world does not have are a typo: its component would run
        // on defaults while the file says otherwise. Unless a component's own name is the typo
        // (`shell = "bash-locall"` beside `[config.bash-local]`): loading says that better.
        let named: Vec<String> = components.iter().map(|c| c.name()).collect();
        let misnamed = components
            .iter()
            .any(|c| matches!(c, ComponentRef::Builtin(name) if super::builtin::find(name).is_none()));
        if let Some(unknown) = config.keys().find(|name| !named.contains(name))
            && !misnamed
        {
            return Err(fail(format!(
                "[config.{unknown}] configures no component of this world (it has {})",
                named.join(", ")
            )));
        }
        Ok(Self {
            origin: origin.to_string(),
            workspace: raw.workspace.map(|w| resolved(&w, base)),
            sandbox,
            providers,
            tools,
            plugins,
            config,
            limits: raw.limits,
            state_key: None,
            fingerprint: super::cache::ComponentCache::content_hash(format!("{}\n{text}", base.display()).as_bytes()),
            read_at: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_of_zero_are_refused() {
        for text in [
            "[limits]\nmemory_mb = 0\n",
            "[limits]\nguest_time_ms = 0\n",
            "[[plugins]]\npath = \"p.wasm\"\ntime_ms = 0\n",
            "[[plugins]]\npath = \"p.wasm\"\nmemory_mb = 0\n",
        ] {
            let Err(error) = WorldFile::parse(text, "zero", Path::new("/")) else {
                panic!("a limit of 0 loaded: {text}")
            };
            assert!(error.to_string().contains("must be at least 1"), "{error}");
        }
        assert!(WorldFile::parse("[[plugins]]\npath = \"p.wasm\"\ntime_ms = 1\n", "one", Path::new("/")).is_ok());
    }

    #[test]
    fn two_components_under_one_name_are_refused() {
        let base = Path::new("/w");
        let clash = "tools = [\"tool-bash\"]\n[providers]\nshell = \"bash-local\"\n\
                     [[plugins]]\npath = \"bash-local.wasm\"\ngrants = []\n";
        let error = WorldFile::parse(clash, "w.toml", base).err().map(|e| e.to_string());
        assert!(
            error
                .as_deref()
                .is_some_and(|e| e.contains("the built-in bash-local and /w/bash-local.wasm")),
            "{error:?}"
        );
        let plugins = "[[plugins]]\npath = \"a/p.wasm\"\n[[plugins]]\npath = \"b/p.wasm\"\n";
        assert!(WorldFile::parse(plugins, "w.toml", base).is_err());
        // The same component twice is one name for one thing.
        let twice = "[providers]\nfs = [\"fs-sandbox\", \"fs-sandbox\", \"fs-local\"]\n";
        assert!(WorldFile::parse(twice, "w.toml", base).is_ok());
    }

    #[test]
    fn one_file_under_two_spellings_is_one_component() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("d")).unwrap();
        std::fs::write(dir.path().join("d/p.wasm"), b"").unwrap();
        std::fs::create_dir(dir.path().join("e")).unwrap();
        std::os::unix::fs::symlink("../d/p.wasm", dir.path().join("e/p.wasm")).unwrap();
        let both = "[providers]\nshell = \"d/p.wasm\"\n[[plugins]]\npath = \"d/../d/p.wasm\"\n";
        assert!(WorldFile::parse(both, "w.toml", dir.path()).is_ok());
        let tools = "tools = [\"./d/p.wasm\", \"d/../d/p.wasm\"]\n";
        let error = WorldFile::parse(tools, "w.toml", dir.path())
            .err()
            .map(|e| e.to_string());
        assert!(
            error.as_deref().is_some_and(|e| e.contains("twice (entries 1 and 2)")),
            "{error:?}"
        );
        // A symlink reaches the same file: the same component, not a second one named p.
        let linked = "[providers]\nshell = \"d/p.wasm\"\n[[plugins]]\npath = \"e/p.wasm\"\n";
        assert!(WorldFile::parse(linked, "w.toml", dir.path()).is_ok());
    }

    #[test]
    fn a_tool_listed_twice_is_refused() {
        let text = "tools = [\"tool-bash\", \"tool-fs\", \"tool-bash\"]\n";
        let Err(error) = WorldFile::parse(text, "twice", Path::new("/")) else {
            panic!("a tool listed twice loaded")
        };
        assert!(error.to_string().contains("tools lists"), "{error}");
        assert!(error.to_string().contains("twice (entries 1 and 3)"), "{error}");
    }

    #[test]
    fn settings_for_a_component_the_world_lacks_are_refused() {
        let text = "tools = [\"tool-bash\"]\n[providers]\nshell = \"bash-local\"\n[config.bash-locl]\nx = 1\n";
        let Err(error) = WorldFile::parse(text, "typo", Path::new("/")) else {
            panic!("a typo in a config table name loaded")
        };
        assert!(
            error.to_string().contains("[config.bash-locl] configures no component"),
            "{error}"
        );
        let text = text.replace("bash-locl", "bash-local");
        assert!(WorldFile::parse(&text, "fixed", Path::new("/")).is_ok());
    }

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
        // Each layer of a stack is a component of its own.
        assert_eq!(world.component_count(), 6);
    }

    #[test]
    fn a_path_from_home_is_taken_there() {
        let home = PathBuf::from(std::env::var_os("HOME").expect("HOME is set"));
        let world = WorldFile::parse(
            "workspace = \"~\"\ntools = [\"~/p/wc.wasm\", \"~x/other.wasm\"]",
            "t",
            Path::new("/w"),
        )
        .unwrap();
        assert_eq!(world.workspace, Some(home.clone()));
        assert_eq!(world.tools[0], ComponentRef::Path(home.join("p/wc.wasm")));
        assert_eq!(
            world.tools[1],
            ComponentRef::Path("/w/~x/other.wasm".into()),
            "only ~ alone means home"
        );
    }

    #[test]
    fn a_provider_entry_of_another_shape_is_explained() {
        let Err(error) = WorldFile::parse("[providers]\nfs = { path = \"x.wasm\" }", "t", Path::new("/w")) else {
            panic!("a table loaded as a provider")
        };
        assert!(
            error.to_string().contains("expected a component (a built-in name"),
            "{error}"
        );
    }

    #[test]
    fn plugins_carry_grants_and_limits_over_the_world_defaults() {
        let text = r#"
            [providers]
            counter = "counter.wasm"
            [[plugins]]
            path = "p.wasm"
            grants = ["counter"]
            time_ms = 200
            [limits]
            memory_mb = 128
        "#;
        let world = WorldFile::parse(text, "t.toml", Path::new("/w")).unwrap();
        assert_eq!(world.component_count(), 2);
        let plugin = &world.plugins[0];
        assert_eq!(plugin.component, ComponentRef::Path("/w/p.wasm".into()));
        assert_eq!(plugin.grants, ["counter"]);
        assert_eq!(
            plugin.limits,
            Limits {
                memory_mb: 128,
                guest_time_ms: 200
            }
        );
        let unknown = "[[plugins]]\npath = \"p.wasm\"\ngrants = [\"fs\"]";
        let error = WorldFile::parse(unknown, "t", Path::new(".")).unwrap_err();
        assert!(error.message.contains("\"fs\""), "{error}");
    }

    #[test]
    fn refuses_unknown_keys_and_modes() {
        assert!(WorldFile::parse("colour = 1", "t", Path::new(".")).is_err());
        assert!(WorldFile::parse("sandbox = \"open\"", "t", Path::new(".")).is_err());
    }
}
