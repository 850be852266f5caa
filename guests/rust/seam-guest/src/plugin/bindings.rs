//! Bindings for the world every kit plugin is built against: the call context and the seams a
//! plugin may be granted, exporting `seam:tool/tool`. A component imports only the interfaces
//! its code calls, so a plugin that never touches the shell seam needs no `shell` grant.

wit_bindgen::generate!({
    inline: r#"
        package seam:guest-plugin;

        world plugin {
            import seam:tool/context@0.1.0;
            import seam:fs/fs@0.1.0;
            import seam:shell/shell@0.1.0;
            export seam:tool/tool@0.1.0;
        }
    "#,
    // Dependencies first: fs and shell use seam:sandbox.
    path: ["../../../wit/sandbox", "../../../wit/fs", "../../../wit/shell", "../../../wit/tool"],
    generate_all,
    pub_export_macro: true,
    export_macro_name: "export_plugin_world",
    default_bindings_module: "seam_guest::plugin::bindings",
    runtime_path: "seam_guest::plugin::wit_bindgen::rt",
});
