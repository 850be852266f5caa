//! Writes and edits: intents become the host's publish preconditions, missing parents are
//! created, a file keeps its encoding, and an edit is read-check-replace-publish with the
//! version it read as the guard.

use crate::bindings::seam::fs::types::{Edit, EditOutcome, Error, Intent, WriteOutcome};
use crate::bindings::seam::host::fsio::{self, Expect, TextEncoding};
use crate::{edit, encoding, errors, paths};

/// An edit without an expected version is serialized with other writers by retrying on a
/// concurrent change; this bounds how often before giving up.
const EDIT_ATTEMPTS: u32 = 8;

pub fn write_text(path: &str, content: String, intent: Option<Intent>) -> Result<WriteOutcome, Error> {
    let expect = intent.map(|intent| match intent {
        Intent::ReplaceIfVersion(version) => Expect::Version(version),
        Intent::CreateIfAbsent => Expect::Absent,
    });
    // A file that must not exist yet is new: UTF-8, without looking.
    let kept = match expect {
        Some(Expect::Absent) => TextEncoding::Utf8,
        _ => encoding::of_file(path),
    };
    let data = encoding::encode(content, kept);
    let written = match fsio::atomic_write(path, &data, None, expect.as_ref()) {
        // The parent is missing: a file that must already exist is gone; otherwise create the
        // directories and publish again (rare, so not probed up front).
        Err(e) if e.code == "FSIO_NOT_FOUND" => match expect {
            Some(Expect::Version(_)) => {
                return Err(errors::error(
                    errors::VERSION_MISMATCH,
                    format!("{path} no longer exists"),
                ));
            }
            _ => {
                fsio::mkdir(paths::parent(path)).map_err(errors::from_host)?;
                fsio::atomic_write(path, &data, None, expect.as_ref())
            }
        },
        other => other,
    }
    .map_err(errors::from_host)?;
    Ok(WriteOutcome {
        version: written.metadata.version,
        created: written.created,
    })
}

pub fn edit_text(path: &str, change: &Edit, expected_version: Option<String>) -> Result<EditOutcome, Error> {
    edit::check(change)?;
    for _ in 0..EDIT_ATTEMPTS {
        let current = fsio::read_text(path, u64::MAX).map_err(errors::from_host)?;
        let version = current.metadata.version;
        if let Some(expected) = &expected_version
            && *expected != version
        {
            return Err(errors::error(
                errors::VERSION_MISMATCH,
                format!("{path} changed since version {expected} was read"),
            ));
        }
        let (edited, replacements) = edit::apply(&current.content, change, path)?;
        let guard = Expect::Version(version);
        let data = encoding::encode(edited, current.encoding);
        match fsio::atomic_write(path, &data, None, Some(&guard)) {
            Ok(written) => {
                return Ok(EditOutcome {
                    version: written.metadata.version,
                    replacements,
                });
            }
            // Another writer got in between our read and our publish: read again, unless the
            // caller pinned the version it edits.
            Err(e) if e.code == "FSIO_VERSION_MISMATCH" && expected_version.is_none() => {}
            Err(e) => return Err(errors::from_host(e)),
        }
    }
    Err(errors::error(
        errors::VERSION_MISMATCH,
        format!("{path} kept changing while it was being edited"),
    ))
}
