//! seam's integration tests: one binary, one module per suite.

mod common;

mod bash_tool;
mod cli;
mod concurrency;
mod escalation;
mod faults;
mod fs_concurrency;
mod fs_crash;
mod fs_identity;
mod fs_kinds;
mod fs_observation;
mod fs_sandbox;
mod fs_search;
mod fs_support;
mod fs_tools;
mod fs_versions;
mod hot_swap;
mod jobs;
mod linking;
mod lsp;
mod lsp_support;
mod mcp;
mod plugin_kits;
mod plugins;
mod resources;
mod sandbox_chain;
mod sandbox_git;
mod sandbox_launcher;
mod sandbox_read_only;
mod sandbox_support;
mod sandbox_workspace_write;
mod terminal_pty;
mod terminal_support;
mod terminal_tool;
mod wit_packages;
