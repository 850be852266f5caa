//! The messages before a session starts. Its lifecycle begins with a request (`initialize`,
//! or one carrying its metadata inline); rmcp ends the session on anything else that comes
//! first. A notification then (`initialized` sent early, a stray `notifications/cancelled`)
//! asks for no answer, and a response answers nothing asked: both are dropped, as a server
//! drops notifications it cannot act on, and the session starts when its request comes.

use rmcp::model::{ClientJsonRpcMessage, ClientRequest, JsonRpcMessage};
use rmcp::service::{RoleServer, TxJsonRpcMessage};
use rmcp::transport::Transport;

pub struct Opening<T> {
    inner: T,
    started: bool,
}

impl<T> Opening<T> {
    pub fn new(inner: T) -> Self {
        Self { inner, started: false }
    }
}

impl<T: Transport<RoleServer>> Transport<RoleServer> for Opening<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            let message = self.inner.receive().await?;
            match &message {
                _ if self.started => return Some(message),
                JsonRpcMessage::Request(request) => {
                    // A ping may come first and is answered; the session starts after it.
                    self.started = !matches!(request.request, ClientRequest::PingRequest(_));
                    return Some(message);
                }
                _ => tracing::debug!(?message, "dropped: the session has not started"),
            }
        }
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}
