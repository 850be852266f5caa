//! What the registry remembers of a job, and how an ended process becomes a job state. Pure:
//! the registry stores these records as JSON in seam:host/state.

use serde::{Deserialize, Serialize};

use crate::bindings::exports::seam::jobs::jobs::{JobInfo, State, Watch as WitWatch};

/// The watched process, by the durable id of the seam that started it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Watch {
    Shell(u64),
    Subprocess(u64),
}

impl From<WitWatch> for Watch {
    fn from(watch: WitWatch) -> Self {
        match watch {
            WitWatch::Shell(id) => Self::Shell(id),
            WitWatch::Subprocess(id) => Self::Subprocess(id),
        }
    }
}

/// How a job ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    Done,
    Failed,
    Killed,
}

/// How the watched process ended, as its seam reported it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exit {
    pub exit_code: Option<i32>,
    /// Ended by a terminate of this registry (it was still running when asked).
    pub killed: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ended {
    pub ending: Ending,
    pub exit_code: Option<i32>,
    pub at_ms: u64,
}

impl Ended {
    /// Killed wins over any status the termination produced; otherwise only exit 0 is done.
    pub fn from_exit(exit: Exit, at_ms: u64) -> Self {
        let ending = match (exit.killed, exit.exit_code) {
            (true, _) => Ending::Killed,
            (false, Some(0)) => Ending::Done,
            (false, _) => Ending::Failed,
        };
        Self {
            ending,
            exit_code: exit.exit_code,
            at_ms,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub kind: String,
    pub label: String,
    pub owner: String,
    pub command: Option<String>,
    pub watch: Watch,
    pub started_ms: u64,
    /// None while running (as far as the registry has seen).
    pub ended: Option<Ended>,
}

impl Record {
    pub fn info(&self, id: &str) -> JobInfo {
        JobInfo {
            id: id.to_owned(),
            kind: self.kind.clone(),
            label: self.label.clone(),
            owner: self.owner.clone(),
            command: self.command.clone(),
            state: match self.ended.map(|e| e.ending) {
                None => State::Running,
                Some(Ending::Done) => State::Done,
                Some(Ending::Failed) => State::Failed,
                Some(Ending::Killed) => State::Killed,
            },
            exit_code: self.ended.and_then(|e| e.exit_code),
            started_ms: self.started_ms,
            ended_ms: self.ended.map(|e| e.at_ms),
        }
    }
}

/// `job-N` ordered by N (ids compare as numbers, not text: job-10 comes after job-9).
pub fn number(id: &str) -> u64 {
    id.strip_prefix("job-").and_then(|n| n.parse().ok()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exit(exit_code: Option<i32>, killed: bool) -> Ending {
        Ended::from_exit(Exit { exit_code, killed }, 7).ending
    }

    #[test]
    fn only_exit_zero_is_done_and_a_kill_is_a_kill_whatever_the_status() {
        assert_eq!(exit(Some(0), false), Ending::Done);
        assert_eq!(exit(Some(1), false), Ending::Failed);
        assert_eq!(exit(None, false), Ending::Failed, "a signal or a lost process");
        assert_eq!(exit(Some(143), true), Ending::Killed);
        assert_eq!(exit(Some(0), true), Ending::Killed);
    }

    #[test]
    fn records_round_trip_and_render_their_state() {
        let mut record = Record {
            kind: "bash".into(),
            label: "tests".into(),
            owner: "a".into(),
            command: Some("make test".into()),
            watch: Watch::Shell(4),
            started_ms: 1,
            ended: None,
        };
        let json = serde_json::to_vec(&record).unwrap_or_default();
        assert_eq!(serde_json::from_slice::<Record>(&json).ok().as_ref(), Some(&record));
        assert_eq!(record.info("job-1").state, State::Running);
        record.ended = Some(Ended::from_exit(
            Exit {
                exit_code: Some(2),
                killed: false,
            },
            9,
        ));
        let info = record.info("job-1");
        assert_eq!(
            (info.state, info.exit_code, info.ended_ms),
            (State::Failed, Some(2), Some(9))
        );
    }

    #[test]
    fn ids_sort_by_number() {
        let mut ids = ["job-10", "job-9", "job-1"];
        ids.sort_by_key(|id| number(id));
        assert_eq!(ids, ["job-1", "job-9", "job-10"]);
    }
}
