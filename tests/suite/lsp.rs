//! The lsp tool against real language servers (rust-analyzer, typescript-language-server):
//! the four operations, UTF-16 columns on non-ASCII lines, a server killed mid-session, routing
//! and configuration errors, single flight, and a world with another fs stack.

use crate::common::*;
use crate::lsp_support::*;
use std::path::Path;

fn code(result: &seam_host::ToolResult) -> String {
    result.code.clone().unwrap_or_default()
}

#[test]
fn rust_analyzer_answers_the_four_operations() {
    let (_dir, ws) = project("rust");
    let world = lsp_world(LOCAL, SERVERS, &ws);

    // The call sits on a line with "é😀" before it: its UTF-16 column differs from its byte offset.
    let call_site = position(&ws, "src/lib.rs", "total_area", 1);
    let text = answer(&lsp(&world, "go_to_definition", "src/lib.rs", call_site));
    assert_eq!(starts(&text), [("src/lib.rs".to_owned(), 6, 8)], "{text}");

    let text = answer(&lsp(&world, "find_references", "src/lib.rs", (6, 8)));
    let found = starts(&text);
    assert!(
        found.contains(&("src/lib.rs".to_owned(), call_site.0, call_site.1)),
        "{text}"
    );
    assert!(found.contains(&("src/lib.rs".to_owned(), 6, 8)), "{text}");

    let trait_name = position(&ws, "src/shapes.rs", "Area", 0);
    let text = answer(&lsp(&world, "go_to_implementation", "src/shapes.rs", trait_name));
    let found = starts(&text);
    assert!(
        found
            .iter()
            .any(|(path, line, _)| path == "src/shapes.rs" && *line == 12),
        "{text}"
    );

    let square = position(&ws, "src/lib.rs", "Square", 0);
    let text = answer(&lsp(&world, "go_to_definition", "src/lib.rs", square));
    assert_eq!(starts(&text), [("src/shapes.rs".to_owned(), 8, 12)], "{text}");

    let text = answer(&lsp(&world, "hover", "src/lib.rs", call_site));
    assert!(
        text.contains("fn total_area") && text.contains("sum of the areas"),
        "{text}"
    );
    stop_servers(&ws);
}

#[test]
fn typescript_answers_the_four_operations() {
    let (_dir, ws) = project("ts");
    let world = lsp_world(LOCAL, SERVERS, &ws);

    let call_site = position(&ws, "src/main.ts", "totalArea", 1);
    let text = answer(&lsp(&world, "go_to_definition", "src/main.ts", call_site));
    assert_eq!(starts(&text), [("src/main.ts".to_owned(), 4, 17)], "{text}");

    let class = position(&ws, "src/shapes.ts", "Square", 0);
    let text = answer(&lsp(&world, "find_references", "src/shapes.ts", class));
    let found = starts(&text);
    let use_site = position(&ws, "src/main.ts", "Square", 1);
    assert!(
        found.contains(&("src/main.ts".to_owned(), use_site.0, use_site.1)),
        "{text}"
    );
    assert!(
        found.contains(&("src/shapes.ts".to_owned(), class.0, class.1)),
        "{text}"
    );

    let interface = position(&ws, "src/shapes.ts", "Area", 0);
    let text = answer(&lsp(&world, "go_to_implementation", "src/shapes.ts", interface));
    assert_eq!(
        starts(&text),
        [("src/shapes.ts".to_owned(), class.0, class.1)],
        "{text}"
    );

    let text = answer(&lsp(&world, "hover", "src/main.ts", call_site));
    assert!(
        text.contains("function totalArea") && text.contains("sum of the areas"),
        "{text}"
    );
    stop_servers(&ws);
}

#[test]
fn a_killed_server_is_replaced_on_the_next_query() {
    let (_dir, ws) = project("ts");
    let world = lsp_world(LOCAL, SERVERS, &ws);
    let at = position(&ws, "src/main.ts", "totalArea", 1);
    answer(&lsp(&world, "hover", "src/main.ts", at));
    let servers = servers_in(&ws, "typescript-language-server");
    assert_eq!(servers.len(), 1, "one server per (server, workspace): {servers:?}");
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(servers[0] as i32),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
    assert!(eventually(std::time::Duration::from_secs(10), || !Path::new(&format!(
        "/proc/{}",
        servers[0]
    ))
    .exists()
        || std::fs::read_to_string(format!("/proc/{}/stat", servers[0]))
            .is_ok_and(|s| s.contains(") Z"))));

    hover_answers_from_a_fresh_server(&world, &ws, at, servers[0]);
}

