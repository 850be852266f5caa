//! seam:host/config for providers and seam:tool/context for tools: settings from the world
//! file, and the call's progress and cancellation.

use super::bindings::natives::seam::host::config;
use super::bindings::tool::seam::tool::context;
use crate::lane::{Lane, Progress};
use wasmtime::Result;

impl config::Host for Lane {
    fn get(&mut self) -> Result<String> {
        Ok(self.linked.nodes[self.current()].config.clone())
    }

    fn settings(&mut self) -> Result<config::WorldSettings> {
        Ok(self.linked.settings.clone())
    }
}

impl context::Host for Lane {
    fn progress(&mut self, done: f64, total: Option<f64>, message: Option<String>) -> Result<()> {
        if let Some(sink) = &self.call.progress {
            sink(Progress { done, total, message });
        }
        Ok(())
    }

    fn cancelled(&mut self) -> Result<bool> {
        Ok(self.call.is_cancelled())
    }

    fn config(&mut self) -> Result<String> {
        Ok(self.linked.nodes[self.current()].config.clone())
    }

    fn home(&mut self) -> Result<Option<String>> {
        // $HOME, else the password database; a home that is not absolute UTF-8 is none.
        Ok(std::env::home_dir()
            .filter(|home| home.is_absolute())
            .and_then(|home| home.into_os_string().into_string().ok()))
    }
}
