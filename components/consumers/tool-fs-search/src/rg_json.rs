//! The messages of `rg --json` this tool uses. Text that is not UTF-8 comes base64-encoded in
//! a `bytes` field and is shown lossily.

use std::borrow::Cow;

use serde::Deserialize;

// Borrowed where the JSON has no escapes: a search reads thousands of these, and each owned
// string is an allocation in the component.
#[derive(Debug, Deserialize)]
struct Message<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow)]
    data: Option<Data<'a>>,
}

#[derive(Debug, Deserialize)]
struct Data<'a> {
    #[serde(borrow)]
    path: Option<Text<'a>>,
    #[serde(borrow)]
    lines: Option<Text<'a>>,
    line_number: Option<u64>,
    stats: Option<Stats>,
}

#[derive(Debug, Deserialize)]
struct Text<'a> {
    #[serde(borrow)]
    text: Option<Cow<'a, str>>,
    #[serde(borrow)]
    bytes: Option<Cow<'a, str>>,
}

#[derive(Debug, Deserialize)]
struct Stats {
    matched_lines: u64,
}

impl<'a> Text<'a> {
    fn into_text(self) -> Cow<'a, str> {
        match (self.text, self.bytes) {
            (Some(text), _) => text,
            (None, Some(bytes)) => seam_guest::base64::decode(&bytes)
                .map_or(bytes, |raw| String::from_utf8_lossy(&raw).into_owned().into()),
            (None, None) => Cow::Borrowed(""),
        }
    }
}

/// One event of a search.
#[derive(Debug, PartialEq, Eq)]
pub enum Event<'a> {
    /// A matching line (`is_match`) or a line of context around one.
    Line {
        path: Cow<'a, str>,
        number: Option<u64>,
        text: Cow<'a, str>,
        is_match: bool,
    },
    /// A file is done; how many of its lines matched.
    FileEnd { path: Cow<'a, str>, matched_lines: u64 },
}

/// None for messages without information here (begin, summary, unknown kinds).
pub fn parse(line: &str) -> Result<Option<Event<'_>>, String> {
    let message: Message<'_> = serde_json::from_str(line).map_err(|e| format!("unexpected ripgrep output: {e}"))?;
    let Some(data) = message.data else {
        return Ok(None);
    };
    let path = data.path.map_or(Cow::Borrowed(""), Text::into_text);
    Ok(match &*message.kind {
        "match" | "context" => Some(Event::Line {
            path,
            number: data.line_number,
            text: data.lines.map_or(Cow::Borrowed(""), Text::into_text),
            is_match: message.kind == "match",
        }),
        "end" => Some(Event::FileEnd {
            path,
            matched_lines: data.stats.map_or(0, |s| s.matched_lines),
        }),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_matches_context_and_ends() {
        let matched = r#"{"type":"match","data":{"path":{"text":"src/a.rs"},"lines":{"text":"fn main() {\n"},"line_number":3,"absolute_offset":10,"submatches":[]}}"#;
        assert_eq!(
            parse(matched),
            Ok(Some(Event::Line {
                path: "src/a.rs".into(),
                number: Some(3),
                text: "fn main() {\n".into(),
                is_match: true
            }))
        );
        let end = r#"{"type":"end","data":{"path":{"text":"a"},"binary_offset":null,"stats":{"matched_lines":4,"matches":5}}}"#;
        assert_eq!(
            parse(end),
            Ok(Some(Event::FileEnd {
                path: "a".into(),
                matched_lines: 4
            }))
        );
        assert_eq!(parse(r#"{"type":"begin","data":{"path":{"text":"a"}}}"#), Ok(None));
        assert_eq!(parse(r#"{"type":"summary","data":{"elapsed_total":{}}}"#), Ok(None));
    }

    #[test]
    fn bytes_fields_are_decoded_lossily() {
        // "a\xffb" in base64 is "Yf9i".
        let matched = r#"{"type":"context","data":{"path":{"bytes":"Yf9i"},"lines":{"text":"x"},"line_number":1}}"#;
        let Ok(Some(Event::Line { path, is_match, .. })) = parse(matched) else {
            panic!("not a line event");
        };
        assert_eq!((&*path, is_match), ("a\u{fffd}b", false));
    }

    #[test]
    fn garbage_is_an_error() {
        assert!(parse("not json").is_err());
    }
}
