//! The server table, published whole in seam:host/state (key `servers`). The configured table
//! is checked and every command resolved before one compare-and-swap publishes it, so no call
//! ever sees half of it; runtime registrations join it the same way.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::bindings::exports::seam::lsp::lsp::{Error, Server, ServerStatus};
use crate::bindings::seam::host::state;
use crate::bindings::seam::subprocess::subprocess;
use crate::config::{Config, MissingServers, ServerConfig};
use crate::errors;

const KEY: &str = "servers";

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Entry {
    pub id: String,
    /// As configured or registered.
    pub command: Vec<String>,
    /// `command` with argv[0] resolved to an absolute path.
    pub argv: Vec<String>,
    pub extensions: Vec<String>,
    /// Kept as JSON text: every query loads the table, only a server's start and its
    /// configuration requests read these.
    pub settings: Box<RawValue>,
    pub initialization_options: Option<Box<RawValue>>,
    /// Why it cannot serve (its command was not found when the table was loaded).
    pub unavailable: Option<String>,
}

impl Entry {
    pub fn status(&self) -> ServerStatus {
        ServerStatus {
            server: Server {
                id: self.id.clone(),
                command: self.command.clone(),
                extensions: self.extensions.clone(),
            },
            unavailable: self.unavailable.clone(),
        }
    }
}

/// The published table; the configured one is checked and published on first use.
pub fn table(config: &Config) -> Result<Vec<Entry>, Error> {
    loop {
        if let Some(bytes) = state::get(KEY) {
            return Ok(serde_json::from_slice(&bytes).unwrap_or_default());
        }
        let entries = configured(config)?;
        let json = serde_json::to_vec(&entries).expect("entries serialize");
        if state::compare_and_swap(KEY, None, Some(&json)) {
            return Ok(entries);
        }
    }
}

/// The configured servers, every one checked and resolved, or every problem at once.
fn configured(config: &Config) -> Result<Vec<Entry>, Error> {
    let mut entries: Vec<Entry> = Vec::new();
    let mut problems = Vec::new();
    for (id, server) in &config.servers {
        let ServerConfig {
            command,
            extensions,
            settings,
            initialization_options,
        } = server.clone();
        if let Err(e) = check_shape(id, &command, &extensions, &entries) {
            problems.push(e.message);
            continue;
        }
        let (argv, unavailable) = match resolve(&command) {
            Ok(argv) => (argv, None),
            Err(e) if config.missing_servers == MissingServers::Report => (command.clone(), Some(e.message)),
            Err(e) => {
                problems.push(e.message);
                continue;
            }
        };
        entries.push(Entry {
            id: id.clone(),
            command,
            argv,
            extensions,
            settings: raw(settings.as_ref())?,
            initialization_options: initialization_options.as_ref().map(|o| raw(Some(o))).transpose()?,
            unavailable,
        });
    }
    if problems.is_empty() {
        Ok(entries)
    } else {
        Err(errors::error(
            errors::INVALID_SERVER,
            format!("the configured language servers were refused: {}", problems.join("; ")),
        ))
    }
}

/// JSON text of a configured value; none is an empty object.
fn raw(value: Option<&serde_json::Value>) -> Result<Box<RawValue>, Error> {
    let empty = serde_json::Value::Object(Default::default());
    serde_json::value::to_raw_value(value.unwrap_or(&empty))
        .map_err(|e| errors::error(errors::INVALID_SERVER, format!("server settings: {e}")))
}

fn resolve(command: &[String]) -> Result<Vec<String>, Error> {
    let program = subprocess::resolve_executable(&command[0], &[]).map_err(|e| {
        errors::error(
            errors::INVALID_SERVER,
            format!("cannot run {:?}: {} ({})", command[0], e.message, e.code),
        )
    })?;
    Ok(std::iter::once(program).chain(command[1..].iter().cloned()).collect())
}

/// Id, argv and extensions well formed, and neither id nor extensions taken in `taken`.
fn check_shape(id: &str, command: &[String], extensions: &[String], taken: &[Entry]) -> Result<(), Error> {
    let invalid = |message: String| Err(errors::error(errors::INVALID_SERVER, message));
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) {
        return invalid(format!("server id {id:?}: use letters, digits, '-', '_' and '.'"));
    }
    if command.first().is_none_or(String::is_empty) {
        return invalid(format!("server {id}: the command is empty"));
    }
    if extensions.is_empty() {
        return invalid(format!("server {id}: no extensions"));
    }
    for (i, extension) in extensions.iter().enumerate() {
        let name = extension.strip_prefix('.').unwrap_or_default();
        if name.is_empty() || name.contains(['.', '/']) || extensions[..i].contains(extension) {
            return invalid(format!(
                "server {id}: extension {extension:?} must be a final extension with its dot (\".rs\"), listed once"
            ));
        }
    }
    if taken.iter().any(|e| e.id == id) {
        return Err(errors::error(errors::DUPLICATE_ID, format!("server id {id} is taken")));
    }
    for extension in extensions {
        if let Some(owner) = taken.iter().find(|e| e.extensions.contains(extension)) {
            return Err(errors::error(
                errors::EXTENSION_TAKEN,
                format!("extension {extension} belongs to server {}", owner.id),
            ));
        }
    }
    Ok(())
}

