//! Loading refuses, before any call, a world whose links are missing, ambiguous, cyclic or
//! version-incompatible, or a tool that imports host natives; third-party seams link with no
//! host change.

use crate::common::*;
use std::path::Path;

fn refusal(toml: &str, dir: &Path) -> (String, String) {
    match try_world(toml, dir) {
        Ok(_) => panic!("the world loaded:\n{toml}"),
        Err(e) => (e.code().to_string(), e.to_string()),
    }
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn a_missing_provider_is_refused_naming_component_and_interface() {
    let dir = tempfile::tempdir().unwrap();
    let toml = format!("tools = [{:?}]", path(&fixture("fixture-counter-tool")));
    let (code, message) = refusal(&toml, dir.path());
    assert_eq!(code, "LINK_MISSING");
    assert!(
        message.contains("fixture_counter_tool") && message.contains("acme:counter/counter@0.1.0"),
        "{message}"
    );
}

#[test]
fn two_providers_of_one_interface_are_ambiguous() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("counter_copy.wasm");
    std::fs::copy(fixture("fixture-counter"), &copy).unwrap();
    let toml = format!(
        "tools = [{:?}]\n[providers]\na = {:?}\nb = {:?}\n",
        path(&fixture("fixture-counter-tool")),
        path(&fixture("fixture-counter")),
        path(&copy)
    );
    let (code, message) = refusal(&toml, dir.path());
    assert_eq!(code, "LINK_AMBIGUOUS");
    assert!(
        message.contains("fixture_counter") && message.contains("counter_copy"),
        "{message}"
    );
}

#[test]
fn an_incompatible_version_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let toml = format!(
        "tools = [{:?}]\n[providers]\ncounter = {:?}\n",
        path(&fixture("fixture-counter-tool")),
        path(&fixture("fixture-counter-v2"))
    );
    let (code, message) = refusal(&toml, dir.path());
    assert_eq!(code, "LINK_VERSION");
    assert!(
        message.contains("acme:counter/counter@0.2.0") && message.contains("@0.1.0"),
        "{message}"
    );
}

#[test]
fn a_stack_listed_innermost_first_is_refused_rather_than_leaving_its_sandbox_unused() {
    let dir = tempfile::tempdir().unwrap();
    let toml = "sandbox = \"workspace-write\"\ntools = [\"tool-fs\"]\n[providers]\n\
        fs = [\"fs-local\", \"fs-sandbox\"]\npolicy = \"sandbox-policy\"\n";
    let (code, message) = refusal(toml, dir.path());
    assert_eq!(code, "LINK_STACK_UNREACHABLE");
    assert!(
        message.contains("fs-local does not call fs-sandbox") && message.contains("outermost first"),
        "{message}"
    );
    let fixed = toml.replace("[\"fs-local\", \"fs-sandbox\"]", "[\"fs-sandbox\", \"fs-local\"]");
    assert!(
        try_world(&fixed, dir.path()).is_ok(),
        "the same stack outermost first loads"
    );
}

/// A provider listed under one of seam's own seams must provide it: a plugin granted `fs` must
/// not be handed a shell. A seam of a third party's own is named as its provider likes.
#[test]
fn a_provider_listed_under_a_seam_it_does_not_provide_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let toml = "tools = [\"tool-fs\"]\n[providers]\nfs = \"fs-local\"\npolicy = \"sandbox-policy\"\n\
        shell = \"approval-never\"\n";
    let (code, message) = refusal(toml, dir.path());
    assert_eq!(code, "LINK_LABEL_MISMATCH");
    assert!(
        message.contains("providers.shell names approval-never, which does not provide the shell seam"),
        "{message}"
    );
    let renamed = toml.replace("shell = ", "mine = ");
    assert!(
        try_world(&renamed, dir.path()).is_ok(),
        "a label of no seam of seam's own"
    );
}

#[test]
fn a_cycle_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let toml = format!(
        "[providers]\nping = {:?}\npong = {:?}\n",
        path(&fixture("fixture-ping")),
        path(&fixture("fixture-pong"))
    );
    let (code, message) = refusal(&toml, dir.path());
    assert_eq!(code, "LINK_CYCLE");
    assert!(
        message.contains("fixture_ping") && message.contains("fixture_pong"),
        "{message}"
    );
}

#[test]
fn a_tool_importing_host_natives_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let toml = format!("tools = [{:?}]", path(&fixture("fixture-sneaky-tool")));
    let (code, message) = refusal(&toml, dir.path());
    assert_eq!(code, "LINK_HOST_FORBIDDEN");
    assert!(
        message.contains("fixture_sneaky_tool") && message.contains("seam:host/log"),
        "{message}"
    );
}

