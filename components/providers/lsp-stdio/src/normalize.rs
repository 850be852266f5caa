//! Server answers into plain sites and markdown: Location, Location[], LocationLink[] or null
//! for the location queries; MarkupContent, MarkedString or MarkedString[] for hover.

use serde_json::Value;

/// A range as the server gave it: an absolute path, 0-based lines, columns in its encoding.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Site {
    pub path: String,
    pub start_line: u32,
    pub start_character: u32,
    pub end_line: u32,
    pub end_character: u32,
}

/// Every site of a location answer, sorted, without duplicates. Non-file URIs are dropped.
pub fn sites(result: &Value) -> Vec<Site> {
    let items: Vec<&Value> = match result {
        Value::Array(items) => items.iter().collect(),
        Value::Object(_) => vec![result],
        _ => Vec::new(),
    };
    let mut sites: Vec<Site> = items.into_iter().filter_map(site).collect();
    sites.sort();
    sites.dedup();
    sites
}

fn site(item: &Value) -> Option<Site> {
    // A LocationLink names the symbol itself in targetSelectionRange; a Location in range.
    let (uri, range) = match item.get("targetUri") {
        Some(uri) => (
            uri,
            item.get("targetSelectionRange").or_else(|| item.get("targetRange"))?,
        ),
        None => (item.get("uri")?, item.get("range")?),
    };
    let path = crate::uri::file_path(uri.as_str()?)?;
    let at = |end: &str, field: &str| range.get(end)?.get(field)?.as_u64().map(|n| n as u32);
    Some(Site {
        path,
        start_line: at("start", "line")?,
        start_character: at("start", "character")?,
        end_line: at("end", "line")?,
        end_character: at("end", "character")?,
    })
}

/// Hover contents as markdown; None when the server has nothing to say.
pub fn hover_markdown(result: &Value) -> Option<String> {
    let text = markdown(result.get("contents")?);
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

fn markdown(contents: &Value) -> String {
    match contents {
        Value::String(text) => text.clone(),
        Value::Array(parts) => parts
            .iter()
            .map(markdown)
            .filter(|part| !part.trim().is_empty())
            .collect::<Vec<_>>()
            .join("\n\n"),
        Value::Object(fields) => {
            let value = fields.get("value").and_then(Value::as_str).unwrap_or_default();
            match fields.get("language").and_then(Value::as_str) {
                // MarkedString with a language: a code block.
                Some(language) => format!("```{language}\n{value}\n```"),
                // MarkupContent: markdown or plaintext, both readable as markdown.
                None => value.to_owned(),
            }
        }
        _ => String::new(),
    }
}

/// True for answers that say "nothing here": null or an empty list.
pub fn is_empty(result: &Value) -> bool {
    match result {
        Value::Null => true,
        Value::Array(items) => items.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn range(l0: u32, c0: u32, l1: u32, c1: u32) -> Value {
        json!({"start": {"line": l0, "character": c0}, "end": {"line": l1, "character": c1}})
    }

    #[test]
    fn locations_links_and_null() {
        let location = json!({"uri": "file:///w/b.rs", "range": range(1, 2, 1, 5)});
        let link = json!({"targetUri": "file:///w/a.rs", "targetRange": range(0, 0, 9, 1),
                          "targetSelectionRange": range(3, 4, 3, 8)});
        let found = sites(&json!([location, link, location]));
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].path, "/w/a.rs");
        assert_eq!((found[0].start_line, found[0].start_character), (3, 4));
        assert_eq!(sites(&location).len(), 1);
        assert!(sites(&Value::Null).is_empty());
        assert!(is_empty(&Value::Null) && is_empty(&json!([])) && !is_empty(&location));
    }

    #[test]
    fn hover_forms_become_markdown() {
        let markup = json!({"contents": {"kind": "markdown", "value": "**x**"}});
        assert_eq!(hover_markdown(&markup).as_deref(), Some("**x**"));
        let marked = json!({"contents": [{"language": "rust", "value": "fn f()"}, "doc"]});
        assert_eq!(hover_markdown(&marked).as_deref(), Some("```rust\nfn f()\n```\n\ndoc"));
        assert_eq!(hover_markdown(&json!({"contents": ""})), None);
        assert_eq!(hover_markdown(&Value::Null), None);
    }
}
