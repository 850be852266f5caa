//! JSON objects (tool arguments, component settings) decoded into serde structs, with
//! messages written for whoever has to fix the JSON.

use serde::de::DeserializeOwned;
use serde_json::Value;

/// Decode `text`, which must hold a JSON object. Blank text counts as `{}`.
///
/// Only objects are accepted: serde would otherwise also read a struct from a JSON array.
pub fn from_object<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    let text = if text.trim().is_empty() { "{}" } else { text };
    let value: Value = serde_json::from_str(text).map_err(|error| format!("not valid JSON ({error})"))?;
    if !value.is_object() {
        return Err(format!("expected a JSON object, got {}", kind(&value)));
    }
    // Decoding from a `Value` gives messages without line/column noise, e.g. "missing field `command`".
    serde_json::from_value(value).map_err(|error| error.to_string())
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
        assert!(unknown.is_err_and(|message| message.starts_with("unknown field `limt`")));
        let broken = from_object::<Settings>("{");
        assert!(broken.is_err_and(|message| message.starts_with("not valid JSON (")));
    }
}