/// Add a server: all of it or, on any conflict, nothing.
pub fn register(config: &Config, server: Server) -> Result<(), Error> {
    table(config)?;
    check_shape(&server.id, &server.command, &server.extensions, &[])?;
    let argv = resolve(&server.command)?;
    loop {
        let current = state::get(KEY);
        let mut entries: Vec<Entry> = current
            .as_deref()
            .and_then(|b| serde_json::from_slice(b).ok())
            .unwrap_or_default();
        check_shape(&server.id, &server.command, &server.extensions, &entries)?;
        entries.push(Entry {
            id: server.id.clone(),
            command: server.command.clone(),
            argv: argv.clone(),
            extensions: server.extensions.clone(),
            settings: raw(None)?,
            initialization_options: None,
            unavailable: None,
        });
        let json = serde_json::to_vec(&entries).expect("entries serialize");
        if state::compare_and_swap(KEY, current.as_deref(), Some(&json)) {
            return Ok(());
        }
    }
}

/// Remove a server from the table; its entry when it was there.
pub fn unregister(config: &Config, id: &str) -> Option<Entry> {
    table(config).ok()?;
    loop {
        let current = state::get(KEY)?;
        let mut entries: Vec<Entry> = serde_json::from_slice(&current).unwrap_or_default();
        let at = entries.iter().position(|e| e.id == id)?;
        let removed = entries.remove(at);
        let json = serde_json::to_vec(&entries).expect("entries serialize");
        if state::compare_and_swap(KEY, Some(&current), Some(&json)) {
            return Some(removed);
        }
    }
}

/// The server owning `path`'s final extension.
pub fn route<'a>(entries: &'a [Entry], path: &str) -> Result<&'a Entry, Error> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let extension = name.rfind('.').filter(|&at| at > 0).map(|at| &name[at..]);
    let entry = extension.and_then(|ext| entries.iter().find(|e| e.extensions.iter().any(|x| x == ext)));
    let Some(entry) = entry else {
        let served: Vec<String> = entries.iter().flat_map(|e| e.extensions.clone()).collect();
        return Err(errors::error(
            errors::NO_SERVER,
            format!(
                "no language server for {name} (extensions served: {})",
                if served.is_empty() {
                    "none".to_owned()
                } else {
                    served.join(" ")
                }
            ),
        ));
    };
    if let Some(why) = &entry.unavailable {
        return Err(errors::error(
            errors::INVALID_SERVER,
            format!("language server {} is unavailable: {why}", entry.id),
        ));
    }
    Ok(entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, extensions: &[&str], unavailable: Option<&str>) -> Entry {
        Entry {
            id: id.into(),
            command: vec![id.into()],
            argv: vec![format!("/bin/{id}")],
            extensions: extensions.iter().map(|e| e.to_string()).collect(),
            settings: raw(None).unwrap(),
            initialization_options: None,
            unavailable: unavailable.map(str::to_owned),
        }
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn shapes_and_conflicts_have_their_codes() {
        let taken = [entry("ra", &[".rs"], None)];
        let code = |id: &str, command: &[&str], extensions: &[&str]| {
            check_shape(id, &strings(command), &strings(extensions), &taken)
                .err()
                .map(|e| e.code)
        };
        assert_eq!(code("ts", &["tsls"], &[".ts", ".tsx"]), None);
        assert_eq!(code("ts", &[], &[".ts"]).as_deref(), Some(errors::INVALID_SERVER));
        assert_eq!(code("a b", &["x"], &[".ts"]).as_deref(), Some(errors::INVALID_SERVER));
        for bad in [&["ts"][..], &[".d.ts"], &["."], &[".ts", ".ts"], &[]] {
            assert_eq!(
                code("ts", &["x"], bad).as_deref(),
                Some(errors::INVALID_SERVER),
                "{bad:?}"
            );
        }
        assert_eq!(code("ra", &["x"], &[".ra"]).as_deref(), Some(errors::DUPLICATE_ID));
        assert_eq!(
            code("other", &["x"], &[".rs"]).as_deref(),
            Some(errors::EXTENSION_TAKEN)
        );
    }

    #[test]
    fn routing_is_by_final_extension() {
        let table = [
            entry("ra", &[".rs"], None),
            entry("ts", &[".ts"], Some("not installed")),
        ];
        assert_eq!(route(&table, "/w/src/lib.rs").ok().map(|e| e.id.as_str()), Some("ra"));
        assert_eq!(
            route(&table, "a.d.ts").err().map(|e| e.code).as_deref(),
            Some(errors::INVALID_SERVER)
        );
        for none in ["README.md", "Makefile", ".rs", "dir.rs/file"] {
            assert_eq!(
                route(&table, none).err().map(|e| e.code).as_deref(),
                Some(errors::NO_SERVER),
                "{none}"
            );
        }
    }
}
