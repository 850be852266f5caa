//! `seam`: run tools of an execution world made of WebAssembly components.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
