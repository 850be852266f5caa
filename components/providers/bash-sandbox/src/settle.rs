//! Settling a confined run with its runner's own facts: a runner that could not start or apply
//! its profile is an infrastructure error; a denial is a result fact (`denied`); anything else
//! is the command's own result.

use crate::bindings::exports::seam::shell::shell::{Error, RunResult};
use crate::bindings::seam::sandbox::sandbox::Confined;

pub fn settle(confined: &Confined, mut result: RunResult) -> Result<RunResult, Error> {
    let text = format!("{}\n{}", result.output.head, result.output.tail).to_lowercase();
    let failed = result.exit_code != Some(0);
    let runner_failed = failed
        && confined.runner_failure_rules.iter().any(|rule| {
            let fatal = rule.fatal_stderr.to_lowercase();
            let gated = rule.exit_codes.is_empty() || result.exit_code.is_some_and(|c| rule.exit_codes.contains(&c));
            gated && text.lines().any(|line| line.contains(&fatal))
        });
    if runner_failed {
        return Err(Error {
            code: "SANDBOX_RUNNER_FAILED".into(),
            message: format!(
                "the {} sandbox runner could not run the command: {}",
                confined.runner,
                result.output.tail.trim()
            ),
        });
    }
    // What was found running after such a runner's command ended is the runner's own.
    if confined.ends_leftovers {
        result.left_running = 0;
    }
    result.denied = failed
        && confined
            .denial_signatures
            .iter()
            .any(|s| text.contains(&s.to_lowercase()));
    Ok(result)
}
