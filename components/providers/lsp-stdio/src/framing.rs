//! LSP base protocol framing: `Content-Length: N\r\n\r\n` then N bytes of JSON. Pure, so the
//! bytes a lane did not consume can be carried to the next lane in host state.

/// Longest header block accepted before its blank line.
const MAX_HEADER_BYTES: usize = 8 * 1024;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrameError {
    /// A header block without a usable Content-Length, or longer than any real one.
    Malformed(String),
    /// A frame announced more bytes than the limit.
    TooLarge { announced: usize, limit: usize },
}

impl std::fmt::Display for FrameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Malformed(why) => write!(f, "malformed frame header: {why}"),
            Self::TooLarge { announced, limit } => {
                write!(f, "a frame of {announced} bytes exceeds the limit of {limit}")
            }
        }
    }
}

#[cfg(test)]
pub fn encode(body: &str) -> String {
    let mut wire = String::new();
    encode_into(&mut wire, body);
    wire
}

/// One message as it goes on the wire, appended to `wire` (the length counts the body's UTF-8
/// bytes).
pub fn encode_into(wire: &mut String, body: &str) {
    // Without `format!`: the formatting machinery is cold code in a lane's fresh instance.
    wire.push_str("Content-Length: ");
    seam_guest::text::push_decimal(wire, body.len() as u64, 0);
    wire.push_str("\r\n\r\n");
    wire.push_str(body);
}

/// Accumulates stream bytes and cuts them into frame bodies.
#[derive(Debug, Default)]
pub struct Decoder {
    buffer: Vec<u8>,
}

impl Decoder {
    /// Continue from bytes a previous reader left behind.
    pub fn with_carry(carry: Vec<u8>) -> Self {
        Self { buffer: carry }
    }

    pub fn push(&mut self, bytes: &[u8]) {
        self.buffer.extend_from_slice(bytes);
    }

    /// Bytes received but not yet cut into a frame.
    pub fn carry(&self) -> &[u8] {
        &self.buffer
    }

    /// Bytes still to come of the frame being received, when its header has arrived.
    pub fn missing(&self) -> Option<usize> {
        let end = find(&self.buffer, b"\r\n\r\n")?;
        let length = content_length(&self.buffer[..end]).ok()?;
        Some((end + 4 + length).saturating_sub(self.buffer.len()))
    }

    /// The next complete frame body, if one has fully arrived.
    pub fn next_frame(&mut self, max_body: usize) -> Result<Option<Vec<u8>>, FrameError> {
        let Some(end) = find(&self.buffer, b"\r\n\r\n") else {
            if self.buffer.len() > MAX_HEADER_BYTES {
                return Err(FrameError::Malformed("no end of headers".into()));
            }
            return Ok(None);
        };
        let length = content_length(&self.buffer[..end])?;
        if length > max_body {
            return Err(FrameError::TooLarge {
                announced: length,
                limit: max_body,
            });
        }
        let start = end + 4;
        if self.buffer.len() < start + length {
            return Ok(None);
        }
        let body = self.buffer[start..start + length].to_vec();
        self.buffer.drain(..start + length);
        Ok(Some(body))
    }
}

fn content_length(headers: &[u8]) -> Result<usize, FrameError> {
    let text = std::str::from_utf8(headers).map_err(|_| FrameError::Malformed("not ASCII".into()))?;
    for line in text.split("\r\n") {
        let Some((name, value)) = line.split_once(':') else {
            return Err(FrameError::Malformed(format!("header line {line:?}")));
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            return value
                .trim()
                .parse()
                .map_err(|_| FrameError::Malformed(format!("Content-Length {value:?}")));
        }
    }
    Err(FrameError::Malformed("no Content-Length".into()))
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_split_anywhere_are_reassembled() {
        let wire = [encode(r#"{"a":1}"#), encode("{\"é\":2}")].concat().into_bytes();
        for cut in 0..wire.len() {
            let mut decoder = Decoder::default();
            decoder.push(&wire[..cut]);
            let mut frames = Vec::new();
            while let Some(frame) = decoder.next_frame(1024).unwrap() {
                frames.push(frame);
            }
            decoder = Decoder::with_carry(decoder.carry().to_vec());
            decoder.push(&wire[cut..]);
            while let Some(frame) = decoder.next_frame(1024).unwrap() {
                frames.push(frame);
            }
            assert_eq!(
                frames,
                [br#"{"a":1}"#.to_vec(), "{\"é\":2}".as_bytes().to_vec()],
                "cut at {cut}"
            );
            assert!(decoder.carry().is_empty());
        }
        let mut decoder = Decoder::default();
        assert_eq!(decoder.missing(), None);
        decoder.push(b"Content-Length: 7\r\n\r\n{\"a\"");
        assert_eq!(decoder.missing(), Some(3));
    }

    #[test]
    fn other_headers_are_ignored_and_limits_hold() {
        let mut decoder = Decoder::default();
        decoder.push(b"Content-Type: application/vscode-jsonrpc\r\ncontent-length: 2\r\n\r\n{}");
        assert_eq!(decoder.next_frame(10).unwrap(), Some(b"{}".to_vec()));
        decoder.push(b"Content-Length: 11\r\n\r\n");
        assert_eq!(
            decoder.next_frame(10),
            Err(FrameError::TooLarge {
                announced: 11,
                limit: 10
            })
        );
        let mut garbage = Decoder::default();
        garbage.push(b"hello\r\n\r\n");
        assert!(matches!(garbage.next_frame(10), Err(FrameError::Malformed(_))));
        let mut endless = Decoder::default();
        endless.push(&[b'x'; MAX_HEADER_BYTES + 1]);
        assert!(matches!(endless.next_frame(10), Err(FrameError::Malformed(_))));
    }
}
