//! The stdio connection: one JSON-RPC message per line each way.
//!
//! What rmcp's own line transport leaves unanswered or answers without the id is answered
//! here, so that no client waits forever on a request:
//! - a request that is JSON but not a message seam knows (a `method` that is no string, a
//!   batch) gets -32600 under its own id;
//! - a string holding a lone UTF-16 surrogate escape (`"\ud83d"`, as JavaScript writes a cut
//!   emoji) is read with U+FFFD in its place, as such a string becomes when written as UTF-8,
//!   instead of being dropped as unparsable.
//!
//! Text that is not JSON has no id to answer and is skipped, as the MCP SDKs do.

use rmcp::model::ClientJsonRpcMessage;
use rmcp::service::{RoleServer, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{Value, json};
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

pub struct Lines<R, W> {
    read: BufReader<R>,
    /// The line being read: it survives a `receive` dropped mid-line (the service polls it in
    /// a `select!`).
    line: Vec<u8>,
    /// Skipping the rest of a line found too long.
    discarding: bool,
    max_line: usize,
    write: Arc<Mutex<W>>,
}

impl<R: AsyncRead + Unpin, W: AsyncWrite + Unpin> Lines<R, W> {
    /// Lines longer than `max_line` bytes are dropped unread (they cannot be answered: their id
    /// is not known).
    pub fn new(read: R, write: W, max_line: usize) -> Self {
        Self {
            read: BufReader::new(read),
            line: Vec::new(),
            discarding: false,
            max_line,
            write: Arc::new(Mutex::new(write)),
        }
    }

    /// Reads up to the next line end into `self.line`, never past `max_line`. Cancel-safe:
    /// bytes move from the reader's buffer to the line with no await in between.
    async fn read_line(&mut self) -> std::io::Result<Read> {
        loop {
            let available = self.read.fill_buf().await?;
            if available.is_empty() {
                return Ok(Read::End);
            }
            let end = available.iter().position(|&b| b == b'\n');
            let take = end.map_or(available.len(), |at| at + 1);
            let outcome = if self.discarding {
                self.discarding = end.is_none();
                None
            } else if self.line.len() + take > self.max_line {
                self.line.clear();
                self.discarding = end.is_none();
                Some(Read::TooLong)
            } else {
                self.line.extend_from_slice(&available[..take]);
                end.map(|_| Read::Line)
            };
            self.read.consume(take);
            if let Some(outcome) = outcome {
                return Ok(outcome);
            }
        }
    }
}

enum Read {
    Line,
    TooLong,
    End,
}

/// What a line read asks for.
enum Parsed {
    Message(Box<ClientJsonRpcMessage>),
    Answer(Value),
    Skip,
}

impl<R, W> Transport<RoleServer> for Lines<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        write_line(self.write.clone(), serde_json::to_vec(&item))
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            match self.read_line().await {
                Ok(Read::Line) => {}
                Ok(Read::TooLong) => {
                    tracing::error!(
                        max_bytes = self.max_line,
                        "a message longer than seam reads was dropped"
                    );
                    continue;
                }
                Ok(Read::End) => return None,
                Err(error) => {
                    tracing::error!(%error, "reading the client's messages failed");
                    return None;
                }
            }
            let parsed = parse(&mut self.line);
            self.line.clear();
            match parsed {
                Parsed::Message(message) => return Some(*message),
                // Written apart from this read, which may be dropped before a write ends.
                Parsed::Answer(answer) => drop(tokio::spawn(write_line(
                    self.write.clone(),
                    serde_json::to_vec(&answer),
                ))),
                Parsed::Skip => {}
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.write.lock().await.shutdown().await
    }
}

/// Writes one message and its line end, whole: the lock keeps concurrent sends apart.
async fn write_line<W: AsyncWrite + Unpin>(
    write: Arc<Mutex<W>>,
    message: serde_json::Result<Vec<u8>>,
) -> std::io::Result<()> {
    let mut line = message?;
    line.push(b'\n');
    let mut write = write.lock().await;
    write.write_all(&line).await?;
    write.flush().await
}

