//! Observations turned into guards: a write is guarded by what the session saw (nothing or
//! absence: the file must not exist; a version: it must still be that version), and an edit
//! needs the session to have read the file.

use crate::bindings::seam::fs::types::{Error, Intent};
use crate::observations::Observation;

pub const NOT_OBSERVED: &str = "FS_NOT_OBSERVED";
pub const NOT_FOUND: &str = "FS_NOT_FOUND";

/// The intent of a write: the caller's when it gave one, else the one the evidence supports.
pub fn write_intent(given: Option<Intent>, seen: Option<&Observation>) -> Intent {
    match (given, seen) {
        (Some(intent), _) => intent,
        (None, Some(Observation::Present(version))) => Intent::ReplaceIfVersion(version.clone()),
        (None, Some(Observation::Absent) | None) => Intent::CreateIfAbsent,
    }
}

/// The version an edit must find: the caller's when it gave one, else the one last seen.
pub fn edit_version(given: Option<String>, seen: Option<&Observation>, path: &str) -> Result<String, Error> {
    match (given, seen) {
        (Some(version), _) => Ok(version),
        (None, Some(Observation::Present(version))) => Ok(version.clone()),
        (None, Some(Observation::Absent)) => Err(Error {
            code: NOT_FOUND.to_owned(),
            message: format!("{path} did not exist when this session last read it"),
        }),
        (None, None) => Err(Error {
            code: NOT_OBSERVED.to_owned(),
            message: format!("{path} has not been read in this session: read it before editing it"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn present(version: &str) -> Observation {
        Observation::Present(version.into())
    }

    #[test]
    fn writes_are_guarded_by_what_was_seen() {
        assert!(matches!(write_intent(None, None), Intent::CreateIfAbsent));
        assert!(matches!(
            write_intent(None, Some(&Observation::Absent)),
            Intent::CreateIfAbsent
        ));
        assert!(matches!(
            write_intent(None, Some(&present("v1"))),
            Intent::ReplaceIfVersion(v) if v == "v1"
        ));
        assert!(matches!(
            write_intent(Some(Intent::ReplaceIfVersion("v0".into())), Some(&present("v1"))),
            Intent::ReplaceIfVersion(v) if v == "v0"
        ));
    }

    #[test]
    fn edits_need_a_read() {
        let code = |r: Result<String, Error>| r.map_err(|e| e.code);
        assert_eq!(code(edit_version(None, None, "/f")), Err(NOT_OBSERVED.into()));
        assert_eq!(
            code(edit_version(None, Some(&Observation::Absent), "/f")),
            Err(NOT_FOUND.into())
        );
        assert_eq!(code(edit_version(None, Some(&present("v1")), "/f")), Ok("v1".into()));
        assert_eq!(code(edit_version(Some("v9".into()), None, "/f")), Ok("v9".into()));
    }
}
