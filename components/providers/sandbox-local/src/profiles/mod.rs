//! Profiles: pure functions from a scope (and the facts a native found) to a runner's argv or
//! policy text. Nothing here touches the machine, so each is unit tested on any platform.

pub mod bwrap;
pub mod landlock;
// Profiles for hosts seam does not run on yet (macOS, Windows): built and unit tested here,
// reported by `runners()` as untested on this platform, never selected.
#[allow(dead_code)]
pub mod seatbelt;
#[allow(dead_code)]
pub mod windows_acl;

/// A path a writable sandbox keeps read-only (git's hooks and config, the host's cache), as
/// found on disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Protected {
    pub path: String,
    pub kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Directory,
    File,
    /// Absent; kept from being created by mounting an empty read-only directory there.
    MissingDirectory,
}