#[test]
fn unknown_builtins_and_bad_files_are_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let (code, message) = refusal("tools = [\"tool-nope\"]", dir.path());
    assert_eq!(code, "WORLD_UNKNOWN_COMPONENT");
    assert!(
        message.contains("tool-nope") && message.contains("tool-bash"),
        "{message}"
    );
    // A misspelt provider beside its settings: the name is the typo, not the settings' table.
    let (code, message) = refusal(
        "tools = [\"tool-bash\"]\n[providers]\nshell = \"bash-locall\"\n[config.bash-local]\nmax_timeout_ms = 5000\n",
        dir.path(),
    );
    assert_eq!(code, "WORLD_UNKNOWN_COMPONENT", "{message}");
    assert!(message.contains("\"bash-locall\""), "{message}");
    let junk = dir.path().join("junk.wasm");
    std::fs::write(&junk, b"not wasm").unwrap();
    let (code, _) = refusal(&format!("tools = [{:?}]", path(&junk)), dir.path());
    assert_eq!(code, "COMPONENT_INVALID");
    for workspace in [dir.path().join("missing"), junk] {
        let text = format!("workspace = {:?}", path(&workspace));
        let file = seam_host::WorldFile::parse(&text, "test world", dir.path()).unwrap();
        let error = seam_host::World::load(runtime(), file, None)
            .err()
            .expect("the world is refused");
        assert_eq!(error.code(), "WORLD_WORKSPACE_INVALID", "{error}");
        assert!(error.to_string().contains(&path(&workspace)), "{error}");
    }
}

#[test]
fn a_third_party_seam_links_with_no_host_change() {
    let dir = tempfile::tempdir().unwrap();
    let toml = format!(
        "tools = [{:?}]\n[providers]\ncounter = {:?}\n",
        path(&fixture("fixture-counter-tool")),
        path(&fixture("fixture-counter"))
    );
    let world = world(&toml, dir.path());
    let result = call(&world, "ok", serde_json::json!({}));
    assert_eq!(result.text(), "ok");
}

/// Every built-in component that takes settings checks them when the world loads: a misspelled
/// setting refuses the world, naming the table and the setting; spelled right, it loads.
#[test]
fn a_misspelled_setting_refuses_the_world_at_load() {
    let dir = tempfile::tempdir().unwrap();
    let local = "tools = [\"tool-bash\", \"tool-fs\", \"tool-fs-search\", \"tool-terminal\", \"tool-lsp\"]\n\
                 [providers]\nsubprocess = \"subprocess-local\"\nshell = \"bash-local\"\n\
                 terminal = \"terminal-bash\"\njobs = \"jobs-local\"\nfs = [\"fs-sandbox\", \"fs-local\"]\n\
                 policy = \"sandbox-policy\"\napproval = \"approval-never\"\nlsp = \"lsp-stdio\"\n";
    let sandboxed = "tools = [\"tool-bash\"]\n[providers]\nsubprocess = \"subprocess-local\"\n\
                     shell = \"bash-sandbox\"\nsandbox = \"sandbox-local\"\njobs = \"jobs-local\"\n\
                     policy = \"sandbox-policy\"\napproval = \"approval-never\"\n";
    let settings = [
        (local, "bash-local", "max_output_bytes = 4096"),
        (local, "terminal-bash", "rows = 30"),
        (local, "fs-sandbox", "mode = \"read-only\""),
        (local, "sandbox-policy", "default_mode = \"read-only\""),
        (local, "lsp-stdio", "missing_servers = \"report\""),
        (local, "tool-fs", "default_limit = 100"),
        (local, "tool-fs-search", "max_limit = 500"),
        (sandboxed, "bash-sandbox", "grace_ms = 100"),
        (sandboxed, "sandbox-local", "landlock = true"),
    ];
    for (world, component, setting) in settings {
        let good = format!("{world}[config.{component}]\n{setting}\n");
        if let Err(e) = try_world(&good, dir.path()) {
            panic!("{component} with {setting}: [{}] {e}", e.code());
        }
        let misspelled = format!("{world}[config.{component}]\n{setting}\nno_such_setting = 1\n");
        let Err(error) = try_world(&misspelled, dir.path()) else {
            panic!("{component} accepted a misspelled setting");
        };
        assert_eq!(error.code(), "WORLD_CONFIG_INVALID", "{component}: {error}");
        let message = error.to_string();
        assert!(
            message.contains(&format!("[config.{component}]")) && message.contains("no_such_setting"),
            "{message}"
        );
    }
}
