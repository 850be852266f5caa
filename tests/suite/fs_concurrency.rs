//! Concurrent writers on one target: the per-target lock in the host makes the version check and
//! the publish one step, so exactly one writer of a version wins.

use crate::fs_support::*;
use serde_json::json;
use std::sync::{Arc, Barrier};

const WRITERS: usize = 8;

/// Run `work(i)` on WRITERS threads released together.
fn together<T: Send + 'static>(work: impl Fn(usize) -> T + Send + Sync + 'static) -> Vec<T> {
    let barrier = Arc::new(Barrier::new(WRITERS));
    let work = Arc::new(work);
    let handles: Vec<_> = (0..WRITERS)
        .map(|i| {
            let (barrier, work) = (barrier.clone(), work.clone());
            std::thread::spawn(move || {
                barrier.wait();
                work(i)
            })
        })
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).collect()
}

#[test]
fn writers_of_one_version_have_exactly_one_winner() {
    let (_dir, ws) = scratch();
    let world = Arc::new(probe_world(&["fs-local"], "read-only", "", &ws));
    let base = probe(&world, json!({"op": "write", "path": "f.txt", "content": "base"})).unwrap()["version"].clone();
    let results = together({
        let world = world.clone();
        move |i| {
            let args =
                json!({"op": "write", "path": "f.txt", "content": format!("writer {i}"), "replace_if_version": base});
            probe(&world, args).map_err(|(code, _)| code).map(|_| i)
        }
    });
    let winners: Vec<usize> = results.iter().filter_map(|r| r.as_ref().ok().copied()).collect();
    assert_eq!(winners.len(), 1, "{results:?}");
    assert!(
        results
            .iter()
            .filter_map(|r| r.as_ref().err())
            .all(|code| code == "FS_VERSION_MISMATCH"),
        "{results:?}"
    );
    assert_eq!(
        std::fs::read_to_string(ws.join("f.txt")).unwrap(),
        format!("writer {}", winners[0])
    );
}

/// Agents that all read the same version write at once. (One session's own write refreshes
/// its evidence, so writers of one session are not each other's conflicts.)
#[test]
fn tool_writes_of_sessions_that_read_one_version_have_exactly_one_winner() {
    let (_dir, ws) = scratch();
    std::fs::write(ws.join("f.txt"), "base").unwrap();
    let world = Arc::new(tool_world(&["fs-observation-policy", "fs-local"], "read-only", "", &ws));
    for i in 0..WRITERS {
        assert!(!call_as(&world, &format!("agent-{i}"), "read", json!({"file_path": "f.txt"})).is_error);
    }
    let results = together({
        let world = world.clone();
        move |i| {
            let args = json!({"file_path": "f.txt", "content": format!("writer {i}")});
            call_as(&world, &format!("agent-{i}"), "write", args).code
        }
    });
    assert_eq!(results.iter().filter(|code| code.is_none()).count(), 1, "{results:?}");
    assert_eq!(
        results
            .iter()
            .filter(|code| code.as_deref() == Some("FS_VERSION_MISMATCH"))
            .count(),
        WRITERS - 1
    );
}

#[test]
fn unconditional_edits_of_one_file_are_serialized() {
    let (_dir, ws) = scratch();
    let slots: String = (0..WRITERS).map(|i| format!("slot-{i}\n")).collect();
    std::fs::write(ws.join("f.txt"), &slots).unwrap();
    let world = Arc::new(probe_world(&["fs-local"], "read-only", "", &ws));
    let results = together({
        let world = world.clone();
        move |i| {
            probe(
                &world,
                json!({"op": "edit", "path": "f.txt", "old": format!("slot-{i}\n"), "new": format!("done-{i}\n")}),
            )
        }
    });
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    let expected: String = (0..WRITERS).map(|i| format!("done-{i}\n")).collect();
    assert_eq!(
        std::fs::read_to_string(ws.join("f.txt")).unwrap(),
        expected,
        "no edit was lost"
    );
}
