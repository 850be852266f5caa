//! The arguments of each terminal tool.

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Open {
    /// Absolute, or relative to the session's cwd; none: the session's cwd.
    pub cwd: Option<String>,
    pub rows: Option<u16>,
    pub cols: Option<u16>,
    pub shell: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Send {
    pub session_id: String,
    pub input: String,
    /// False: type `input` without pressing Enter.
    #[serde(default = "yes")]
    pub enter: bool,
    pub wait_ms: Option<u32>,
}

fn yes() -> bool {
    true
}

impl Send {
    /// What is typed: `input`, plus the Enter key unless it is there or was declined.
    pub fn typed(&self) -> String {
        if self.enter && !self.input.ends_with('\n') && !self.input.ends_with('\r') {
            format!("{}\n", self.input)
        } else {
            self.input.clone()
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Read {
    pub session_id: String,
    pub from_byte: Option<u64>,
    pub max_bytes: Option<u32>,
    /// The visible screen instead of the output stream.
    #[serde(default)]
    pub screen: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Signal {
    pub session_id: String,
    pub signal: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Close {
    pub session_id: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct List {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enter_is_pressed_once_unless_declined() {
        let send = |input: &str, enter| Send {
            session_id: "pty-1".into(),
            input: input.into(),
            enter,
            wait_ms: None,
        };
        assert_eq!(send("ls", true).typed(), "ls\n");
        assert_eq!(send("ls\n", true).typed(), "ls\n");
        assert_eq!(send("y", false).typed(), "y");
    }
}
