//! JSON objects (tool arguments, component settings) decoded into serde structs, with
//! messages written for whoever has to fix the JSON.

use serde::de::DeserializeOwned;
use serde_json::Value;

/// Decode `text`, which must hold a JSON object. Blank text counts as `{}`.
///
/// Only objects are accepted: serde would otherwise also read a struct from a JSON array.
pub fn from_object<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    let text = if text.trim().is_empty() { "{}" } else { text };
    // A valid object (nearly every call) decodes straight from its text; the decoding through
    // a `Value` below, several times slower, runs only to explain a failure.
    if text.trim_start().starts_with('{')
        && let Ok(decoded) = serde_json::from_str(text)
    {
        return Ok(decoded);
    }
    let value: Value = serde_json::from_str(text).map_err(|error| format!("not valid JSON ({error})"))?;
    if !value.is_object() {
        return Err(format!("expected a JSON object, got {}", kind(&value)));
    }
    // Decoding from a `Value` gives messages without line/column noise, e.g. "missing field
    // `command`"; the path names the member at fault ("limit: invalid type: ...") when the
    // error lies inside one.
    serde_path_to_error::deserialize(value).map_err(located)
}

/// The error after the path of the member it lies in. An unknown member is named by the error
/// itself, so its path ends at the object holding it.
fn located(error: serde_path_to_error::Error<serde_json::Error>) -> String {
    use serde_path_to_error::Segment;
    let inner = error.inner().to_string();
    let mut segments: Vec<&Segment> = error.path().iter().collect();
    if inner.starts_with("unknown field") {
        segments.pop();
    }
    let mut path = String::new();
    for segment in segments {
        match segment {
            Segment::Seq { index } => path.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
            Segment::Unknown => path.push_str(if path.is_empty() { "?" } else { ".?" }),
        }
    }
    match path.is_empty() {
        true => inner,
        false => format!("{path}: {inner}"),
    }
}

/// The JSON Schema of a tool's arguments: an object of `properties` (the members' JSON text,
/// comma-separated, without braces), `required` named, nothing else allowed.
pub fn object_schema(properties: &str, required: &[&str]) -> String {
    let required: Vec<String> = required.iter().map(|r| format!("{r:?}")).collect();
    format!(
        r#"{{"type": "object", "properties": {{{properties}}}, "required": [{}], "additionalProperties": false}}"#,
        required.join(", ")
    )
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Default, Deserialize, PartialEq)]
    #[serde(default, deny_unknown_fields)]
    struct Settings {
        limit: u32,
    }

    #[test]
    fn an_object_schema_is_json_with_its_required_members() {
        let schema = object_schema(r#""id": {"type": "string"}, "n": {"type": "integer"}"#, &["id"]);
        let value: Value = serde_json::from_str(&schema).expect("the schema is JSON");
        assert_eq!(value["required"], serde_json::json!(["id"]));
        assert_eq!(value["properties"]["n"]["type"], "integer");
        assert_eq!(value["additionalProperties"], false);
    }

    #[test]
    fn blank_text_is_an_empty_object() {
        assert_eq!(from_object::<Settings>(" \n"), Ok(Settings::default()));
    }

    #[test]
    fn a_repeated_member_takes_its_last_value() {
        assert_eq!(
            from_object::<Settings>(r#"{"limit": 1, "limit": 2}"#),
            Ok(Settings { limit: 2 })
        );
    }

    #[test]
    fn only_objects_are_accepted() {
        assert_eq!(
            from_object::<Settings>("[]"),
            Err("expected a JSON object, got an array".into())
        );
        assert_eq!(
            from_object::<Settings>("7"),
            Err("expected a JSON object, got a number".into())
        );
    }

    #[test]
    fn explains_bad_fields_and_bad_json() {
        let unknown = from_object::<Settings>(r#"{"limt": 1}"#);
        assert_eq!(unknown.unwrap_err(), "unknown field `limt`, expected `limit`");
        let broken = from_object::<Settings>("{");
        assert!(broken.is_err_and(|message| message.starts_with("not valid JSON (")));
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Nested {
        name: String,
        inner: Option<Settings>,
        items: Vec<u32>,
    }

    #[test]
    fn a_mistyped_member_is_named() {
        assert_eq!(
            from_object::<Settings>(r#"{"limit": "ten"}"#).unwrap_err(),
            "limit: invalid type: string \"ten\", expected u32"
        );
        let nested = |text: &str| from_object::<Nested>(text).unwrap_err();
        assert!(
            nested(r#"{"name": "a", "inner": {"limit": -1}, "items": []}"#).starts_with("inner.limit: invalid value")
        );
        assert!(nested(r#"{"name": "a", "items": [1, "2"]}"#).starts_with("items[1]: invalid type"));
        // An error of the object as a whole names no member; an unknown one, the object holding it.
        assert_eq!(nested(r#"{"items": []}"#), "missing field `name`");
        assert!(
            nested(r#"{"name": "a", "inner": {"limt": 1}, "items": []}"#).starts_with("inner: unknown field `limt`")
        );
    }
}
