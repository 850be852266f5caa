//! End notices: a successful result of tool-jobs or tool-bash ends with one line per job of the
//! agent that ended since it was last told (each job is told exactly once). Shared by path with
//! tool-bash, so both say it the same way.

use crate::bindings::seam::jobs::jobs::{self, JobInfo, State};

pub fn state(info: &JobInfo) -> String {
    match (info.state, info.exit_code) {
        (State::Running, _) => "running".to_owned(),
        (State::Done, _) => "done".to_owned(),
        (State::Failed, Some(code)) => format!("failed (exit code {code})"),
        // A signal ended it (a cancelled call's processes are terminated), or its end was lost.
        (State::Failed, None) => "failed (no exit code: ended by a signal)".to_owned(),
        (State::Killed, _) => "killed".to_owned(),
    }
}

fn lines(ended: &[JobInfo]) -> String {
    let line = |info: &JobInfo| {
        format!(
            "[background job {} ended: {}; read it with job_output]",
            info.id,
            state(info)
        )
    };
    ended.iter().map(line).collect::<Vec<_>>().join("\n")
}

/// `text` followed by the owner's end notices, if any.
pub fn append(owner: &str, text: String) -> String {
    match jobs::take_notices(owner) {
        Ok(ended) if !ended.is_empty() => format!("{text}\n{}", lines(&ended)),
        _ => text,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A job of `state` for rendering tests.
    pub(crate) fn info(state: State, exit_code: Option<i32>) -> JobInfo {
        JobInfo {
            id: "job-3".into(),
            kind: "bash".into(),
            label: "make".into(),
            owner: "a".into(),
            command: None,
            state,
            exit_code,
            started_ms: 0,
            ended_ms: Some(1),
        }
    }

    #[test]
    fn states_name_the_exit_code_of_a_failure() {
        assert_eq!(state(&info(State::Failed, Some(2))), "failed (exit code 2)");
        assert_eq!(state(&info(State::Done, Some(0))), "done");
    }

    #[test]
    fn one_line_per_ended_job() {
        assert_eq!(lines(&[]), "");
        assert_eq!(
            lines(&[info(State::Killed, None)]),
            "[background job job-3 ended: killed; read it with job_output]"
        );
    }
}
