//! Typed host bindings of the `seam:host/*` natives and the tool call context.

pub mod natives {
    wasmtime::component::bindgen!({
        inline: "
            package seam:host-natives;
            world natives {
                import seam:host/process@0.1.0;
                import seam:host/log@0.1.0;
                import seam:host/state@0.1.0;
                import seam:host/config@0.1.0;
                import seam:host/fsio@0.1.0;
                import seam:host/sandbox-launch@0.1.0;
                import seam:host/pty@0.1.0;
            }
        ",
        path: "../wit/host",
        imports: { default: trappable },
        with: {
            "seam:host/process.child": crate::natives::ChildHandle,
            "seam:host/pty.session": crate::natives::PtyHandle,
        },
    });
}

pub mod tool {
    wasmtime::component::bindgen!({
        world: "seam:tool/plugin",
        path: "../wit/tool",
        imports: { default: trappable },
        // The call's arguments are lowered into the tool straight from the caller's string.
        ownership: Borrowing { duplicate_if_necessary: true },
    });
}

pub mod asker {
    wasmtime::component::bindgen!({
        inline: "
            package seam:host-asker;
            world asker {
                import seam:approval/asker@0.1.0;
            }
        ",
        path: "../wit/approval",
        imports: { default: trappable },
    });
}
