//! What the server says about its own work, so a query waits for a real answer instead of
//! asking a server that is still indexing: open work-done progress tokens and, for servers
//! that send it (rust-analyzer), `experimental/serverStatus`'s `quiescent`.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activity {
    /// Progress tokens begun and not yet ended.
    open: BTreeSet<String>,
    /// The last `quiescent` of `experimental/serverStatus`; none when the server never sent it.
    quiescent: Option<bool>,
    /// Wall-clock millisecond since which the server has been idle, none while it works.
    pub idle_since_ms: Option<u64>,
}

impl Activity {
    /// True for the notifications [`observe`](Self::observe) accounts for.
    pub fn watches(method: &str) -> bool {
        matches!(method, "$/progress" | "experimental/serverStatus")
    }

    /// Account for one notification from the server.
    pub fn observe(&mut self, method: &str, params: &Value, now_ms: u64) {
        match method {
            "$/progress" => {
                let token = params.get("token").map(Value::to_string).unwrap_or_default();
                match params.pointer("/value/kind").and_then(Value::as_str) {
                    Some("begin") => {
                        self.open.insert(token);
                    }
                    Some("end") => {
                        self.open.remove(&token);
                    }
                    _ => {}
                }
            }
            "experimental/serverStatus" => {
                self.quiescent = params.get("quiescent").and_then(Value::as_bool);
            }
            _ => return,
        }
        self.idle_since_ms = match (self.busy(), self.idle_since_ms) {
            (true, _) => None,
            (false, Some(since)) => Some(since),
            (false, None) => Some(now_ms),
        };
    }

    pub fn busy(&self) -> bool {
        !self.open.is_empty() || self.quiescent == Some(false)
    }

    /// Called when the connection starts: idle until the server says otherwise.
    pub fn started(now_ms: u64) -> Self {
        Self {
            idle_since_ms: Some(now_ms),
            ..Self::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn progress_and_server_status_make_a_server_busy() {
        let mut activity = Activity::started(0);
        assert!(!activity.busy());
        activity.observe("$/progress", &json!({"token": "idx", "value": {"kind": "begin"}}), 1);
        activity.observe("experimental/serverStatus", &json!({"quiescent": false}), 2);
        assert!(activity.busy() && activity.idle_since_ms.is_none());
        activity.observe("$/progress", &json!({"token": "idx", "value": {"kind": "end"}}), 3);
        assert!(activity.busy(), "still not quiescent");
        activity.observe("experimental/serverStatus", &json!({"quiescent": true}), 4);
        assert!(!activity.busy());
        assert_eq!(activity.idle_since_ms, Some(4));
        activity.observe("window/logMessage", &json!({}), 9);
        assert_eq!(activity.idle_since_ms, Some(4));
    }

    #[test]
    fn numeric_and_string_tokens_are_distinct() {
        let mut activity = Activity::started(0);
        activity.observe("$/progress", &json!({"token": 1, "value": {"kind": "begin"}}), 1);
        activity.observe("$/progress", &json!({"token": "1", "value": {"kind": "end"}}), 2);
        assert!(activity.busy());
    }
}
