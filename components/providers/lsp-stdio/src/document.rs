//! The workspace and the queried document, through seam:fs: resolved in the world's file
//! system, checked to lie inside the workspace, and read whole under a bound.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::bindings::exports::seam::lsp::lsp::{Error, QueryRequest};
use crate::bindings::seam::fs::fs::{self, Target};
use crate::bindings::seam::fs::types::FileKind;
use crate::bindings::seam::host::state;
use crate::errors;

pub struct Workspace {
    pub target: Target,
    /// Where the server runs (its cwd).
    pub process_path: String,
    /// `rootUri`, as the fs provider encodes it.
    pub uri: String,
    /// The path the server sees, decoded from `uri`: result paths are made relative to it.
    pub root: String,
}

/// What the fs provider said about a workspace, kept in state: a warm query skips the three
/// crossings (stat, file-url, process-path) that establish it.
#[derive(Serialize, Deserialize)]
struct Known {
    display_path: String,
    key: String,
    process_path: String,
    uri: String,
}

impl Workspace {
    pub fn open(path: &str) -> Result<Self, Error> {
        let memo = ["workspace/", path].concat();
        if let Some(known) = state::get(&memo).and_then(|b| serde_json::from_slice::<Known>(&b).ok()) {
            return Ok(Self {
                root: crate::uri::file_path(&known.uri).unwrap_or_else(|| known.key.clone()),
                target: Target {
                    display_path: known.display_path,
                    key: known.key,
                },
                process_path: known.process_path,
                uri: known.uri,
            });
        }
        let workspace = Self::establish(path)?;
        let known = Known {
            display_path: workspace.target.display_path.clone(),
            key: workspace.target.key.clone(),
            process_path: workspace.process_path.clone(),
            uri: workspace.uri.clone(),
        };
        state::set(&memo, &serde_json::to_vec(&known).expect("workspace facts serialize"));
        Ok(workspace)
    }

    fn establish(path: &str) -> Result<Self, Error> {
        if !path.starts_with('/') {
            return Err(errors::error(
                errors::NOT_FOUND,
                format!("the workspace {path:?} must be an absolute path"),
            ));
        }
        let target = fs::resolve(path, "/").map_err(errors::from_fs)?;
        let metadata = fs::stat(&target).map_err(errors::from_fs)?;
        if metadata.kind != FileKind::Dir {
            return Err(errors::error(
                errors::NOT_FOUND,
                format!("the workspace {path} is not a directory"),
            ));
        }
        let uri = fs::file_url(&target).map_err(errors::from_fs)?;
        Ok(Self {
            process_path: fs::process_path(&target).map_err(errors::from_fs)?,
            root: crate::uri::file_path(&uri).unwrap_or_else(|| target.key.clone()),
            uri,
            target,
        })
    }

    pub fn folders(&self) -> Value {
        let name = self.root.rsplit('/').find(|s| !s.is_empty()).unwrap_or("/");
        json!([{"uri": self.uri, "name": name}])
    }
}

pub struct Document {
    pub uri: String,
    pub text: String,
    pub language_id: String,
}

impl Document {
    /// `path` (absolute, or relative to the workspace) read whole, at most `max_bytes`.
    pub fn open(workspace: &Workspace, path: &str, max_bytes: u32) -> Result<Self, Error> {
        let target = fs::resolve(path, &workspace.target.display_path).map_err(errors::from_fs)?;
        if !fs::contains(&workspace.target, &target) {
            return Err(errors::error(
                errors::OUTSIDE_WORKSPACE,
                format!(
                    "{} is not inside the workspace {}",
                    target.display_path, workspace.target.display_path
                ),
            ));
        }
        Ok(Self {
            text: read_text(&target, max_bytes)?,
            uri: fs::file_url(&target).map_err(errors::from_fs)?,
            language_id: language_id(&target.display_path).to_owned(),
        })
    }
}

/// The error of a query about a directory, when the path names one: said as the fs says it,
/// whatever its name looks like (a directory `src.rs` and a directory `src` alike).
pub fn directory(request: &QueryRequest) -> Option<Error> {
    let target = fs::resolve(&request.path, &request.workspace).ok()?;
    let kind = fs::stat(&target).ok()?.kind;
    (kind == FileKind::Dir).then(|| Error {
        code: "FS_IS_A_DIRECTORY".to_owned(),
        message: format!("{} is a directory: ask about a source file in it", target.display_path),
    })
}

/// A whole text file through the fs seam in one crossing, refused past `max_bytes` (the
/// provider checks the size before it reads and never buffers beyond the bound).
pub fn read_text(target: &Target, max_bytes: u32) -> Result<String, Error> {
    match fs::read_text(target, Some(u64::from(max_bytes)), None) {
        Ok(file) => Ok(file.content),
        Err(e) if e.code == "FS_TOO_LARGE" => Err(errors::error(
            errors::TOO_LARGE,
            format!("{} is larger than {max_bytes} bytes", target.display_path),
        )),
        Err(e) => Err(errors::from_fs(e)),
    }
}

/// A file other than the document, by the absolute path a server named (to convert its columns).
pub fn read_path(path: &str, max_bytes: u32) -> Option<String> {
    let target = fs::resolve(path, "/").ok()?;
    read_text(&target, max_bytes).ok()
}

/// The LSP language identifier for a file name.
fn language_id(path: &str) -> &str {
    let extension = path.rsplit_once('.').map(|(_, e)| e).unwrap_or_default();
    match extension {
        "rs" => "rust",
        "ts" | "mts" | "cts" => "typescript",
        "tsx" => "typescriptreact",
        "js" | "mjs" | "cjs" => "javascript",
        "jsx" => "javascriptreact",
        "py" | "pyi" => "python",
        "go" => "go",
        "c" | "h" => "c",
        "cc" | "cpp" | "cxx" | "hpp" | "hh" => "cpp",
        "java" => "java",
        "rb" => "ruby",
        "sh" | "bash" => "shellscript",
        other => other,
    }
}
