//! The messages of `rg --json` this tool uses. Text that is not UTF-8 comes base64-encoded in
//! a `bytes` field and is shown lossily.

use serde::Deserialize;

#[derive(Debug, Deserialize)]
struct Message {
    #[serde(rename = "type")]
    kind: String,
    data: Option<Data>,
}

#[derive(Debug, Deserialize)]
struct Data {
    path: Option<Text>,
    lines: Option<Text>,
    line_number: Option<u64>,
    stats: Option<Stats>,
}

#[derive(Debug, Deserialize)]
struct Text {
    text: Option<String>,
    bytes: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Stats {
    matched_lines: u64,
}

impl Text {
    fn into_string(self) -> String {
        match (self.text, self.bytes) {
            (Some(text), _) => text,
            (None, Some(bytes)) => seam_guest::base64::decode(&bytes)
                .map(|raw| String::from_utf8_lossy(&raw).into_owned())
                .unwrap_or(bytes),
            (None, None) => String::new(),
        }
    }
}

/// One event of a search.
#[derive(Debug, PartialEq, Eq)]
pub enum Event {
    /// A matching line (`is_match`) or a line of context around one.
    Line {
        path: String,
        number: Option<u64>,
        text: String,
        is_match: bool,
    },
    /// A file is done; how many of its lines matched.
    FileEnd { path: String, matched_lines: u64 },
}

/// None for messages without information here (begin, summary, unknown kinds).
pub fn parse(line: &[u8]) -> Result<Option<Event>, String> {
    let message: Message = serde_json::from_slice(line).map_err(|e| format!("unexpected ripgrep output: {e}"))?;
    let Some(data) = message.data else {
        return Ok(None);
    };
    let path = data.path.map(Text::into_string).unwrap_or_default();
    Ok(match message.kind.as_str() {
        "match" | "context" => Some(Event::Line {
            path,
            number: data.line_number,
            text: data.lines.map(Text::into_string).unwrap_or_default(),
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
        let matched = br#"{"type":"match","data":{"path":{"text":"src/a.rs"},"lines":{"text":"fn main() {\n"},"line_number":3,"absolute_offset":10,"submatches":[]}}"#;
        assert_eq!(
            parse(matched),
            Ok(Some(Event::Line {
                path: "src/a.rs".into(),
                number: Some(3),
                text: "fn main() {\n".into(),
                is_match: true
            }))
        );
        let end = br#"{"type":"end","data":{"path":{"text":"a"},"binary_offset":null,"stats":{"matched_lines":4,"matches":5}}}"#;
        assert_eq!(
            parse(end),
            Ok(Some(Event::FileEnd {
                path: "a".into(),
                matched_lines: 4
            }))
        );
        assert_eq!(parse(br#"{"type":"begin","data":{"path":{"text":"a"}}}"#), Ok(None));
        assert_eq!(parse(br#"{"type":"summary","data":{"elapsed_total":{}}}"#), Ok(None));
    }

    #[test]
    fn bytes_fields_are_decoded_lossily() {
        // "a\xffb" in base64 is "Yf9i".
        let matched = br#"{"type":"context","data":{"path":{"bytes":"Yf9i"},"lines":{"text":"x"},"line_number":1}}"#;
        let Ok(Some(Event::Line { path, is_match, .. })) = parse(matched) else {
            panic!("not a line event");
        };
        assert_eq!((path.as_str(), is_match), ("a\u{fffd}b", false));
    }

    #[test]
    fn garbage_is_an_error() {
        assert!(parse(b"not json").is_err());
    }
}
