//! `fs-observation-policy`: an fs wrapper that records, per session, what each read observed
//! (present at a version, or absent) and turns that evidence into guards: a write without an
//! intent must not replace a file the session never saw (create-if-absent) and must replace
//! exactly the version it saw (replace-if-version); an edit of a file never read fails
//! FS_NOT_OBSERVED, of one seen absent FS_NOT_FOUND. A successful write or edit is new evidence.
//! Calls without a session are not a model's and pass through unguarded. Removing this
//! provider from a stack removes the policy, not the fs seam's own atomicity.

mod guard;
mod observations;
mod stream;

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:fs-observation-policy;

            world fs-observation-policy {
                import seam:fs/fs@0.1.0;
                import seam:host/state@0.1.0;
                export seam:fs/fs@0.1.0;
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

use crate::observations::Observation;
use crate::stream::PassStream;

struct FsObservationPolicy;

/// What a session's read of `target` observed. Only authoritative answers are evidence: the
/// content's version, or nothing there.
fn observe_read(session: Option<&str>, target: &Target, read: Result<&String, &Error>) {
    let Some(session) = session else { return };
    match read {
        Ok(version) => observations::record(session, &target.key, &Observation::Present(version.clone())),
        Err(e) if e.code == guard::NOT_FOUND => observations::record(session, &target.key, &Observation::Absent),
        Err(_) => {}
    }
}

impl Guest for FsObservationPolicy {
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
        let read = inner::read_text(&target, max_bytes, session.as_deref());
        observe_read(session.as_deref(), &target, read.as_ref().map(|file| &file.version));
        read
    }

    fn read_lines(
        target: Target,
        window: LineWindow,
        max_bytes: Option<u64>,
        session: Option<String>,
    ) -> Result<TextLines, Error> {
        let read = inner::read_lines(&target, window, max_bytes, session.as_deref());
        observe_read(session.as_deref(), &target, read.as_ref().map(|lines| &lines.version));
        read
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
        let Some(session) = session else {
            return inner::write_text(&target, &content, intent.as_ref(), sandbox.as_ref(), None);
        };
        let seen = observations::get(&session, &target.key);
        let unseen = seen.is_none();
        let intent = guard::write_intent(intent, seen.as_ref());
        let written = inner::write_text(&target, &content, Some(&intent), sandbox.as_ref(), Some(&session))
            .map_err(|e| explain_refusal(e, &target, unseen))?;
        observations::record(&session, &target.key, &Observation::Present(written.version.clone()));
        Ok(written)
    }

    fn edit_text(
        target: Target,
        edit: Edit,
        expected_version: Option<String>,
        sandbox: Option<Policy>,
        session: Option<String>,
    ) -> Result<EditOutcome, Error> {
        let Some(session) = session else {
            return inner::edit_text(&target, &edit, expected_version.as_deref(), sandbox.as_ref(), None);
        };
        let seen = observations::get(&session, &target.key);
        let given = expected_version.is_some();
        let mut version = guard::edit_version(expected_version, seen.as_ref(), &target.display_path)?;
        let mut attempts = 0;
        loop {
            match inner::edit_text(&target, &edit, Some(&version), sandbox.as_ref(), Some(&session)) {
                Ok(edited) => {
                    observations::record(&session, &target.key, &Observation::Present(edited.version.clone()));
                    return Ok(edited);
                }
                // Another call of this session (parallel edits of one file) changed it since:
                // what the session has seen is then that call's version, and the edit applies
                // to it. A change from anywhere else leaves the session's evidence as it was.
                Err(error) if error.code == "FS_VERSION_MISMATCH" && !given && attempts < MAX_EDIT_ATTEMPTS => {
                    attempts += 1;
                    match observations::wait_newer(&session, &target.key, &version, OWN_CHANGE_WAIT_MS) {
                        Some(newer) => version = newer,
                        None => return Err(explain_refusal(error, &target, false)),
                    }
                }
                Err(error) => return Err(explain_refusal(error, &target, false)),
            }
        }
    }

    fn sandbox_mode() -> Option<Mode> {
        inner::sandbox_mode()
    }
}

/// Edits of one file by one session that meet: each retries on the version the other left.
const MAX_EDIT_ATTEMPTS: u32 = 64;
/// How long an edit that found its version gone waits for the session's own edit that changed it
/// to record its version (it publishes first, then records).
const OWN_CHANGE_WAIT_MS: u32 = 50;

/// The guards' refusals, said in terms of what the session must do next.
fn explain_refusal(error: Error, target: &Target, unseen: bool) -> Error {
    let message = match error.code.as_str() {
        "FS_EXISTS" if unseen => format!(
            "{} already exists and has not been read in this session: read it before overwriting it",
            target.display_path
        ),
        "FS_EXISTS" => format!(
            "{} was created since this session saw it absent: read it before overwriting it",
            target.display_path
        ),
        "FS_VERSION_MISMATCH" => format!(
            "{} changed since this session last read it: read it again before writing",
            target.display_path
        ),
        _ => return error,
    };
    Error {
        code: error.code,
        message,
    }
}

bindings::export!(FsObservationPolicy with_types_in bindings);
