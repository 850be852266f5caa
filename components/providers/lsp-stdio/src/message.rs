//! JSON-RPC messages as they cross the pipes. Outgoing ones are written straight from typed
//! parts (a document's text is never copied into a JSON tree first); incoming ones are split
//! into raw members and only the members dispatch needs are decoded, so notifications no one
//! reads (diagnostics, logs) are checked for syntax but never built into values.

use std::borrow::Cow;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

#[derive(Serialize)]
struct Outgoing<'a, P> {
    jsonrpc: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<u64>,
    method: &'a str,
    params: P,
}

/// A request body.
pub fn request<P: Serialize>(id: u64, method: &str, params: P) -> String {
    encode(Some(id), method, params)
}

/// A notification body.
pub fn notification<P: Serialize>(method: &str, params: P) -> String {
    encode(None, method, params)
}

fn encode<P: Serialize>(id: Option<u64>, method: &str, params: P) -> String {
    let message = Outgoing {
        jsonrpc: "2.0",
        id,
        method,
        params,
    };
    serde_json::to_string(&message).expect("a message with string keys serializes")
}

/// One message from the server, its members left raw. A member that is present is `Some` even
/// when it is `null` (a response to an unparseable request has `"id": null`).
#[derive(Deserialize)]
pub struct Incoming<'a> {
    #[serde(default, borrow, deserialize_with = "present")]
    pub id: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    method: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    params: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    result: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    pub error: Option<&'a RawValue>,
}

fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(deserializer).map(Some)
}

impl<'a> Incoming<'a> {
    /// Split a frame body; Err when it is not a JSON object.
    pub fn parse(frame: &'a [u8]) -> Result<Self, String> {
        // A derived struct would also accept an array of its members.
        if frame.trim_ascii_start().first() != Some(&b'{') {
            return Err("a message that is not a JSON object".into());
        }
        serde_json::from_slice(frame).map_err(|e| format!("invalid JSON: {e}"))
    }

    /// The method when it is a string.
    pub fn method(&self) -> Option<Cow<'a, str>> {
        let raw = self.method?.get();
        // Method names are plain ASCII: taken from the frame without decoding when unescaped.
        match raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
            Some(plain) if !plain.contains('\\') => Some(Cow::Borrowed(plain)),
            _ => serde_json::from_str::<String>(raw).ok().map(Cow::Owned),
        }
    }

    /// `params` decoded; null when absent.
    pub fn params(&self) -> Value {
        decode(self.params)
    }

    /// `result` decoded; null when absent.
    pub fn result(&self) -> Value {
        decode(self.result)
    }

    /// The id of a response, when it is a whole number.
    pub fn numeric_id(&self) -> Option<u64> {
        self.id?.get().parse().ok()
    }
}

fn decode(raw: Option<&RawValue>) -> Value {
    // The frame was parsed whole already: every raw member is valid JSON.
    raw.and_then(|r| serde_json::from_str(r.get()).ok())
        .unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_are_present_even_when_null() {
        let m = Incoming::parse(br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#).unwrap();
        assert!(m.id.is_some() && m.error.is_some() && m.method().is_none());
        assert_eq!(m.numeric_id(), None);
        let m = Incoming::parse(br#"{"id":7,"result":null}"#).unwrap();
        assert_eq!((m.numeric_id(), m.result()), (Some(7), Value::Null));
        let m = Incoming::parse(br#"{"id":"7","result":{"a":[1]}}"#).unwrap();
        assert_eq!((m.numeric_id(), m.result()), (None, serde_json::json!({"a": [1]})));
    }

    #[test]
    fn methods_and_params_are_decoded_on_demand() {
        let m = Incoming::parse(br#"{"method":"$/progress","params":{"token":1}}"#).unwrap();
        assert_eq!(m.method().as_deref(), Some("$/progress"));
        assert_eq!(m.params(), serde_json::json!({"token": 1}));
        let escaped = Incoming::parse(br#"{"method":"a\/b"}"#).unwrap();
        assert_eq!(escaped.method().as_deref(), Some("a/b"));
        assert_eq!(escaped.params(), Value::Null);
        let number = Incoming::parse(br#"{"method":3}"#).unwrap();
        assert_eq!(number.method(), None);
    }

    #[test]
    fn broken_json_and_non_objects_are_refused() {
        assert!(Incoming::parse(br#"{"method":"x","params":{"#).is_err());
        assert!(Incoming::parse(b"[1, 2, 3, 4, 5]").is_err());
        assert!(Incoming::parse(b" {}").is_ok());
    }

    #[test]
    fn outgoing_messages_carry_text_exactly() {
        let text = "é😀 \"quoted\"\n";
        let body = notification("textDocument/didOpen", serde_json::json!({"text": text}));
        let back: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(back["params"]["text"], text);
        assert!(back.get("id").is_none());
        let back: Value = serde_json::from_str(&request(4, "m", Value::Null)).unwrap();
        assert_eq!((back["id"].as_u64(), back["jsonrpc"].as_str()), (Some(4), Some("2.0")));
    }
}
