//! The stable SANDBOX_* error codes of the sandbox seam.

use crate::bindings::exports::seam::sandbox::sandbox::Error;

/// No runner of the chain can confine here: fail closed, never the raw argv.
const UNAVAILABLE: &str = "SANDBOX_UNAVAILABLE";
/// danger-full-access (never confined) or a root that is not absolute and canonical.
const INVALID_POLICY: &str = "SANDBOX_INVALID_POLICY";
/// An empty argv, or a cwd that is not absolute.
const INVALID_ARGV: &str = "SANDBOX_INVALID_ARGV";
/// The sandbox does not show the directory the command would start in.
const CWD_HIDDEN: &str = "SANDBOX_CWD_HIDDEN";
const CONFIG_INVALID: &str = "SANDBOX_CONFIG_INVALID";

fn error(code: &str, message: impl Into<String>) -> Error {
    Error {
        code: code.to_owned(),
        message: message.into(),
    }
}

pub fn unavailable(message: impl Into<String>) -> Error {
    error(UNAVAILABLE, message)
}

pub fn invalid_policy(message: impl Into<String>) -> Error {
    error(INVALID_POLICY, message)
}

pub fn invalid_argv(message: impl Into<String>) -> Error {
    error(INVALID_ARGV, message)
}

pub fn cwd_hidden(message: impl Into<String>) -> Error {
    error(CWD_HIDDEN, message)
}

pub fn config_invalid(message: impl Into<String>) -> Error {
    error(CONFIG_INVALID, message)
}
