//! The shape of a tool's input schema, checked when a world loads: a schema a client or a kit
//! misreads (a `required` that is a string, a misspelt type, `properties` that are not schemas)
//! makes a tool nobody can call, or one whose checks are silently skipped. Only the keywords
//! tool schemas use are looked at; others pass as they are.

use serde_json::{Map, Value};

const TYPES: [&str; 7] = ["object", "array", "string", "number", "integer", "boolean", "null"];

/// Why `schema` is not a usable schema, naming where in it.
pub(super) fn check(schema: &Value) -> Result<(), String> {
    node(schema, "the schema")
}

fn node(schema: &Value, at: &str) -> Result<(), String> {
    let schema = match schema {
        // `true` and `false` are schemas that admit anything and nothing.
        Value::Bool(_) => return Ok(()),
        Value::Object(schema) => schema,
        other => return Err(format!("{at} must be an object, not {other}")),
    };
    if let Some(kind) = schema.get("type") {
        check_type(kind, at)?;
    }
    if let Some(properties) = schema.get("properties") {
        let Value::Object(properties) = properties else {
            return Err(format!(
                "{at}: \"properties\" must map names to schemas, not {properties}"
            ));
        };
        for (name, property) in properties {
            node(property, &format!("property `{name}`"))?;
        }
    }
    if let Some(required) = schema.get("required") {
        // A required name nothing describes can never be given when no other name is admitted.
        let closed = schema.get("additionalProperties") == Some(&Value::Bool(false));
        let described = schema.get("properties").and_then(Value::as_object).filter(|_| closed);
        check_required(required, described, at)?;
    }
    for keyword in ["additionalProperties", "items", "not"] {
        match schema.get(keyword) {
            // Draft 7's tuple form: a schema per position.
            Some(Value::Array(tuple)) if keyword == "items" => {
                for (index, inner) in tuple.iter().enumerate() {
                    node(inner, &format!("{at}: \"items\"[{index}]"))?;
                }
            }
            Some(inner) => node(inner, &format!("{at}: \"{keyword}\""))?,
            None => {}
        }
    }
    for keyword in ["anyOf", "oneOf", "allOf", "prefixItems"] {
        if let Some(list) = schema.get(keyword) {
            let Some(list) = list.as_array().filter(|l| !l.is_empty()) else {
                return Err(format!(
                    "{at}: \"{keyword}\" must be a non-empty list of schemas, not {list}"
                ));
            };
            for (index, inner) in list.iter().enumerate() {
                node(inner, &format!("{at}: \"{keyword}\"[{index}]"))?;
            }
        }
    }
    if let Some(values) = schema.get("enum").filter(|v| !v.is_array()) {
        return Err(format!("{at}: \"enum\" must be a list of values, not {values}"));
    }
    for keyword in [
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
    ] {
        if let Some(bound) = schema.get(keyword).filter(|v| !v.is_number()) {
            return Err(format!("{at}: \"{keyword}\" must be a number, not {bound}"));
        }
    }
    if let Some(text) = schema.get("description").filter(|v| !v.is_string()) {
        return Err(format!("{at}: \"description\" must be text, not {text}"));
    }
    Ok(())
}

fn check_type(kind: &Value, at: &str) -> Result<(), String> {
    let known = |name: &Value| name.as_str().is_some_and(|name| TYPES.contains(&name));
    let fine = match kind {
        Value::Array(kinds) => !kinds.is_empty() && kinds.iter().all(known),
        kind => known(kind),
    };
    if fine {
        return Ok(());
    }
    Err(format!(
        "{at}: \"type\" must be one of {} (or a list of them), not {kind}",
        TYPES.join(", ")
    ))
}

/// `required` is a list of names, each described by `properties` when given (a closed object).
fn check_required(required: &Value, properties: Option<&Map<String, Value>>, at: &str) -> Result<(), String> {
    let Some(names) = required.as_array() else {
        return Err(format!(
            "{at}: \"required\" must be a list of property names, not {required}"
        ));
    };
    for name in names {
        let Some(name) = name.as_str() else {
            return Err(format!("{at}: \"required\" must list property names, not {name}"));
        };
        if properties.is_some_and(|properties| !properties.contains_key(name)) {
            return Err(format!(
                "{at}: \"required\" names `{name}`, which \"properties\" does not describe and \
                 \"additionalProperties\": false forbids"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check;
    use serde_json::json;

    #[test]
    fn schemas_of_usable_tools_pass() {
        let schema = json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "A file."},
                "limit": {"type": "integer", "minimum": 1},
                "mode": {"enum": ["a", "b"]},
                "tags": {"type": "array", "items": {"type": "string"}},
                "pair": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]},
                "when": {"type": ["string", "null"], "format": "date-time", "default": null},
                "either": {"anyOf": [{"type": "string"}, {"type": ["number", "null"]}]},
                "anything": true
            },
            "required": ["path"],
            "additionalProperties": false,
            "x-vendor": 5
        });
        assert_eq!(check(&schema), Ok(()));
    }

    #[test]
    fn what_a_client_would_misread_is_named() {
        let refused = |schema: serde_json::Value| check(&schema).unwrap_err();
        let problem = refused(json!({"type": "object", "properties": {"p": {}}, "required": "p"}));
        assert!(problem.contains("\"required\" must be a list"), "{problem}");
        let problem = refused(json!({"type": "object", "properties": {"x": {"type": "strnig"}}}));
        assert!(
            problem.starts_with("property `x`: \"type\" must be one of"),
            "{problem}"
        );
        let problem = refused(json!({"type": "object", "properties": 5}));
        assert!(
            problem.contains("\"properties\" must map names to schemas"),
            "{problem}"
        );
        let problem = refused(json!({
            "type": "object", "properties": {"a": {}}, "required": ["b"], "additionalProperties": false
        }));
        assert!(problem.contains("names `b`"), "{problem}");
        assert_eq!(
            check(&json!({"type": "object", "properties": {"a": {}}, "required": ["b"]})),
            Ok(())
        );
        let problem = refused(json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": "1"}}}));
        assert!(problem.contains("\"minimum\" must be a number"), "{problem}");
        let problem = refused(json!({"type": "object", "properties": {"l": {"type": "array", "items": 3}}}));
        assert!(
            problem.contains("property `l`: \"items\" must be an object"),
            "{problem}"
        );
    }
}
