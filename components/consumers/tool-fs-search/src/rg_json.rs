//! The messages of `rg --json` this tool uses. Text that is not UTF-8 comes base64-encoded in
//! a `bytes` field and is shown lossily.

use std::borrow::Cow;

use seam_guest::json_scan::Scanner;

/// What a message's `data` holds that this tool uses. Strings are borrowed from the record
/// where they have no escape: a search reads thousands of records, and each owned string is
/// an allocation in the component.
#[derive(Default)]
struct Data<'a> {
    path: Option<Cow<'a, str>>,
    lines: Option<Cow<'a, str>>,
    line_number: Option<u64>,
    matched_lines: Option<u64>,
    /// Byte offset in `lines` of the first match.
    first_match: Option<u64>,
}

impl<'a> Data<'a> {
    fn read(&mut self, scanner: &mut Scanner<'a>) -> Option<()> {
        if scanner.null() {
            return Some(());
        }
        scanner.object(|scanner, key| {
            match &*key {
                "path" => self.path = text(scanner)?,
                "lines" => self.lines = text(scanner)?,
                "line_number" => self.line_number = number_or_null(scanner)?,
                "submatches" => self.first_match = first_start(scanner)?,
                "stats" => scanner.object(|scanner, key| match &*key {
                    "matched_lines" => {
                        self.matched_lines = Some(scanner.u64()?);
                        Some(())
                    }
                    _ => scanner.skip_value(),
                })?,
                _ => scanner.skip_value()?,
            }
            Some(())
        })
    }
}

/// The `start` of the first of the submatches, the rest stepped over.
fn first_start(scanner: &mut Scanner<'_>) -> Option<Option<u64>> {
    scanner.eat(b'[')?;
    if scanner.eat(b']').is_some() {
        return Some(None);
    }
    let mut first = None;
    loop {
        if first.is_none() {
            scanner.object(|scanner, key| match &*key {
                "start" => {
                    first = Some(scanner.u64()?);
                    Some(())
                }
                _ => scanner.skip_value(),
            })?;
        } else {
            scanner.skip_value()?;
        }
        if scanner.eat(b']').is_some() {
            return Some(first);
        }
        scanner.eat(b',')?;
    }
}

fn number_or_null(scanner: &mut Scanner<'_>) -> Option<Option<u64>> {
    if scanner.null() {
        Some(None)
    } else {
        scanner.u64().map(Some)
    }
}

/// `{"text": ...}`, or `{"bytes": ...}` (base64) for data that is not UTF-8, shown lossily.
fn text<'a>(scanner: &mut Scanner<'a>) -> Option<Option<Cow<'a, str>>> {
    if scanner.null() {
        return Some(None);
    }
    let (mut text, mut bytes) = (None, None);
    scanner.object(|scanner, key| {
        match &*key {
            "text" => text = Some(scanner.string()?),
            "bytes" => bytes = Some(scanner.string()?),
            _ => scanner.skip_value()?,
        }
        Some(())
    })?;
    Some(match (text, bytes) {
        (Some(text), _) => Some(text),
        (None, Some(bytes)) => Some(
            seam_guest::base64::decode(&bytes).map_or(bytes, |raw| String::from_utf8_lossy(&raw).into_owned().into()),
        ),
        (None, None) => None,
    })
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
        /// Byte offset in `text` of the line's first match.
        first_match: Option<usize>,
    },
    /// A file is done; how many of its lines matched.
    FileEnd { path: Cow<'a, str>, matched_lines: u64 },
}

impl<'a> Event<'a> {
    /// The path of the file the event is about, as ripgrep printed it.
    pub fn path(&self) -> &str {
        match self {
            Event::Line { path, .. } | Event::FileEnd { path, .. } => path,
        }
    }

    /// The event with its path replaced by `f` of it.
    pub fn map_path(self, f: impl FnOnce(Cow<'a, str>) -> Cow<'a, str>) -> Self {
        match self {
            Event::Line {
                path,
                number,
                text,
                is_match,
                first_match,
            } => Event::Line {
                path: f(path),
                number,
                text,
                is_match,
                first_match,
            },
            Event::FileEnd { path, matched_lines } => Event::FileEnd {
                path: f(path),
                matched_lines,
            },
        }
    }
}

/// None for messages without information here (begin, summary, unknown kinds).
pub fn parse(line: &str) -> Result<Option<Event<'_>>, String> {
    read(line).ok_or_else(|| {
        let shown: String = line.chars().take(200).collect();
        format!("unexpected ripgrep output: {shown}")
    })
}

fn read(line: &str) -> Option<Option<Event<'_>>> {
    let mut scanner = Scanner::new(line);
    let (mut kind, mut data) = (None, Data::default());
    scanner.object(|scanner, key| match &*key {
        "type" => {
            kind = Some(scanner.string()?);
            Some(())
        }
        "data" => data.read(scanner),
        _ => scanner.skip_value(),
    })?;
    if !scanner.at_end() {
        return None;
    }
    let path = data.path.unwrap_or_default();
    Some(match kind?.as_ref() {
        kind @ ("match" | "context") => Some(Event::Line {
            path,
            number: data.line_number,
            text: data.lines.unwrap_or_default(),
            is_match: kind == "match",
            first_match: data.first_match.and_then(|at| usize::try_from(at).ok()),
        }),
        "end" => Some(Event::FileEnd {
            path,
            matched_lines: data.matched_lines.unwrap_or(0),
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
                is_match: true,
                first_match: None
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
    fn escapes_are_decoded_and_what_is_unused_is_stepped_over() {
        let matched = r#"{"type":"match","data":{"path":{"text":"a \"q\".rs"},"lines":{"text":"x = \"]}\";\n"},"line_number":7,"absolute_offset":0,"submatches":[{"match":{"text":"\"]}\""},"start":4,"end":8}]}}"#;
        assert_eq!(
            parse(matched),
            Ok(Some(Event::Line {
                path: "a \"q\".rs".into(),
                number: Some(7),
                text: "x = \"]}\";\n".into(),
                is_match: true,
                first_match: Some(4)
            }))
        );
        let unnumbered = r#"{"type":"context","data":{"path":{"text":"a"},"lines":{"text":"x"},"line_number":null}}"#;
        assert!(matches!(parse(unnumbered), Ok(Some(Event::Line { number: None, .. }))));
    }

    #[test]
    fn garbage_is_an_error() {
        for garbage in [
            "not json",
            r#"{"type":"match","data":{"#,
            r#"{"type":"end"} trailing"#,
            r#"{"data":{}}"#,
        ] {
            assert!(parse(garbage).is_err(), "{garbage}");
        }
    }
}