#[test]
fn a_server_no_query_uses_idles_out_and_the_next_query_starts_another() {
    let (_dir, ws) = project("ts");
    let config = format!("[config.lsp-stdio]\nidle_timeout_ms = 1500\n{SERVERS}");
    let world = lsp_world(LOCAL, &config, &ws);
    let at = position(&ws, "src/main.ts", "totalArea", 1);
    answer(&lsp(&world, "hover", "src/main.ts", at));
    let servers = servers_in(&ws, "typescript-language-server");
    assert_eq!(servers.len(), 1, "{servers:?}");
    assert!(
        eventually(std::time::Duration::from_secs(20), || servers_in(
            &ws,
            "typescript-language-server"
        )
        .is_empty()),
        "the idle server still runs"
    );

    hover_answers_from_a_fresh_server(&world, &ws, at, servers[0]);
}

/// The TypeScript hover answers again, from one server that is not `gone`; then it is stopped.
fn hover_answers_from_a_fresh_server(world: &seam_host::World, ws: &Path, at: (u32, u32), gone: u32) {
    let text = answer(&lsp(world, "hover", "src/main.ts", at));
    assert!(text.contains("function totalArea"), "{text}");
    let fresh = servers_in(ws, "typescript-language-server");
    assert!(fresh.len() == 1 && fresh[0] != gone, "{fresh:?} replaced {gone}");
    stop_servers(ws);
}

#[test]
fn concurrent_first_queries_start_one_server() {
    let (_dir, ws) = project("ts");
    let world = lsp_world(LOCAL, SERVERS, &ws);
    let at = position(&ws, "src/main.ts", "totalArea", 1);
    std::thread::scope(|scope| {
        let calls: Vec<_> = (0..3)
            .map(|_| scope.spawn(|| lsp(&world, "hover", "src/main.ts", at)))
            .collect();
        for call in calls {
            let text = answer(&call.join().unwrap());
            assert!(text.contains("function totalArea"), "{text}");
        }
    });
    assert_eq!(servers_in(&ws, "typescript-language-server").len(), 1);
    stop_servers(&ws);
}

#[test]
fn routing_positions_and_paths_fail_with_their_codes() {
    let (_dir, ws) = project("ts");
    let world = lsp_world(LOCAL, SERVERS, &ws);
    assert_eq!(code(&lsp(&world, "hover", "README.md", (1, 1))), "LSP_NO_SERVER");
    assert_eq!(code(&lsp(&world, "hover", "src/gone.ts", (1, 1))), "LSP_NOT_FOUND");
    // A name a typo away is offered, as the file tools offer it.
    let typo = lsp(&world, "hover", "src/mian.ts", (1, 1));
    assert_eq!(code(&typo), "LSP_NOT_FOUND");
    let near = format!("Similar names there: {}", ws.join("src/main.ts").display());
    assert!(typo.text().ends_with(&near), "{}", typo.text());
    // A directory is one whatever its name: with no extension, or with a served one.
    std::fs::create_dir(ws.join("src/dir.ts")).unwrap();
    for directory in ["src", "src/dir.ts"] {
        assert_eq!(
            code(&lsp(&world, "hover", directory, (1, 1))),
            "FS_IS_A_DIRECTORY",
            "{directory}"
        );
    }
    assert_eq!(
        code(&lsp(&world, "hover", "src/main.ts", (0, 1))),
        "LSP_INVALID_POSITION"
    );
    assert_eq!(
        code(&lsp(&world, "hover", "src/main.ts", (99, 1))),
        "LSP_INVALID_POSITION"
    );
    assert_eq!(
        code(&lsp(&world, "hover", "src/main.ts", (1, 999))),
        "LSP_INVALID_POSITION"
    );
    assert_eq!(
        code(&lsp(&world, "hover", "/etc/hosts.ts", (1, 1))),
        "LSP_OUTSIDE_WORKSPACE"
    );
    let bad = call(
        &world,
        "lsp",
        serde_json::json!({"operation": "rename", "file_path": "a.ts", "line": 1, "character": 1}),
    );
    assert_eq!(code(&bad), "INVALID_ARGUMENTS");
    // None of these started a server.
    assert!(servers_in(&ws, "typescript-language-server").is_empty());
}

