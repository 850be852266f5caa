//! Executable resolution: an absolute path or a bare name on PATH, never a path relative to
//! some working directory.

use crate::bindings::seam::subprocess::types::Error;
use crate::errors;

/// Resolve `command` to an absolute executable path, searching PATH of `env` (the final
/// environment of the spawn) for a bare name. `first_executable` says which of its candidates
/// (in order) is the first executable file.
pub fn executable(
    command: &str,
    env: &[(String, String)],
    first_executable: impl Fn(&[String]) -> Option<usize>,
) -> Result<String, Error> {
    if command.is_empty() {
        return Err(errors::invalid_command("the command is empty"));
    }
    if command.starts_with('/') {
        let candidates = [command.to_owned()];
        return match first_executable(&candidates) {
            Some(_) => Ok(command.to_owned()),
            None => Err(errors::not_found(format!("{command} is not an executable file"))),
        };
    }
    if command.contains('/') {
        return Err(errors::invalid_command(format!(
            "{command} is a relative path; give an absolute path or a bare name found on PATH"
        )));
    }
    let Some((_, path)) = env.iter().find(|(name, _)| name == "PATH") else {
        return Err(errors::not_found(format!("{command} not found: PATH is not set")));
    };
    let candidates: Vec<String> = path
        .split(':')
        // Empty and relative entries would resolve against the working directory.
        .filter(|dir| dir.starts_with('/'))
        .map(|dir| format!("{}/{command}", dir.trim_end_matches('/')))
        .collect();
    first_executable(&candidates)
        .and_then(|index| candidates.into_iter().nth(index))
        .ok_or_else(|| errors::not_found(format!("{command} not found on PATH ({path})")))
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXECUTABLES: [&str; 3] = ["/usr/bin/bash", "/bin/ls", "/opt/tools/ls"];

    /// The first candidate that is one of `EXECUTABLES`.
    fn on_disk(candidates: &[String]) -> Option<usize> {
        candidates.iter().position(|path| EXECUTABLES.contains(&path.as_str()))
    }

    fn env(path: &str) -> Vec<(String, String)> {
        vec![("PATH".into(), path.into())]
    }

    fn code(result: Result<String, Error>) -> String {
        result.map_or_else(|error| error.code, |path| format!("resolved {path}"))
    }

    #[test]
    fn verifies_absolute_paths() {
        assert_eq!(
            executable("/usr/bin/bash", &[], on_disk).ok().as_deref(),
            Some("/usr/bin/bash")
        );
        assert_eq!(code(executable("/usr/bin/nope", &[], on_disk)), "SUBPROCESS_NOT_FOUND");
    }

    #[test]
    fn searches_path_in_order() {
        let found = executable("ls", &env("/nowhere:/opt/tools/:/bin"), on_disk);
        assert_eq!(found.ok().as_deref(), Some("/opt/tools/ls"));
    }

    #[test]
    fn skips_relative_path_entries() {
        // Every relative candidate "exists": only the absolute entry may be chosen.
        let found = executable("ls", &env(":.:bin:/bin"), |candidates| {
            candidates
                .iter()
                .position(|path| !path.starts_with('/') || EXECUTABLES.contains(&path.as_str()))
        });
        assert_eq!(found.ok().as_deref(), Some("/bin/ls"));
    }

    #[test]
    fn refuses_relative_paths_and_empty_commands() {
        assert_eq!(
            code(executable("./ls", &env("/bin"), on_disk)),
            "SUBPROCESS_INVALID_COMMAND"
        );
        assert_eq!(
            code(executable("bin/ls", &env("/"), on_disk)),
            "SUBPROCESS_INVALID_COMMAND"
        );
        assert_eq!(
            code(executable("", &env("/bin"), on_disk)),
            "SUBPROCESS_INVALID_COMMAND"
        );
    }

    #[test]
    fn reports_missing_commands() {
        assert_eq!(code(executable("nope", &env("/bin"), on_disk)), "SUBPROCESS_NOT_FOUND");
        assert_eq!(code(executable("ls", &[], on_disk)), "SUBPROCESS_NOT_FOUND");
    }
}
