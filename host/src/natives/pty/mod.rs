//! Native PTY shim: interactive shells on pseudo-terminals that outlive the call that opened them.
//!
//! Linux only. A session is a shell leading its own kernel session (setsid) with the PTY slave as
//! controlling terminal. A drain thread copies everything the terminal prints into a bounded
//! scrollback addressed by stream offsets, so readers never block and never miss where they are,
//! and through a terminal emulator that keeps the screen a person would see.
//! Foreground facts come from the kernel: the terminal's foreground process group (tcgetpgrp on
//! the master) and whether a process of that group sleeps reading this terminal (/proc wait
//! channel). Closing signals every process of the session and its descendants (SIGHUP, SIGTERM,
//! then SIGKILL after the grace), reaps the shell, stops the drain thread and closes every
//! descriptor.

mod charsets;
mod device;
mod drain;
mod error;
mod kernel;
mod legacy_modes;
mod polled;
mod screen;
mod scrollback;
mod session;
mod spec;
mod table;

pub use error::PtyError;
pub use kernel::TerminalWait;
pub use screen::{Screen, Snapshot};
pub use scrollback::{Chunk, TextChunk};
pub use session::{PtyOutcome, PtySession};
pub use spec::PtySpec;
pub use table::PtyTable;
