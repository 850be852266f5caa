//! `terminal-sandbox`: the terminal seam with every shell confined. The shell's argv is wrapped
//! by the sandbox seam for the session's policy before the PTY starts it, so everything typed
//! into the session runs inside the sandbox (danger-full-access runs it as it is).
//!
//! Everything but the launch is terminal-bash's, shared by path so the two providers cannot
//! drift apart.

#[path = "../../terminal-bash/src/config.rs"]
mod config;
#[path = "../../terminal-bash/src/errors.rs"]
mod errors;
mod launch;
#[path = "../../terminal-bash/src/marker.rs"]
mod marker;
#[path = "../../terminal-bash/src/readiness.rs"]
mod readiness;
#[path = "../../terminal-bash/src/registry.rs"]
mod registry;
#[path = "../../terminal-bash/src/service.rs"]
mod service;
#[path = "../../terminal-bash/src/signals.rs"]
mod signals;

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:terminal-sandbox;

            world terminal-sandbox {
                import seam:subprocess/subprocess@0.1.0;
                import seam:sandbox/sandbox@0.1.0;
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
