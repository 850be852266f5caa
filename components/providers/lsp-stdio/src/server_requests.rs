//! Answers to what a server asks the client. The host never edits files or runs commands for a
//! server: workspace/applyEdit is refused, everything unknown gets MethodNotFound.

use serde_json::{Value, json};

/// JSON-RPC's "method not found".
const METHOD_NOT_FOUND: i64 = -32601;

/// The response body (`result` or `error`) for a server request.
pub fn answer(method: &str, params: &Value, settings: &Value, folders: &Value) -> Result<Value, (i64, String)> {
    match method {
        // Static configuration: each item's section looked up in the server's settings.
        "workspace/configuration" => {
            let items = params
                .get("items")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            Ok(Value::Array(
                items
                    .iter()
                    .map(|item| section(settings, item.get("section").and_then(Value::as_str)))
                    .collect(),
            ))
        }
        "workspace/applyEdit" => Ok(json!({
            "applied": false,
            "failureReason": "this client answers read-only queries and never edits files",
        })),
        "workspace/workspaceFolders" => Ok(folders.clone()),
        "window/workDoneProgress/create"
        | "client/registerCapability"
        | "client/unregisterCapability"
        | "window/showMessageRequest"
        | "workspace/semanticTokens/refresh"
        | "workspace/inlayHint/refresh"
        | "workspace/inlineValue/refresh"
        | "workspace/codeLens/refresh"
        | "workspace/diagnostic/refresh" => Ok(Value::Null),
        other => Err((METHOD_NOT_FOUND, format!("{other} is not supported by this client"))),
    }
}

/// `settings` at a dotted section path (`rust-analyzer.cargo`), or the whole object; null when
/// absent.
fn section(settings: &Value, path: Option<&str>) -> Value {
    let Some(path) = path.filter(|p| !p.is_empty()) else {
        return settings.clone();
    };
    // A key spelled with its dots wins over the nested path.
    if let Some(value) = settings.get(path) {
        return value.clone();
    }
    path.split('.')
        .try_fold(settings, |value, key| value.get(key))
        .cloned()
        .unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configuration_is_static_and_sectioned() {
        let settings = json!({"rust-analyzer": {"cargo": {"features": "all"}}, "typescript.format": {"x": 1}});
        let params = json!({"items": [{"section": "rust-analyzer.cargo"}, {"section": "typescript.format"},
                                      {"section": "missing"}, {}]});
        let answer = answer("workspace/configuration", &params, &settings, &Value::Null).unwrap();
        assert_eq!(answer, json!([{"features": "all"}, {"x": 1}, null, settings]));
    }

    #[test]
    fn edits_are_refused_and_unknown_methods_fail() {
        let applied = answer("workspace/applyEdit", &json!({}), &json!({}), &Value::Null).unwrap();
        assert_eq!(applied["applied"], false);
        assert_eq!(
            answer(
                "window/workDoneProgress/create",
                &json!({"token": 1}),
                &json!({}),
                &Value::Null
            ),
            Ok(Value::Null)
        );
        assert_eq!(
            answer("x/y", &json!({}), &json!({}), &Value::Null).unwrap_err().0,
            METHOD_NOT_FOUND
        );
    }
}
