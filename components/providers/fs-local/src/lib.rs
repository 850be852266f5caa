//! `fs-local`: the fs seam on the local machine, over the host's native file shim (the host
//! owns the system calls, the per-target write lock and the atomic publish; this provider owns
//! path semantics, what counts as text (UTF-8, or UTF-16 with its byte order mark, without NUL;
//! checked natively for whole files), encodings, intents and edits). It does not fence
//! mutations: the `sandbox` and `session` parameters are for the wrappers stacked above it.

mod edit;
mod encoding;
mod errors;
mod metadata;
mod paths;
mod stream;
mod text;
mod write;

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:fs-local;

            world fs-local {
                import seam:host/fsio@0.1.0;
                export seam:fs/fs@0.1.0;
            }
        "#,
        // Dependencies first: fs uses seam:sandbox.
        path: ["../../../wit/sandbox", "../../../wit/host", "../../../wit/fs"],
        generate_all,
    });
}

use bindings::exports::seam::fs::fs::{Guest, TextStream};
use bindings::seam::fs::types::{
    BytesFile, DirEntry, Edit, EditOutcome, Error, Intent, LineWindow, Metadata, Target, TextFile, TextLines,
    WriteOutcome,
};
use bindings::seam::host::fsio;
use bindings::seam::sandbox::types::{Mode, Policy};

use crate::stream::LocalTextStream;

struct FsLocal;

impl Guest for FsLocal {
    type TextStream = LocalTextStream;

    fn resolve(path: String, cwd: String) -> Result<Target, Error> {
        if path.is_empty() || path.contains('\0') {
            return Err(errors::error(
                errors::INVALID_PATH,
                format!("{path:?} is not a usable path (empty, or a NUL byte)"),
            ));
        }
        let display_path = paths::absolute(&path, &cwd).ok_or_else(|| {
            errors::error(
                errors::INVALID_PATH,
                format!("{path} is relative and the working directory {cwd:?} is not absolute"),
            )
        })?;
        // The host resolves the path as given, as the kernel would for any program: a `..`
        // after a symlink leaves the link's target, not the link. Lexically, `link/../x` would
        // be a different file from the one `cat link/../x` shows.
        if !paths::climbs(&path) {
            let key = fsio::canonicalize(&display_path).map_err(errors::from_host)?;
            return Ok(Target { display_path, key });
        }
        let given = if path.starts_with('/') {
            path
        } else {
            [cwd.trim_end_matches('/'), "/", &path].concat()
        };
        let key = fsio::canonicalize(&given).map_err(errors::from_host)?;
        // Shown as resolved: the lexical form would name another file.
        Ok(Target {
            display_path: key.clone(),
            key,
        })
    }

    fn process_path(target: Target) -> Result<String, Error> {
        canonical(&target).map(str::to_owned)
    }

    fn file_url(target: Target) -> Result<String, Error> {
        canonical(&target).map(paths::file_url)
    }

    fn contains(parent: Target, child: Target) -> bool {
        paths::contains(&parent.key, &child.key)
    }

    fn stat(target: Target) -> Result<Metadata, Error> {
        fsio::stat(canonical(&target)?)
            .map(Metadata::from)
            .map_err(errors::from_host)
    }

    fn lstat(target: Target) -> Result<Metadata, Error> {
        // The key has every symlink resolved; only the path as written can end in one.
        if !target.display_path.starts_with('/') {
            return Err(foreign(&target));
        }
        fsio::lstat(&target.display_path)
            .map(Metadata::from)
            .map_err(errors::from_host)
    }

    fn read_text(target: Target, max_bytes: Option<u64>, _session: Option<String>) -> Result<TextFile, Error> {
        let text = fsio::read_text(canonical(&target)?, max_bytes.unwrap_or(u64::MAX)).map_err(errors::from_host)?;
        Ok(TextFile {
            content: text.content,
            version: text.metadata.version,
        })
    }

    fn read_lines(
        target: Target,
        window: LineWindow,
        max_bytes: Option<u64>,
        _session: Option<String>,
    ) -> Result<TextLines, Error> {
        let max_bytes = max_bytes.unwrap_or(u64::MAX);
        let lines =
            fsio::read_lines(canonical(&target)?, max_bytes, window.first, window.count).map_err(errors::from_host)?;
        Ok(TextLines {
            content: lines.content,
            more: lines.more,
            line_count: lines.line_count,
            size: lines.metadata.size,
            version: lines.metadata.version,
        })
    }

    fn stream_text(target: Target) -> Result<TextStream, Error> {
        let stream = LocalTextStream::open(canonical(&target)?.to_owned())?;
        Ok(TextStream::new(stream))
    }

    fn read_bytes(target: Target, max_bytes: u64) -> Result<BytesFile, Error> {
        let contents = fsio::read(canonical(&target)?, max_bytes).map_err(errors::from_host)?;
        Ok(BytesFile {
            base64: seam_guest::base64::encode(&contents.data),
            version: contents.metadata.version,
        })
    }

    fn list_dir(target: Target) -> Result<Vec<DirEntry>, Error> {
        let entries = fsio::list_dir(canonical(&target)?).map_err(errors::from_host)?;
        Ok(entries.into_iter().map(DirEntry::from).collect())
    }

    fn write_text(
        target: Target,
        content: String,
        intent: Option<Intent>,
        _sandbox: Option<Policy>,
        _session: Option<String>,
    ) -> Result<WriteOutcome, Error> {
        write::write_text(canonical(&target)?, content, intent)
    }

    fn edit_text(
        target: Target,
        edit: Edit,
        expected_version: Option<String>,
        _sandbox: Option<Policy>,
        _session: Option<String>,
    ) -> Result<EditOutcome, Error> {
        write::edit_text(canonical(&target)?, &edit, expected_version)
    }

    fn sandbox_mode() -> Option<Mode> {
        None
    }
}

/// The canonical path a target's key holds. Keys are minted by `resolve` only; one that is not
/// an absolute path came from elsewhere (another provider, or made up).
fn canonical(target: &Target) -> Result<&str, Error> {
    if target.key.starts_with('/') {
        Ok(&target.key)
    } else {
        Err(foreign(target))
    }
}

fn foreign(target: &Target) -> Error {
    errors::error(
        errors::INVALID_PATH,
        format!("{} is not a target fs-local resolved", target.display_path),
    )
}

bindings::export!(FsLocal with_types_in bindings);
