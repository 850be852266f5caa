//! The OS side of sandbox runners: finding bwrap, the kernel's Landlock ABI, the Landlock
//! launcher binary seam carries and installs, bounded functional probes, and what a writable
//! sandbox keeps read-only (git's metadata, the host's cache). Which mode grants which roots is the sandbox provider's;
//! this module only answers facts and launches.

pub mod git;
pub mod launcher;
pub mod probe;
pub mod protected;
pub mod which;

/// The launcher's contract and ruleset live in their own crate, which builds the launcher binary.
pub use seam_landlock_launcher as landlock;
pub use seam_landlock_launcher::Enforcement;
