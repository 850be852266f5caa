//! seam's integration tests: one binary, one module per suite.

mod common;

mod bash_tool;
mod cli;
mod concurrency;
mod faults;
mod linking;
mod resources;
mod wit_packages;
