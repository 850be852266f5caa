//! The client's end of stdin: when it closes, the calls still running are cancelled at once.
//! Without this, the session waits for their answers (which no one will read) before it sees
//! the client has gone, and a long command holds the server open.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, ReadBuf};

use super::Calls;

pub struct CancelOnEof<R> {
    inner: R,
    calls: Arc<Calls>,
}

impl<R> CancelOnEof<R> {
    pub fn new(inner: R, calls: Arc<Calls>) -> Self {
        Self { inner, calls }
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for CancelOnEof<R> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        // Ready with nothing read into room that was there is the end of the stream.
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() == before && buf.remaining() > 0 {
            self.calls.cancel_all();
        }
        polled
    }
}
