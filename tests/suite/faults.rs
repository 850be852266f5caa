//! A trap, a runaway loop, memory growth past the limit and a stack overflow, in a tool or in
//! a provider, each fail that one call with a clear code; the world keeps serving.

use crate::common::*;
use serde_json::json;

fn fault_world(dir: &std::path::Path) -> seam_host::World {
    let toml = format!(
        "tools = [{:?}]\n[providers]\ncounter = {:?}\n[limits]\nmemory_mb = 64\nguest_time_ms = 500\n",
        fixture("fixture-counter-tool").display().to_string(),
        fixture("fixture-counter").display().to_string()
    );
    world(&toml, dir)
}

const KINDS: [(&str, &str); 6] = [
    ("trap", "COMPONENT_TRAP"),
    ("spin", "COMPONENT_TIMEOUT"),
    ("grow", "COMPONENT_MEMORY_LIMIT"),
    ("recurse", "COMPONENT_STACK_OVERFLOW"),
    // The guest's own stack in linear memory running out, which the engine sees as an access
    // below the start of memory.
    ("deep", "COMPONENT_STACK_OVERFLOW"),
    // An out-of-bounds read that is not a stack running out stays a trap.
    ("wild", "COMPONENT_TRAP"),
];

#[test]
fn faults_in_a_tool_fail_only_that_call() {
    let dir = tempfile::tempdir().unwrap();
    let world = fault_world(dir.path());
    for (kind, code) in KINDS {
        let result = call(&world, "self_fault", json!({ "kind": kind }));
        assert!(result.is_error, "{kind}: {result:?}");
        assert_eq!(result.code.as_deref(), Some(code), "{kind}: {}", result.text());
        assert!(
            result.text().contains("fixture_counter_tool"),
            "{kind} names the component: {}",
            result.text()
        );
        assert_eq!(
            call(&world, "ok", json!({})).text(),
            "ok",
            "the world serves after {kind}"
        );
    }
}

#[test]
fn faults_in_a_provider_fail_only_that_call_and_name_the_provider() {
    let dir = tempfile::tempdir().unwrap();
    let world = fault_world(dir.path());
    for (kind, code) in KINDS {
        let result = call(&world, "provider_fault", json!({ "kind": kind }));
        assert!(result.is_error, "{kind}: {result:?}");
        assert_eq!(result.code.as_deref(), Some(code), "{kind}: {}", result.text());
        assert!(
            result.text().contains("component fixture_counter "),
            "{kind} is blamed on the provider: {}",
            result.text()
        );
        assert_eq!(
            call(&world, "ok", json!({})).text(),
            "ok",
            "the world serves after {kind}"
        );
    }
    let trap = call(&world, "provider_fault", json!({ "kind": "trap" }));
    assert!(
        trap.text().contains("counter provider panicked on purpose"),
        "the panic message is reported: {}",
        trap.text()
    );
}

#[test]
fn a_call_past_the_instance_capacity_fails_as_such_and_frees_what_it_held() {
    // Room for a read (tool-fs + fs-local), not for the chain a bash call reaches.
    let options = seam_host::RuntimeOptions { max_instances: 3 };
    let runtime = seam_host::Runtime::with_options(options).expect("a small runtime starts");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "hello\n").unwrap();
    let file = seam_host::WorldFile::parse(
        "tools = [\"tool-bash\", \"tool-fs\"]\n[providers]\nsubprocess = \"subprocess-local\"\n\
         shell = \"bash-local\"\nfs = \"fs-local\"\njobs = \"jobs-local\"\npolicy = \"sandbox-policy\"\n\
         approval = \"approval-never\"\n",
        "capacity test",
        dir.path(),
    )
    .unwrap();
    let world = seam_host::World::load(&runtime, file, Some(dir.path())).expect("the world loads");
    for _ in 0..3 {
        let full = call(&world, "bash", json!({ "command": "echo hi" }));
        assert_eq!(full.code.as_deref(), Some("WORLD_AT_CAPACITY"), "{}", full.text());
        assert!(full.text().contains("too many calls in flight"), "{}", full.text());
        // The slots the refused call held are free again.
        let read = call(&world, "read", json!({ "file_path": "a.txt" }));
        assert!(!read.is_error, "{}", read.text());
        assert!(read.text().contains("hello"), "{}", read.text());
    }
}

#[test]
fn every_call_starts_in_a_fresh_lane_even_when_its_lane_was_built_ahead() {
    let dir = tempfile::tempdir().unwrap();
    let world = fault_world(dir.path());
    for round in 0..6 {
        // After a call without a fault the tool's next lane is built ahead of the next call;
        // after a fault it is built by the call. Neither may carry anything over.
        if round == 3 {
            let fault = call(&world, "provider_fault", json!({ "kind": "trap" }));
            assert_eq!(fault.code.as_deref(), Some("COMPONENT_TRAP"), "{}", fault.text());
        }
        let result = call(&world, "lane_freshness", json!({}));
        assert_eq!(result.text(), "calls=1 live_at_start=0", "call {round}");
        // Time for the next lane to be built off the caller's path.
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The epoch that checks guest time rests while no lane runs guest code. A runaway loop in a
/// call after such a rest is stopped all the same, in a lane built ahead of the call (after the
/// call without a fault) and in one the call builds (after the fault).
#[test]
fn a_runaway_loop_after_the_world_sat_idle_is_stopped() {
    let dir = tempfile::tempdir().unwrap();
    // A runtime of its own: the other tests' calls keep the shared one's epoch awake.
    let options = seam_host::RuntimeOptions { max_instances: 256 };
    let runtime = seam_host::Runtime::with_options(options).unwrap();
    let toml = format!(
        "tools = [{:?}]\n[providers]\ncounter = {:?}\n[limits]\nguest_time_ms = 500\n",
        fixture("fixture-counter-tool").display().to_string(),
        fixture("fixture-counter").display().to_string()
    );
    let file = seam_host::WorldFile::parse(&toml, "idle world", dir.path()).unwrap();
    let world = std::sync::Arc::new(seam_host::World::load(&runtime, file, Some(dir.path())).unwrap());
    assert_eq!(call(&world, "ok", json!({})).text(), "ok");
    for kind in ["spin", "provider spin"] {
        // Longer than the epoch's idle ticks: it has parked.
        std::thread::sleep(std::time::Duration::from_millis(600));
        let (sent, answer) = std::sync::mpsc::channel();
        let calling = world.clone();
        let (tool, args) = match kind {
            "spin" => ("self_fault", json!({ "kind": "spin" })),
            _ => ("provider_fault", json!({ "kind": "spin" })),
        };
        std::thread::spawn(move || sent.send(call(&calling, tool, args)));
        let result = answer
            .recv_timeout(std::time::Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("{kind}: the loop was never stopped"));
        assert_eq!(
            result.code.as_deref(),
            Some("COMPONENT_TIMEOUT"),
            "{kind}: {}",
            result.text()
        );
    }
}
