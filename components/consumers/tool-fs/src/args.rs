//! The tools' arguments, decoded strictly: an unknown or mistyped field is the model's error to
//! fix, not something to ignore.

use serde::Deserialize;

use seam_guest::json_scan::Scanner;

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

impl WriteArgs {
    /// `seam_guest::args::parse`, with `content` decoded by the scanner's block decoder when the
    /// arguments are an object of exactly these two strings; anything else takes the general
    /// path, so results and error messages are the same either way.
    pub fn parse(arguments: &str) -> Result<Self, seam_guest::args::ArgsError> {
        match Self::parse_plain(arguments) {
            Some(args) => Ok(args),
            None => seam_guest::args::parse(arguments),
        }
    }

    fn parse_plain(arguments: &str) -> Option<Self> {
        let (mut file_path, mut content) = (None, None);
        let mut scanner = Scanner::new(arguments);
        scanner.object(|scanner, key| {
            let slot = match &*key {
                "file_path" => &mut file_path,
                "content" => &mut content,
                _ => return None,
            };
            // A repeated member: the general decoder decides what that means.
            slot.replace(scanner.string()?.into_owned()).is_none().then_some(())
        })?;
        scanner.at_end().then_some(())?;
        Some(Self {
            file_path: file_path?,
            content: content?,
        })
    }
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

    #[test]
    fn write_args_decode_as_the_general_path_does() {
        for arguments in [
            r#"{"file_path": "a", "content": "x\ny \"q\" \u00e9\ud83d\ude00"}"#,
            r#" {"content": "", "file_path": "b"} "#,
            r#"{"file_path": " a", "content": "  x\n  y  "}"#,
            r#"{"file_path": "a", "content": "x", "content": "y"}"#,
            r#"{"file_path": "a", "content": "\ud800"}"#,
            r#"{"file_path": "a", "content": 3}"#,
            r#"{"file_path": "a", "content": "x", "extra": 1}"#,
            r#"{"file_path": "a", "content": "x", "extra": "y"}"#,
            r#"{"file_\u0070ath": "a", "content": "x\ty"}"#,
            r#"{"file_path": "a", "content": "raw	tab"}"#,
            r#"{"file_path": "a"}"#,
            r#"["a", "b"]"#,
            "",
            "{",
        ] {
            assert_eq!(
                WriteArgs::parse(arguments),
                seam_guest::args::parse::<WriteArgs>(arguments),
                "{arguments}"
            );
        }
    }
}
