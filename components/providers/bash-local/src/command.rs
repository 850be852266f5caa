//! The spawn of `bash -c <command>` for a spec: argv, environment and stdio, shared by every
//! bash executor (bash-local spawns it as is, bash-sandbox confines the argv first).

use crate::bindings::exports::seam::shell::shell::Spec;
use crate::bindings::seam::subprocess::types::{Collect, Input, Output, SpawnSpec};

/// Set for every command, over the caller's env: output meant for a model, not a terminal.
const ENV_OVERRIDES: [(&str, &str); 4] = [
    ("NO_COLOR", "1"),
    ("TERM", "dumb"),
    ("PAGER", "cat"),
    ("GIT_PAGER", "cat"),
];

/// A fresh non-login, non-interactive bash for this one command.
pub fn bash_argv(bash: String, spec: &Spec) -> Vec<String> {
    vec![bash, "-c".to_owned(), spec.command.clone()]
}

pub fn spawn_spec(spec: &Spec, argv: Vec<String>, env: Vec<(String, String)>) -> SpawnSpec {
    SpawnSpec {
        argv,
        cwd: spec.cwd.clone(),
        env,
        // A command that reads stdin sees EOF at once instead of hanging until the timeout.
        stdin: Input::Null,
        // The budget bounds what the caller is shown, split between the two ends: the start
        // says what ran, the end how it finished.
        stdout: Output::Collect(Collect {
            tail_bytes: spec.max_output_bytes - spec.max_output_bytes / 2,
            head_bytes: spec.max_output_bytes / 2,
            spill: (spec.max_spill_bytes > 0).then_some(spec.max_spill_bytes),
        }),
        stderr: Output::Merge,
        grace_ms: spec.grace_ms,
        // The command's files in /tmp are the user's, kept after it ends.
        private_tmp: false,
    }
}

/// The caller's env with the overrides applied; an override always wins.
pub fn command_env(env: &[(String, String)]) -> Vec<(String, String)> {
    let is_overridden = |name: &str| ENV_OVERRIDES.iter().any(|(overridden, _)| *overridden == name);
    env.iter()
        .filter(|(name, _)| !is_overridden(name))
        .cloned()
        .chain(
            ENV_OVERRIDES
                .iter()
                .map(|(name, value)| ((*name).to_owned(), (*value).to_owned())),
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::exports::seam::shell::shell::Request;
    use crate::config::Config;
    use crate::spec;

    fn vars(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect()
    }

    fn spec_for(command: &str, config: &Config) -> Option<Spec> {
        let request = Request {
            command: command.into(),
            cwd: "/work".into(),
            timeout_ms: None,
            env: vec![],
            sandbox: None,
        };
        spec::resolve(request, config).ok()
    }

    #[test]
    fn overrides_win_over_the_callers_env() {
        let env = command_env(&vars(&[("TERM", "xterm"), ("LANG", "C"), ("PAGER", "less")]));
        let expected = vars(&[
            ("LANG", "C"),
            ("NO_COLOR", "1"),
            ("TERM", "dumb"),
            ("PAGER", "cat"),
            ("GIT_PAGER", "cat"),
        ]);
        assert_eq!(env, expected);
    }

    #[test]
    fn runs_the_command_as_one_argument_of_bash_c() {
        let config = Config::default();
        let Some(spec) = spec_for("echo 'a b' | wc -c", &config) else {
            panic!("valid request refused");
        };
        let spawn = spawn_spec(&spec, bash_argv("/usr/bin/bash".into(), &spec), vec![]);
        assert_eq!(spawn.argv, ["/usr/bin/bash", "-c", "echo 'a b' | wc -c"]);
        assert_eq!(spawn.cwd, "/work");
        assert_eq!(spawn.grace_ms, config.grace_ms);
        assert!(matches!(spawn.stdin, Input::Null));
        assert!(matches!(spawn.stderr, Output::Merge));
        let Output::Collect(collect) = spawn.stdout else {
            panic!("stdout is not collected")
        };
        assert_eq!(
            (collect.tail_bytes, collect.head_bytes, collect.spill),
            (32_768, 32_768, Some(67_108_864))
        );
    }

    #[test]
    fn zero_spill_budget_disables_the_spill() {
        let config = Config {
            max_spill_bytes: 0,
            ..Config::default()
        };
        let Some(spec) = spec_for("true", &config) else {
            panic!("valid request refused")
        };
        let Output::Collect(collect) = spawn_spec(&spec, bash_argv("/bin/bash".into(), &spec), vec![]).stdout else {
            panic!("stdout is not collected");
        };
        assert_eq!(collect.spill, None);
    }
}
