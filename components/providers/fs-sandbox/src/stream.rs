//! Streams are reads: the inner provider's stream, passed through.

use crate::bindings::exports::seam::fs::fs::GuestTextStream;
use crate::bindings::seam::fs::fs as inner;
use crate::bindings::seam::fs::types::Error;

pub struct PassStream(pub inner::TextStream);

impl GuestTextStream for PassStream {
    fn version(&self) -> String {
        self.0.version()
    }

    fn read(&self, max_bytes: u32) -> Result<Option<String>, Error> {
        self.0.read(max_bytes)
    }
}
