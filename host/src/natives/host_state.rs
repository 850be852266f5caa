//! seam:host/state: the calling provider's own namespace of the host's state store.

use super::bindings::natives::seam::host::state::Host;
use crate::lane::Lane;
use wasmtime::Result;

impl Lane {
    fn state_space(&self) -> String {
        self.linked.state_space(self.current())
    }
}

impl Host for Lane {
    fn get(&mut self, key: String) -> Result<Option<Vec<u8>>> {
        Ok(self.linked.host.state.get(&self.state_space(), &key))
    }

    fn set(&mut self, key: String, value: Vec<u8>) -> Result<()> {
        self.linked.host.state.set(&self.state_space(), &key, value);
        Ok(())
    }

    fn delete(&mut self, key: String) -> Result<bool> {
        Ok(self.linked.host.state.delete(&self.state_space(), &key))
    }

    fn keys(&mut self, prefix: String) -> Result<Vec<String>> {
        Ok(self.linked.host.state.keys(&self.state_space(), &prefix))
    }

    fn compare_and_swap(&mut self, key: String, expected: Option<Vec<u8>>, value: Option<Vec<u8>>) -> Result<bool> {
        let space = self.state_space();
        Ok(self
            .linked
            .host
            .state
            .compare_and_swap(&space, &key, expected.as_deref(), value))
    }

    fn wait_change(&mut self, key: String, seen: Option<Vec<u8>>, timeout_ms: u32) -> Result<Option<Vec<u8>>> {
        let (space, host) = (self.state_space(), self.linked.host.clone());
        let timeout = std::time::Duration::from_millis(timeout_ms.into());
        Ok(self.blocking(|| host.state.wait_change(&space, &key, seen.as_deref(), timeout)))
    }
}
