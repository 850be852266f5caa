//! `terminal-bash`: the terminal seam on persistent interactive bash sessions. The shell runs on a
//! PTY from the subprocess seam (`spawn-terminal`); sessions (`pty-N`) and their owners live in
//! seam:host/state, so they outlive the call that opened them.

mod config;
mod errors;
mod launch;
mod marker;
mod readiness;
mod registry;
mod service;
mod signals;

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:terminal-bash;

            world terminal-bash {
                import seam:subprocess/subprocess@0.1.0;
                import seam:host/config@0.1.0;
                import seam:host/state@0.1.0;
                import seam:tool/context@0.1.0;
                export seam:terminal/terminal@0.1.0;
                export seam:host/config-check@0.1.0;
            }
        "#,
        // Dependencies first: terminal uses seam:sandbox, the subprocess package refers to seam:host.
        path: [
            "../../../wit/sandbox",
            "../../../wit/host",
            "../../../wit/subprocess",
            "../../../wit/tool",
            "../../../wit/terminal",
        ],
        generate_all,
    });
}

/// The terminal provider: its seam is implemented in `service`.
pub struct Provider;

bindings::export!(Provider with_types_in bindings);
