//! Tool arguments: the JSON object of a call decoded into the tool's own serde struct.

use std::fmt;

use serde::de::DeserializeOwned;

use crate::json;

/// The stable code of a tool result whose arguments could not be decoded.
pub const INVALID_ARGUMENTS: &str = "INVALID_ARGUMENTS";

/// Why a call's arguments were refused; the message is written for the model to fix its call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgsError {
    message: String,
}

impl ArgsError {
    /// Always [`INVALID_ARGUMENTS`].
    pub fn code(&self) -> &'static str {
        INVALID_ARGUMENTS
    }

    /// The same refusal, where an unknown field's message lists `fields`, the ones the tool's
    /// schema publishes, rather than every field its struct decodes (some are offered only in
    /// some worlds).
    pub fn listing_fields(mut self, fields: &[impl AsRef<str>]) -> Self {
        let top_level_unknown = self.message.starts_with("unknown field");
        if let Some(at) = self.message.find(", expected").filter(|_| top_level_unknown) {
            let listed: Vec<String> = fields.iter().map(|field| format!("`{}`", field.as_ref())).collect();
            self.message.truncate(at);
            self.message
                .push_str(&format!("; the fields are {}", listed.join(", ")));
        }
        self
    }
}

impl fmt::Display for ArgsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid arguments: {}", self.message)
    }
}

impl std::error::Error for ArgsError {}

/// Decode a call's arguments, which must be a JSON object. Blank text counts as `{}`: some
/// clients send nothing for a call without parameters.
pub fn parse<T: DeserializeOwned>(arguments: &str) -> Result<T, ArgsError> {
    json::from_object(arguments).map_err(|message| ArgsError { message })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Args {
        command: String,
        timeout_ms: Option<u32>,
    }

    fn error_of(arguments: &str) -> String {
        match parse::<Args>(arguments) {
            Ok(args) => panic!("accepted {arguments:?} as {args:?}"),
            Err(error) => error.to_string(),
        }
    }

    #[test]
    fn decodes_an_object() {
        let args: Result<Args, _> = parse(r#"{"command": "ls", "timeout_ms": 5}"#);
        assert_eq!(
            args,
            Ok(Args {
                command: "ls".into(),
                timeout_ms: Some(5)
            })
        );
    }

    #[test]
    fn explains_what_is_wrong() {
        assert_eq!(error_of("{}"), "invalid arguments: missing field `command`");
        assert_eq!(error_of("   "), "invalid arguments: missing field `command`");
        assert_eq!(
            error_of(r#"{"command": 1}"#),
            "invalid arguments: command: invalid type: integer `1`, expected a string"
        );
        assert!(error_of(r#"{"command": "ls", "timeout_ms": -1}"#).contains("invalid value"));
        assert!(error_of(r#"{"command": "ls", "cwd": "/"}"#).contains("unknown field `cwd`"));
        assert!(error_of("{\"command\":").starts_with("invalid arguments: not valid JSON"));
        assert_eq!(
            error_of(r#"["ls"]"#),
            "invalid arguments: expected a JSON object, got an array"
        );
    }

    #[test]
    fn an_unknown_field_is_told_the_published_ones() {
        let error = parse::<Args>(r#"{"comand": "ls"}"#).unwrap_err();
        assert_eq!(
            error.listing_fields(&["command"]).to_string(),
            "invalid arguments: unknown field `comand`; the fields are `command`"
        );
        let other = parse::<Args>("{}").unwrap_err();
        assert_eq!(other.clone().listing_fields(&["command"]), other);
    }

    #[test]
    fn carries_the_stable_code() {
        let error = parse::<Args>("null").err().map(|error| error.code());
        assert_eq!(error, Some("INVALID_ARGUMENTS"));
    }
}
