//! The Landlock profile: read everything, write /dev/null, and under workspace-write the
//! workspace and the writable roots. The host's launcher (landlock-launcher/) applies it.
//!
//! What it cannot say: Landlock grants rights below a directory and cannot take them back
//! below it, so git's hooks and config inside a writable workspace stay writable; and no
//! Landlock ABI governs metadata (chmod, chown, utimes, xattrs, inode flags). Both are reported.

use super::Protected;
use crate::scope::{Scope, is_under};
use crate::select::Enforcement;

/// What the launcher is asked for: read below `read`, write below `write`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    pub read: Vec<String>,
    pub write: Vec<String>,
}

pub fn rules(scope: &Scope) -> Rules {
    let mut write = vec!["/dev/null".to_owned()];
    write.extend(scope.writable().into_iter().map(str::to_owned));
    Rules {
        read: vec!["/".to_owned()],
        write,
    }
}

/// Why this profile is weaker than the mode's words here, given what the kernel enforces of
/// the ruleset (`ruleset`); never empty on today's kernels, since metadata is outside every
/// Landlock ABI so far.
pub fn shortfalls(scope: &Scope, protected: &[Protected], ruleset: Enforcement) -> Vec<String> {
    let mut reasons =
        vec!["metadata changes (chmod, chown, utimes, xattrs, inode flags) are not governed by Landlock".to_owned()];
    if ruleset == Enforcement::Partial {
        reasons.push("this kernel's Landlock ABI enforces only part of the ruleset (truncation or renames)".to_owned());
    }
    let writable = scope.writable();
    let exposed: Vec<&str> = protected
        .iter()
        .filter(|p| writable.iter().any(|root| is_under(&p.path, root)))
        .map(|p| p.path.as_str())
        .collect();
    if !exposed.is_empty() {
        reasons.push(format!(
            "Landlock cannot keep these read-only inside a writable root: {}",
            exposed.join(", ")
        ));
    }
    reasons
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::Kind;
    use crate::scope::Mode;

    fn scope(mode: Mode) -> Scope {
        Scope::new(mode, "/ws", &["/tmp".to_owned()]).unwrap()
    }

    #[test]
    fn read_only_writes_only_dev_null() {
        assert_eq!(
            rules(&scope(Mode::ReadOnly)),
            Rules {
                read: vec!["/".into()],
                write: vec!["/dev/null".into()],
            }
        );
    }

    #[test]
    fn workspace_write_adds_the_workspace_and_roots() {
        assert_eq!(rules(&scope(Mode::WorkspaceWrite)).write, ["/dev/null", "/ws", "/tmp"]);
    }

    #[test]
    fn protected_paths_under_a_writable_root_are_named_as_a_shortfall() {
        let hooks = [Protected {
            path: "/ws/.git/hooks".into(),
            kind: Kind::Directory,
        }];
        assert_eq!(shortfalls(&scope(Mode::ReadOnly), &hooks, Enforcement::Full).len(), 1);
        let reasons = shortfalls(&scope(Mode::WorkspaceWrite), &hooks, Enforcement::Full);
        assert!(reasons[1].contains("/ws/.git/hooks"), "{reasons:?}");
        let old_kernel = shortfalls(&scope(Mode::ReadOnly), &[], Enforcement::Partial);
        assert!(old_kernel[1].contains("ABI"), "{old_kernel:?}");
    }
}
