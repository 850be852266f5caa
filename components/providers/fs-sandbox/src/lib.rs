//! `fs-sandbox`: an fs wrapper that fences mutations by the call's sandbox mode. Reads are never
//! fenced (`read-only` speaks of file effects). Under `read-only` every write and edit fails
//! FS_SANDBOX_DENIED; under `workspace-write` only targets whose fresh canonical identity lies
//! in the workspace root or a writable root (the platform temp dir) may change, git's own files
//! (`.git`, the hooks dir it names) excepted; under
//! `danger-full-access` everything passes. A call without a policy gets the world's default.

mod fence;
mod policy;
mod stream;

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:fs-sandbox;

            world fs-sandbox {
                import seam:fs/fs@0.1.0;
                import seam:host/config@0.1.0;
                import seam:host/sandbox-launch@0.1.0;
                export seam:fs/fs@0.1.0;
                export seam:host/config-check@0.1.0;
            }
        "#,
        // Dependencies first: fs uses seam:sandbox.
        path: ["../../../wit/sandbox", "../../../wit/host", "../../../wit/fs"],
        generate_all,
    });
}

use bindings::exports::seam::fs::fs::{Guest, TextStream};
use bindings::seam::fs::fs as inner;
use bindings::seam::fs::types::{
    BytesFile, DirEntry, Edit, EditOutcome, Error, Intent, LineWindow, Metadata, Target, TextFile, TextLines,
    WriteOutcome,
};
use bindings::seam::sandbox::types::{Mode, Policy};

use crate::stream::PassStream;

struct FsSandbox;

impl Guest for FsSandbox {
    type TextStream = PassStream;

    fn resolve(path: String, cwd: String) -> Result<Target, Error> {
        inner::resolve(&path, &cwd)
    }

    fn process_path(target: Target) -> Result<String, Error> {
        inner::process_path(&target)
    }

    fn file_url(target: Target) -> Result<String, Error> {
        inner::file_url(&target)
    }

    fn contains(parent: Target, child: Target) -> bool {
        inner::contains(&parent, &child)
    }

    fn stat(target: Target) -> Result<Metadata, Error> {
        inner::stat(&target)
    }

    fn lstat(target: Target) -> Result<Metadata, Error> {
        inner::lstat(&target)
    }

    fn read_text(target: Target, max_bytes: Option<u64>, session: Option<String>) -> Result<TextFile, Error> {
        inner::read_text(&target, max_bytes, session.as_deref())
    }

    fn read_lines(
        target: Target,
        window: LineWindow,
        max_bytes: Option<u64>,
        session: Option<String>,
    ) -> Result<TextLines, Error> {
        inner::read_lines(&target, window, max_bytes, session.as_deref())
    }

    fn stream_text(target: Target) -> Result<TextStream, Error> {
        inner::stream_text(&target).map(|stream| TextStream::new(PassStream(stream)))
    }

    fn read_bytes(target: Target, max_bytes: u64) -> Result<BytesFile, Error> {
        inner::read_bytes(&target, max_bytes)
    }

    fn list_dir(target: Target) -> Result<Vec<DirEntry>, Error> {
        inner::list_dir(&target)
    }

    fn write_text(
        target: Target,
        content: String,
        intent: Option<Intent>,
        sandbox: Option<Policy>,
        session: Option<String>,
    ) -> Result<WriteOutcome, Error> {
        let policy = effective(sandbox)?;
        let target = fence::check(&target, &policy)?;
        inner::write_text(&target, &content, intent.as_ref(), Some(&policy), session.as_deref())
    }

    fn edit_text(
        target: Target,
        edit: Edit,
        expected_version: Option<String>,
        sandbox: Option<Policy>,
        session: Option<String>,
    ) -> Result<EditOutcome, Error> {
        let policy = effective(sandbox)?;
        let target = fence::check(&target, &policy)?;
        inner::edit_text(
            &target,
            &edit,
            expected_version.as_deref(),
            Some(&policy),
            session.as_deref(),
        )
    }

    fn sandbox_mode() -> Option<Mode> {
        // A malformed config fences as tightly as possible rather than not at all.
        Some(policy::default_policy().map_or(Mode::ReadOnly, |policy| policy.mode))
    }
}

/// The call's own policy, else the deployment default.
fn effective(sandbox: Option<Policy>) -> Result<Policy, Error> {
    match sandbox {
        Some(policy) => Ok(policy),
        None => policy::default_policy(),
    }
}

/// Asked when a world that configures this component loads.
impl bindings::exports::seam::host::config_check::Guest for FsSandbox {
    fn check() -> Result<(), String> {
        policy::default_policy().map(drop).map_err(|error| error.message)
    }
}

bindings::export!(FsSandbox with_types_in bindings);
