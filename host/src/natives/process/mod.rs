//! Native process shim: spawns OS programs for the host and manages their trees and output.
//!
//! Linux only. Every program runs in its own process group under a per-spawn supervisor (the
//! `supervisor` module): a child subreaper that reaps the program and all its descendants, tears the
//! tree down on request (SIGTERM, then SIGKILL after the grace period), terminates leftover
//! descendants when the program exits, and exits with the program's status. The host waits on
//! the supervisor alone, so it never reaps (or steals the status of) any other child.
//!
//! Supervisors are not forked from the host: each [`ProcessTable`] forks a small zygote once,
//! which drops the host's memory and then creates every supervisor of the table as the host's
//! child (`CLONE_PARENT`), so a spawn costs the same whatever the host's size. Each supervisor
//! is forked before its request, as a standby that takes the next one. Requests travel
//! over a unix socket with the program's stdio fds attached (`spawner`, `wire`). If the zygote
//! dies, the next spawn starts a new one; processes already running are not affected.
//!
//! Output streams are discarded, inherited, piped for on-demand reads, or collected into
//! bounded memory with an optional spill file. Spill files live in a private per-process
//! directory under the user's state dir and are kept after the process ends, so their paths
//! can be shown to users; a day after the last write, the next spill removes them (`spill`).
//! A program may ask for its own TMPDIR, removed once its tree is gone (`private_tmp`).
//!
//! Requirements on the host process: SIGCHLD must not be ignored (the kernel would then reap
//! supervisors itself and their statuses would be lost; the `seam` binary restores its default
//! at start), and SIGPIPE should stay ignored (the Rust runtime default) so that writing to a
//! closed stdin returns an error instead of killing the host. If the host dies, every
//! supervisor tears its tree down and the zygote exits.

mod bounded;
mod collect;
mod error;
mod farewell;
mod handle;
mod launch;
mod outcome;
mod pipe_reader;
mod private_tmp;
mod spawner;
mod spec;
mod spill;
mod start;
mod stdin;
mod supervisor;
mod table;
mod tail_window;
mod watcher;
mod wire;
mod wiring;
mod workers;

#[cfg(test)]
mod tests;

pub use bounded::Bounded;
pub use collect::{Chunk, CollectedText, TextChunk};
pub use error::ProcessError;
pub use farewell::Farewell;
pub use handle::Process;
pub use outcome::Outcome;
pub use pipe_reader::{PipeRead, PipeText};
pub use spec::{CollectSpec, DEFAULT_GRACE, OutputSpec, SpawnSpec, StdinSpec, Stream};
/// For tests that must know a program's signal dispositions are in place.
#[cfg(test)]
pub(crate) use supervisor::ignores;
pub use table::ProcessTable;
