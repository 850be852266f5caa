//! `sandbox-policy`: the one owner of sandbox policy. A call's mode is an approved escalation
//! (this call only) over the session's last mode event over the deployment default; its root
//! is the session's cwd over the world's workspace.

mod escalation;
mod events;
mod modes;
mod resolve;

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:sandbox-policy;

            world sandbox-policy {
                import seam:host/state@0.1.0;
                import seam:host/config@0.1.0;
                export seam:sandbox/policy@0.1.0;
                export seam:sandbox/escalation@0.1.0;
                export seam:host/config-check@0.1.0;
            }
        "#,
        path: ["../../../wit/host", "../../../wit/sandbox"],
        generate_all,
    });
}

struct SandboxPolicy;

/// Asked when a world that configures this component loads.
impl bindings::exports::seam::host::config_check::Guest for SandboxPolicy {
    fn check() -> Result<(), String> {
        resolve::check_config()
    }
}

bindings::export!(SandboxPolicy with_types_in bindings);
