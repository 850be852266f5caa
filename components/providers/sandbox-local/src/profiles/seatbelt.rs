//! The macOS Seatbelt profile for `sandbox-exec`: allow by default, deny every file write, then
//! allow /dev/null and, under workspace-write, the writable roots minus git's hooks and config.
//! Roots travel as `-D` parameters, never spliced into the profile text, so no path can change
//! the policy's meaning. Untested on this platform: the seam host runs on Linux.

use super::Protected;
use crate::scope::{Scope, is_under};

pub const SANDBOX_EXEC: &str = "/usr/bin/sandbox-exec";

/// `sandbox-exec -p <profile> -D ROOT_n=<path>... -- <argv>`.
pub fn argv(scope: &Scope, protected: &[Protected], command: &[String]) -> Vec<String> {
    let (profile, params) = profile(scope, protected);
    let mut argv = vec![SANDBOX_EXEC.to_owned(), "-p".to_owned(), profile];
    for (name, value) in params {
        argv.push("-D".to_owned());
        argv.push(format!("{name}={value}"));
    }
    argv.push("--".to_owned());
    argv.extend(command.iter().cloned());
    argv
}

/// The profile text and the parameters it refers to.
pub fn profile(scope: &Scope, protected: &[Protected]) -> (String, Vec<(String, String)>) {
    let mut text = String::from("(version 1)\n(allow default)\n(deny file-write*)\n");
    text.push_str("(allow file-write* (literal \"/dev/null\"))\n");
    let mut params = Vec::new();
    for (n, root) in scope.writable().into_iter().enumerate() {
        let name = format!("ROOT_{n}");
        let mut clause = format!("(subpath (param \"{name}\"))");
        params.push((name.clone(), root.to_owned()));
        let inside: Vec<&Protected> = protected.iter().filter(|p| is_under(&p.path, root)).collect();
        if !inside.is_empty() {
            let mut parts = vec![clause];
            for (m, path) in inside.into_iter().enumerate() {
                let guarded = format!("{name}_RO_{m}");
                parts.push(format!("(require-not (subpath (param \"{guarded}\")))"));
                params.push((guarded, path.path.clone()));
            }
            clause = format!("(require-all {})", parts.join(" "));
        }
        text.push_str(&format!("(allow file-write* {clause})\n"));
    }
    (text, params)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::Kind;
    use crate::scope::Mode;

    #[test]
    fn read_only_denies_every_write_but_dev_null() {
        let scope = Scope::new(Mode::ReadOnly, "/ws", &[]).unwrap();
        let (text, params) = profile(&scope, &[]);
        assert_eq!(
            text,
            "(version 1)\n(allow default)\n(deny file-write*)\n(allow file-write* (literal \"/dev/null\"))\n"
        );
        assert!(params.is_empty());
    }

    #[test]
    fn workspace_write_allows_roots_minus_protected_paths_through_parameters() {
        let scope = Scope::new(Mode::WorkspaceWrite, "/ws \"quoted\"", &["/private/tmp".into()]).unwrap();
        let hooks = [Protected {
            path: "/ws \"quoted\"/.git/hooks".into(),
            kind: Kind::MissingDirectory,
        }];
        let argv = argv(&scope, &hooks, &["true".into()]);
        let text = &argv[2];
        assert!(text.contains(
            "(allow file-write* (require-all (subpath (param \"ROOT_0\")) (require-not (subpath (param \"ROOT_0_RO_0\")))))"
        ));
        assert!(text.contains("(allow file-write* (subpath (param \"ROOT_1\")))"));
        assert!(!text.contains("quoted"), "paths never enter the profile text");
        assert_eq!(
            argv[3..],
            [
                "-D",
                "ROOT_0=/ws \"quoted\"",
                "-D",
                "ROOT_0_RO_0=/ws \"quoted\"/.git/hooks",
                "-D",
                "ROOT_1=/private/tmp",
                "--",
                "true"
            ]
        );
    }
}
