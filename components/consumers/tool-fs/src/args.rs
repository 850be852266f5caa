//! The tools' arguments, decoded strictly: an unknown or mistyped field is the model's error to
//! fix, not something to ignore.

use serde::Deserialize;

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ReadArgs {
    pub file_path: String,
    /// First line to show, 1-based.
    pub offset: Option<u32>,
    /// How many lines to show.
    pub limit: Option<u32>,
}

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct WriteArgs {
    pub file_path: String,
    pub content: String,
}

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct EditArgs {
    pub file_path: String,
    pub old_string: String,
    pub new_string: String,
    #[serde(default)]
    pub replace_all: bool,
}

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ImageArgs {
    pub file_path: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_every_tool() {
        let read: Result<ReadArgs, _> = seam_guest::args::parse(r#"{"file_path": "a", "offset": 3, "limit": 2}"#);
        assert_eq!(
            read,
            Ok(ReadArgs {
                file_path: "a".into(),
                offset: Some(3),
                limit: Some(2)
            })
        );
        let edit: Result<EditArgs, _> =
            seam_guest::args::parse(r#"{"file_path": "a", "old_string": "x", "new_string": "y"}"#);
        assert_eq!(edit.map(|e| e.replace_all), Ok(false));
        assert!(seam_guest::args::parse::<WriteArgs>(r#"{"file_path": "a", "content": ""}"#).is_ok());
        assert!(seam_guest::args::parse::<ImageArgs>(r#"{"file_path": "a"}"#).is_ok());
    }

    #[test]
    fn refuses_what_the_schemas_do_not_allow() {
        for (bad, why) in [
            (r#"{"path": "a"}"#, "unknown field"),
            (r#"{"file_path": "a", "offset": -1}"#, "negative offset"),
            (r#"{"file_path": 3}"#, "mistyped path"),
        ] {
            assert!(seam_guest::args::parse::<ReadArgs>(bad).is_err(), "{why}");
        }
        assert!(seam_guest::args::parse::<WriteArgs>(r#"{"file_path": "a"}"#).is_err());
    }
}
