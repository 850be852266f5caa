//! A JSON object whose members are all strings, read in one pass with json_string.rs: the
//! shape of `write`'s arguments, whose content is the only large thing a tool call carries.
//! Anything else (another value type, a syntax error) is None, for the general decoder to
//! handle and explain.

use crate::json_string;

/// The members in order, duplicates kept.
pub fn strings(text: &str) -> Option<Vec<(String, String)>> {
    let mut at = skip_space(text, 0);
    at = expect(text, at, b'{')?;
    let mut members = Vec::new();
    if text.as_bytes().get(at) == Some(&b'}') {
        return end(text, at + 1).then_some(members);
    }
    loop {
        let (key, next) = literal(text, at)?;
        at = expect(text, next, b':')?;
        let (value, next) = literal(text, at)?;
        members.push((key, value));
        match text.as_bytes().get(next)? {
            b',' => at = skip_space(text, next + 1),
            b'}' => return end(text, next + 1).then_some(members),
            _ => return None,
        }
    }
}

/// The string literal at `at`, and where the text after it (and its spaces) starts.
fn literal(text: &str, at: usize) -> Option<(String, usize)> {
    if text.as_bytes().get(at) != Some(&b'"') {
        return None;
    }
    let (value, used) = json_string::decode(text.get(at + 1..)?)?;
    Some((value, skip_space(text, at + 1 + used)))
}

/// Past `byte` at `at` and the spaces after it.
fn expect(text: &str, at: usize, byte: u8) -> Option<usize> {
    (text.as_bytes().get(at) == Some(&byte)).then(|| skip_space(text, at + 1))
}

fn end(text: &str, at: usize) -> bool {
    skip_space(text, at) == text.len()
}

fn skip_space(text: &str, mut at: usize) -> usize {
    while matches!(text.as_bytes().get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(members: &[(&str, &str)]) -> Option<Vec<(String, String)>> {
        Some(members.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect())
    }

    #[test]
    fn reads_objects_of_strings() {
        assert_eq!(strings("{}"), pairs(&[]));
        assert_eq!(strings(" { } "), pairs(&[]));
        assert_eq!(
            strings("{\"a\":\"x\\ny\", \n\t\"b\" : \"\" }"),
            pairs(&[("a", "x\ny"), ("b", "")])
        );
        assert_eq!(strings(r#"{"a":"1","a":"2"}"#), pairs(&[("a", "1"), ("a", "2")]));
        assert_eq!(strings(r#"{"\u0061": "x"}"#), pairs(&[("a", "x")]));
        assert_eq!(strings(r#"{" a ": "  x  "}"#), pairs(&[(" a ", "  x  ")]));
    }

    #[test]
    fn leaves_everything_else_alone() {
        for text in [
            "",
            "[]",
            r#"{"a": 1}"#,
            r#"{"a": "x",}"#,
            r#"{"a": "x"} x"#,
            r#"{"a" "x"}"#,
            r#"{"a": "x""#,
            r#"{"a": null}"#,
        ] {
            assert_eq!(strings(text), None, "{text:?}");
        }
    }
}
