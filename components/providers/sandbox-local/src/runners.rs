//! The runners this provider knows, and each one's own dialect: the stderr wording of a denial
//! it causes, and how it says that it could not start or apply its profile.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runner {
    Bwrap,
    Landlock,
    Seatbelt,
    WindowsAcl,
}

/// "The runner itself failed": a stderr line containing `fatal` and, when `exit_codes` is not
/// empty, one of those exit codes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailureRule {
    pub fatal: &'static str,
    pub exit_codes: &'static [i32],
}

/// The Landlock launcher's fatal line and exit status (landlock-launcher/, the host's launcher).
pub const LANDLOCK_FATAL: &str = "seam landlock launcher: fatal:";
pub const LANDLOCK_FATAL_EXIT: i32 = 126;

impl Runner {
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "bwrap" => Some(Self::Bwrap),
            "landlock" => Some(Self::Landlock),
            "seatbelt" => Some(Self::Seatbelt),
            "windows-acl" => Some(Self::WindowsAcl),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Bwrap => "bwrap",
            Self::Landlock => "landlock",
            Self::Seatbelt => "seatbelt",
            Self::WindowsAcl => "windows-acl",
        }
    }

    /// bwrap runs the command in a pid namespace whose init ends with it, taking the rest.
    pub fn ends_leftovers(self) -> bool {
        matches!(self, Self::Bwrap)
    }

    /// Only this runner's wording: a union over runners would call ordinary failures denials.
    /// bwrap mounts the filesystem read-only (EROFS); Landlock refuses with EACCES; Seatbelt
    /// with EPERM; a restricted token with Windows' access-denied messages.
    pub fn denial_signatures(self) -> &'static [&'static str] {
        match self {
            Self::Bwrap => &["read-only file system"],
            Self::Landlock => &["permission denied"],
            Self::Seatbelt => &["operation not permitted"],
            Self::WindowsAcl => &["access is denied", "access to the path", "permission denied"],
        }
    }

    /// bwrap prefixes every error of its own with `bwrap:` and exits 1; the Landlock launcher
    /// prints its fatal line and exits 126; sandbox-exec names itself; the Windows runner exits
    /// 127 after its fatal line.
    pub fn failure_rules(self) -> &'static [FailureRule] {
        match self {
            Self::Bwrap => &[FailureRule {
                fatal: "bwrap:",
                exit_codes: &[1],
            }],
            Self::Landlock => &[FailureRule {
                fatal: LANDLOCK_FATAL,
                exit_codes: &[LANDLOCK_FATAL_EXIT],
            }],
            Self::Seatbelt => &[FailureRule {
                fatal: "sandbox-exec:",
                exit_codes: &[],
            }],
            Self::WindowsAcl => &[FailureRule {
                fatal: "windows-acl runner: fatal:",
                exit_codes: &[127],
            }],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Runner; 4] = [Runner::Bwrap, Runner::Landlock, Runner::Seatbelt, Runner::WindowsAcl];

    #[test]
    fn names_round_trip() {
        for runner in ALL {
            assert_eq!(Runner::parse(runner.name()), Some(runner));
        }
        assert_eq!(Runner::parse("docker"), None);
    }

    #[test]
    fn dialects_are_lowercase_and_not_shared_between_bwrap_and_landlock() {
        for runner in ALL {
            for signature in runner.denial_signatures() {
                assert_eq!(*signature, signature.to_lowercase());
            }
        }
        let bwrap = Runner::Bwrap.denial_signatures();
        assert!(Runner::Landlock.denial_signatures().iter().all(|s| !bwrap.contains(s)));
    }
}
