//! A forward-only reader of JSON text, for the hot paths where serde's generality costs: a
//! tool's arguments carrying a whole file, thousands of ripgrep records per search. The caller
//! reads the values it wants and steps over the rest; strings are borrowed unless they hold an
//! escape. Every read is None at the first thing that is not what was asked for: callers fall
//! back on serde_json where a message must say what is wrong.

mod string;

use std::borrow::Cow;

/// Nesting deeper than this is refused rather than followed (recursion in the guest's stack).
const MAX_DEPTH: u32 = 128;

pub struct Scanner<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Scanner<'a> {
    pub fn new(text: &'a str) -> Self {
        Self { text, at: 0 }
    }

    /// The next byte after white space, not taken.
    pub fn peek(&mut self) -> Option<u8> {
        let bytes = self.text.as_bytes();
        while matches!(bytes.get(self.at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
        bytes.get(self.at).copied()
    }

    /// Take `byte`, the next after white space.
    pub fn eat(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.at += 1)
    }

    /// Only white space is left.
    pub fn at_end(&mut self) -> bool {
        self.peek().is_none()
    }

    /// A string, borrowed from the text unless it holds an escape.
    pub fn string(&mut self) -> Option<Cow<'a, str>> {
        self.eat(b'"')?;
        let (text, used) = string::decode(self.text.get(self.at..)?)?;
        self.at += used;
        Some(text)
    }

    /// A non-negative integer.
    pub fn u64(&mut self) -> Option<u64> {
        self.peek()?;
        let rest = &self.text.as_bytes()[self.at..];
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let value = self.text[self.at..self.at + digits].parse().ok()?;
        self.at += digits;
        Some(value)
    }

    /// Take `null` when it is next.
    pub fn null(&mut self) -> bool {
        let found = self.peek().is_some() && self.text[self.at..].starts_with("null");
        if found {
            self.at += 4;
        }
        found
    }

    /// An object, each member's key handed to `member`, which reads (or skips) its value.
    pub fn object(&mut self, mut member: impl FnMut(&mut Self, Cow<'a, str>) -> Option<()>) -> Option<()> {
        self.eat(b'{')?;
        if self.eat(b'}').is_some() {
            return Some(());
        }
        loop {
            let key = self.string()?;
            self.eat(b':')?;
            member(self, key)?;
            if !self.more_before(b'}')? {
                return Some(());
            }
        }
    }

    /// After an element of an object or array: true past a comma (another follows), false past
    /// `close` (the end), None at anything else.
    fn more_before(&mut self, close: u8) -> Option<bool> {
        let next = self.peek()?;
        self.at += 1;
        match next {
            b',' => Some(true),
            _ if next == close => Some(false),
            _ => None,
        }
    }

    /// Step over one value of any kind: its structure is followed, but strings are not decoded
    /// and numbers and literals not checked.
    pub fn skip_value(&mut self) -> Option<()> {
        self.skip_nested(0)
    }

    fn skip_nested(&mut self, depth: u32) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.peek()? {
            b'"' => {
                self.at += 1 + string::skip(&self.text.as_bytes()[self.at + 1..])?;
                Some(())
            }
            b'{' => self.object(|scanner, _| scanner.skip_nested(depth + 1)),
            b'[' => {
                self.at += 1;
                if self.eat(b']').is_some() {
                    return Some(());
                }
                loop {
                    self.skip_nested(depth + 1)?;
                    if !self.more_before(b']')? {
                        return Some(());
                    }
                }
            }
            _ => {
                // A number or a literal: everything up to the next delimiter.
                let rest = &self.text.as_bytes()[self.at..];
                let length = rest
                    .iter()
                    .take_while(|b| !matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))
                    .count();
                (length > 0).then(|| self.at += length)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The members of an object of strings, as `(key, value)` pairs, when `text` is exactly one.
    fn strings(text: &str) -> Option<Vec<(String, String)>> {
        let mut scanner = Scanner::new(text);
        let mut members = Vec::new();
        scanner.object(|scanner, key| {
            members.push((key.into_owned(), scanner.string()?.into_owned()));
            Some(())
        })?;
        scanner.at_end().then_some(members)
    }

    fn pairs(members: &[(&str, &str)]) -> Option<Vec<(String, String)>> {
        Some(members.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect())
    }

    #[test]
    fn reads_objects_with_space_escapes_and_repeats() {
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
    fn refuses_what_was_not_asked_for_and_malformed_text() {
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

    #[test]
    fn skips_every_kind_of_value() {
        let text = r#"{"skip": [1, -2.5e3, true, null, "a\"]}", {"x": [[], {}]}, []], "n": 42, "z": null}"#;
        let mut scanner = Scanner::new(text);
        let (mut n, mut z) = (None, None);
        scanner
            .object(|scanner, key| match &*key {
                "n" => {
                    n = scanner.u64();
                    n.map(drop)
                }
                "z" => {
                    z = Some(scanner.null());
                    Some(())
                }
                _ => scanner.skip_value(),
            })
            .expect("well formed");
        assert!(scanner.at_end());
        assert_eq!((n, z), (Some(42), Some(true)));
        for broken in [r#"[1, 2"#, r#"{"a": [}"#, r#""open"#, r#"[,]"#] {
            assert_eq!(Scanner::new(broken).skip_value(), None, "{broken:?}");
        }
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert_eq!(Scanner::new(&deep).skip_value(), None);
    }
}