#[test]
fn documents_over_the_bound_or_not_text_are_refused_before_any_server_starts() {
    let (_dir, ws) = project("ts");
    let bounded = format!("{SERVERS}[config.lsp-stdio]\nmax_document_bytes = 64\n");
    let world = lsp_world(LOCAL, &bounded, &ws);
    std::fs::write(
        ws.join("src/long.ts"),
        format!("export const s = \"{}\";\n", "x".repeat(64)),
    )
    .unwrap();
    std::fs::write(ws.join("src/nul.ts"), "export const s = 1;\0\n").unwrap();
    let long = lsp(&world, "hover", "src/long.ts", (1, 1));
    assert_eq!(code(&long), "LSP_TOO_LARGE", "{}", long.text());
    assert!(long.text().contains("larger than 64 bytes"), "{}", long.text());
    assert_eq!(code(&lsp(&world, "hover", "src/nul.ts", (1, 1))), "FS_NOT_TEXT");
    assert!(servers_in(&ws, "typescript-language-server").is_empty());
}

#[test]
fn a_missing_server_binary_refuses_the_world_or_is_reported_at_query() {
    let (_dir, ws) = project("ts");
    let ghost =
        "[config.lsp-stdio.servers.ghost]\ncommand = [\"seam-no-such-language-server\"]\nextensions = [\".ghost\"]\n";
    let refused = try_world(&world_toml(LOCAL, &format!("{SERVERS}{ghost}")), &ws);
    let error = refused.err().expect("a world with a missing server is refused at load");
    assert_eq!(error.code(), "WORLD_CONFIG_INVALID", "{error}");
    assert!(error.to_string().contains("[config.lsp-stdio]"), "{error}");
    assert!(error.to_string().contains("seam-no-such-language-server"), "{error}");

    let report = format!("{SERVERS}{ghost}[config.lsp-stdio]\nmissing_servers = \"report\"\n");
    let world = lsp_world(LOCAL, &report, &ws);
    std::fs::write(ws.join("a.ghost"), "boo\n").unwrap();
    let result = lsp(&world, "hover", "a.ghost", (1, 1));
    assert_eq!(code(&result), "LSP_INVALID_SERVER", "{}", result.text());
    assert!(
        result.text().contains("seam-no-such-language-server"),
        "{}",
        result.text()
    );
    assert!(world.tools()[0].description.contains("ghost (.ghost, unavailable)"));
}

#[test]
fn the_default_world_serves_lsp() {
    let (_dir, ws) = project("ts");
    let world = default_world(&ws);
    let at = position(&ws, "src/main.ts", "totalArea", 1);
    let text = answer(&lsp(&world, "go_to_definition", "src/main.ts", at));
    assert_eq!(starts(&text), [("src/main.ts".to_owned(), 4, 17)], "{text}");
    stop_servers(&ws);
}

#[test]
fn a_world_with_other_fs_and_subprocess_stacks_still_serves() {
    let (_dir, ws) = project("ts");
    let relay = fixture("fixture-subprocess-relay").display().to_string();
    let providers = format!(
        "subprocess = [{relay:?}, \"subprocess-local\"]\nfs = [\"fs-observation-policy\", \"fs-sandbox\", \"fs-local\"]"
    );
    let world = lsp_world(&providers, SERVERS, &ws);
    let at = position(&ws, "src/main.ts", "totalArea", 1);
    let text = answer(&lsp(&world, "hover", "src/main.ts", at));
    assert!(text.contains("function totalArea"), "{text}");
    // The server was started through the relay: it carries the relay's mark.
    let servers = servers_in(&ws, "typescript-language-server");
    assert_eq!(servers.len(), 1, "{servers:?}");
    let environ = std::fs::read(format!("/proc/{}/environ", servers[0])).unwrap();
    assert!(
        environ.split(|&b| b == 0).any(|var| var == b"SEAM_TEST_RELAYED=1"),
        "the server was not spawned through the relay"
    );
    stop_servers(&ws);
}