fn parse(line: &mut [u8]) -> Parsed {
    let end = line.len() - usize::from(line.ends_with(b"\n"));
    let end = end - usize::from(line[..end].ends_with(b"\r"));
    let start = if line[..end].starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    let line = &mut line[start..end];
    if line.is_empty() {
        return Parsed::Skip;
    }
    let error = match serde_json::from_slice::<ClientJsonRpcMessage>(line) {
        Ok(message) => return Parsed::Message(Box::new(message)),
        Err(error) => error,
    };
    let value = match serde_json::from_slice::<Value>(line) {
        Ok(value) => value,
        Err(_) if mend_lone_surrogates(line) => return parse(line),
        Err(_) => {
            tracing::debug!(%error, "skipped a line that is not JSON");
            return Parsed::Skip;
        }
    };
    let id = value.get("id").filter(|id| id.is_string() || id.is_i64());
    // A notification asks for no answer, not even about itself.
    if id.is_none() && value.get("method").is_some() {
        tracing::debug!(%error, "skipped a notification seam does not know");
        return Parsed::Skip;
    }
    let mut answer =
        json!({"jsonrpc": "2.0", "error": {"code": -32600, "message": format!("invalid request: {error}")}});
    if let Some(id) = id {
        answer["id"] = id.clone();
    }
    Parsed::Answer(answer)
}

/// Replaces each `\u` escape of a UTF-16 surrogate without its other half by `\uFFFD`, in
/// place (the same length). Returns whether one was found.
fn mend_lone_surrogates(json: &mut [u8]) -> bool {
    let unit = |json: &[u8], at: usize| {
        let hex = json.get(at..at + 6).filter(|e| e.starts_with(b"\\u"))?;
        u16::from_str_radix(std::str::from_utf8(&hex[2..]).ok()?, 16).ok()
    };
    let (high, low) = (0xD800..0xDC00, 0xDC00..0xE000);
    let (mut at, mut in_string, mut mended) = (0, false, false);
    while at < json.len() {
        match json[at] {
            b'"' => in_string = !in_string,
            b'\\' if in_string => {
                let Some(first) = unit(json, at) else {
                    // Any other escape: the escaped byte is no quote or backslash of its own.
                    at += 2;
                    continue;
                };
                if high.contains(&first) && unit(json, at + 6).is_some_and(|second| low.contains(&second)) {
                    at += 12;
                    continue;
                }
                if high.contains(&first) || low.contains(&first) {
                    json[at + 2..at + 6].copy_from_slice(b"FFFD");
                    mended = true;
                }
                at += 6;
                continue;
            }
            _ => {}
        }
        at += 1;
    }
    mended
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mended(json: &str) -> (String, bool) {
        let mut bytes = json.as_bytes().to_vec();
        let found = mend_lone_surrogates(&mut bytes);
        (String::from_utf8(bytes).unwrap_or_default(), found)
    }

    #[test]
    fn a_lone_surrogate_becomes_the_replacement_character_and_a_pair_stays() {
        assert_eq!(mended(r#"["\ud83d", "x"]"#), (r#"["\uFFFD", "x"]"#.to_owned(), true));
        assert_eq!(mended(r#"["\ude00\ud83d"]"#), (r#"["\uFFFD\uFFFD"]"#.to_owned(), true));
        assert_eq!(mended(r#"["\ud83d\ude00"]"#), (r#"["\ud83d\ude00"]"#.to_owned(), false));
        // An escaped backslash before `u` is no escape of a unit.
        assert_eq!(mended(r#"["\\ud83d"]"#), (r#"["\\ud83d"]"#.to_owned(), false));
    }

    #[test]
    fn a_request_seam_cannot_read_is_answered_under_its_id() {
        let answer = |line: &str| match parse(&mut line.as_bytes().to_vec()) {
            Parsed::Answer(answer) => Some(answer),
            _ => None,
        };
        let shapeless = answer(r#"{"jsonrpc": "2.0", "id": 6, "method": 7}"#).unwrap_or_default();
        assert_eq!(
            (shapeless["id"].as_i64(), shapeless["error"]["code"].as_i64()),
            (Some(6), Some(-32600))
        );
        let batch = answer(r#"[{"jsonrpc": "2.0", "id": 9, "method": "ping"}]"#).unwrap_or_default();
        assert!(batch.get("id").is_none() && batch["error"]["code"] == -32600, "{batch}");
        assert!(
            answer(r#"{"jsonrpc": "2.0", "method": 7}"#).is_none(),
            "a notification is not answered"
        );
        assert!(answer("{ not json").is_none());
    }
}
