//! Calls run in lanes of their own: a slow call never delays a fast one.

use crate::common::*;
use std::time::{Duration, Instant};

#[test]
fn a_five_second_call_does_not_delay_a_quick_one_issued_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let world = default_world(dir.path());
    std::thread::scope(|scope| {
        let slow = scope.spawn(|| bash(&world, "sleep 5; echo slow"));
        std::thread::sleep(Duration::from_millis(200));
        let start = Instant::now();
        let quick = bash(&world, "echo quick");
        let quick_took = start.elapsed();
        assert_eq!(quick.text(), "quick");
        assert!(
            quick_took < Duration::from_secs(1),
            "the quick call waited {quick_took:?}"
        );
        assert_eq!(slow.join().unwrap().text(), "slow");
    });
}