#[test]
fn a_cancelled_call_stops_waiting_on_a_silent_server() {
    let (_dir, ws) = project("ts");
    let silent = "[config.lsp-stdio]\nrequest_timeout_ms = 60000\n\
                  [config.lsp-stdio.servers.silent]\ncommand = [\"sleep\", \"1000\"]\nextensions = [\".silent\"]\n";
    let world = lsp_world(LOCAL, silent, &ws);
    std::fs::write(ws.join("a.silent"), "x\n").unwrap();
    let context = world.call_context("cancelled");
    let canceller = context.clone();
    let args = serde_json::json!({"operation": "hover", "file_path": "a.silent", "line": 1, "character": 1});
    let result = std::thread::scope(|scope| {
        let call = scope.spawn(|| world.call("lsp", &args.to_string(), context));
        canceller.cancel();
        call.join().unwrap()
    });
    assert_eq!(code(&result), "LSP_CANCELLED", "{}", result.text());
    for pid in servers_in(&ws, "sleep") {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid as i32),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
}

#[test]
fn servers_register_whole_or_not_at_all_and_unregistering_shuts_them_down() {
    let (_dir, ws) = project("ts");
    let registry = fixture("fixture-lsp-registry").display().to_string();
    let toml = world_toml(LOCAL, SERVERS).replace(
        "tools = [\"tool-lsp\"]",
        &format!("tools = [\"tool-lsp\", {registry:?}]"),
    );
    let world = world(&toml, &ws);
    let admin = |args: serde_json::Value| call(&world, "lsp_registry", args);
    let ids = || {
        let listed: serde_json::Value =
            serde_json::from_str(&answer(&admin(serde_json::json!({"op": "servers"})))).unwrap();
        listed
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    let register = |id: &str, command: &str, extensions: &[&str]| {
        admin(
            serde_json::json!({"op": "register", "id": id, "command": [command, "--stdio"], "extensions": extensions}),
        )
    };
    let before = ids();
    assert_eq!(before, ["rust-analyzer", "typescript"]);
    let tsls = "typescript-language-server";
    assert_eq!(code(&register("ts2", tsls, &[".mts", ".ts"])), "LSP_EXTENSION_TAKEN");
    assert_eq!(code(&register("typescript", tsls, &[".mts"])), "LSP_DUPLICATE_ID");
    assert_eq!(
        code(&register("ghost", "seam-no-such-language-server", &[".ghost"])),
        "LSP_INVALID_SERVER"
    );
    assert_eq!(ids(), before, "a refused registration leaves nothing behind");

    answer(&register("ts2", tsls, &[".mts"]));
    std::fs::copy(ws.join("src/shapes.ts"), ws.join("src/shapes.mts")).unwrap();
    let class = position(&ws, "src/shapes.mts", "Square", 0);
    assert!(answer(&lsp(&world, "hover", "src/shapes.mts", class)).contains("class Square"));
    let at = position(&ws, "src/main.ts", "totalArea", 1);
    answer(&lsp(&world, "hover", "src/main.ts", at));
    assert_eq!(servers_in(&ws, tsls).len(), 2);

    // shutdown, exit, then termination: the server of `typescript` is gone, ts2's runs on.
    assert_eq!(
        answer(&admin(serde_json::json!({"op": "unregister", "id": "typescript"}))),
        "true"
    );
    assert!(eventually(std::time::Duration::from_secs(30), || servers_in(&ws, tsls)
        .len()
        == 1));
    assert_eq!(code(&lsp(&world, "hover", "src/main.ts", at)), "LSP_NO_SERVER");
    assert_eq!(
        answer(&admin(serde_json::json!({"op": "unregister", "id": "typescript"}))),
        "false"
    );
    stop_servers(&ws);
}
