//! From a request to a fully explicit spec, and the checks every spec must pass.

use crate::bindings::exports::seam::shell::shell::{Error, Request, Spec};
use crate::config::Config;
use crate::errors;

/// Fill in the defaults from `config` and clamp the timeout to its maximum.
pub fn resolve(request: Request, config: &Config) -> Result<Spec, Error> {
    let timeout_ms = request
        .timeout_ms
        .unwrap_or(config.default_timeout_ms)
        .min(config.max_timeout_ms);
    let spec = Spec {
        command: request.command,
        cwd: request.cwd,
        timeout_ms,
        max_output_bytes: config.max_output_bytes,
        max_spill_bytes: config.max_spill_bytes,
        grace_ms: config.grace_ms,
        env: request.env,
        // Carried through untouched: bash-local does not confine (`confines` is false).
        sandbox: request.sandbox,
    };
    check(&spec, config)?;
    Ok(spec)
}

/// A spec for a run: a command, and a timeout within the budget. Specs normally come from
/// `resolve`, but `run` accepts any, so the budget is enforced here too.
pub fn check(spec: &Spec, config: &Config) -> Result<(), Error> {
    check_command(spec)?;
    if spec.timeout_ms == 0 {
        return Err(errors::invalid_request("timeout-ms must be greater than zero"));
    }
    if spec.timeout_ms > config.max_timeout_ms {
        return Err(errors::invalid_request(format!(
            "timeout-ms {} exceeds the maximum of {} ms",
            spec.timeout_ms, config.max_timeout_ms
        )));
    }
    Ok(())
}

/// The longest command: it is one argument of `bash -c`, and the kernel takes at most 32 pages
/// in one argument (MAX_ARG_STRLEN), its terminating NUL included.
const MAX_COMMAND_BYTES: usize = 32 * 4096 - 1;

/// What any spec needs, background ones (which have no timeout) included.
pub fn check_command(spec: &Spec) -> Result<(), Error> {
    if spec.command.trim().is_empty() {
        return Err(errors::invalid_request("the command is empty"));
    }
    if spec.command.len() > MAX_COMMAND_BYTES {
        return Err(errors::invalid_request(format!(
            "the command is {} bytes, more than the {MAX_COMMAND_BYTES} bytes one argument can hold; \
             write a long script to a file and run it with `bash FILE`",
            spec.command.len()
        )));
    }
    if spec.command.contains('\0') {
        return Err(errors::invalid_request("the command contains a NUL byte"));
    }
    if !spec.cwd.starts_with('/') {
        return Err(errors::invalid_request(format!(
            "cwd must be an absolute path, got {:?}",
            spec.cwd
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(command: &str, cwd: &str, timeout_ms: Option<u32>) -> Request {
        Request {
            command: command.into(),
            cwd: cwd.into(),
            timeout_ms,
            env: vec![],
            sandbox: None,
        }
    }

    fn code(result: Result<Spec, Error>) -> Option<String> {
        result.err().map(|error| error.code)
    }

    #[test]
    fn makes_every_default_explicit() {
        let config = Config::default();
        let spec = resolve(request("ls", "/tmp", None), &config).ok();
        let spec = spec.map(|s| (s.timeout_ms, s.max_output_bytes, s.max_spill_bytes, s.grace_ms));
        assert_eq!(spec, Some((120_000, 65_536, 67_108_864, 2_000)));
    }

    #[test]
    fn clamps_the_timeout() {
        let config = Config::default();
        let spec = resolve(request("ls", "/", Some(u32::MAX)), &config).ok();
        assert_eq!(spec.map(|s| s.timeout_ms), Some(600_000));
        let spec = resolve(request("ls", "/", Some(5)), &config).ok();
        assert_eq!(spec.map(|s| s.timeout_ms), Some(5));
    }

    #[test]
    fn refuses_invalid_requests() {
        let config = Config::default();
        for invalid in [
            request("", "/", None),
            request("  \n", "/", None),
            request("echo \0", "/", None),
            request("ls", "tmp", None),
            request("ls", "", None),
            request("ls", "/", Some(0)),
            request(&"x".repeat(MAX_COMMAND_BYTES + 1), "/", None),
        ] {
            assert_eq!(
                code(resolve(invalid, &config)).as_deref(),
                Some("SHELL_INVALID_REQUEST")
            );
        }
    }

    #[test]
    fn takes_a_command_as_long_as_one_argument_can_be() {
        let longest = "x".repeat(MAX_COMMAND_BYTES);
        assert!(resolve(request(&longest, "/", None), &Config::default()).is_ok());
    }

    #[test]
    fn run_refuses_a_timeout_over_budget() {
        let config = Config {
            max_timeout_ms: 10,
            ..Config::default()
        };
        let spec = resolve(request("ls", "/", Some(10)), &config);
        let over = spec.map(|spec| Spec { timeout_ms: 11, ..spec });
        let error = over
            .and_then(|spec| check(&spec, &config))
            .err()
            .map(|error| error.code);
        assert_eq!(error.as_deref(), Some("SHELL_INVALID_REQUEST"));
    }
}
