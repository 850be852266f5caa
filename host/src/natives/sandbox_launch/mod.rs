//! The OS side of sandbox runners: finding bwrap, the kernel's Landlock ABI, the Landlock
//! launcher the seam binary re-executes as, bounded functional probes, and the git metadata a
//! writable sandbox keeps read-only. Which mode grants which roots is the sandbox provider's;
//! this module only answers facts and launches.

pub mod git;
pub mod landlock;
pub mod probe;
pub mod which;

/// How much of a profile a runner applies here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enforcement {
    Full,
    Partial,
}

impl Enforcement {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Full => "full",
            Self::Partial => "partial",
        }
    }
}
