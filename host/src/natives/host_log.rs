//! seam:host/log: component logs become tracing events tagged with the component.

use super::bindings::natives::seam::host::log::{Host, Level};
use crate::lane::Lane;
use wasmtime::Result;

impl Host for Lane {
    fn log(&mut self, level: Level, message: String) -> Result<()> {
        let component = self.current_name();
        match level {
            Level::Trace => tracing::trace!(component, "{message}"),
            Level::Debug => tracing::debug!(component, "{message}"),
            Level::Info => tracing::info!(component, "{message}"),
            Level::Warn => tracing::warn!(component, "{message}"),
            Level::Error => tracing::error!(component, "{message}"),
        }
        Ok(())
    }
}
