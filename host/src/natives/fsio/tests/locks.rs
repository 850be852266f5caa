use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::super::locks::TargetLocks;

#[test]
fn one_holder_per_path_and_other_paths_are_free() {
    let locks = Arc::new(TargetLocks::default());
    let held = locks.lock(Path::new("/t/a"));
    // Another path is not blocked.
    drop(locks.lock(Path::new("/t/b")));

    let acquired = Arc::new(AtomicBool::new(false));
    let waiter = {
        let (locks, acquired) = (locks.clone(), acquired.clone());
        std::thread::spawn(move || {
            let _second = locks.lock(Path::new("/t/a"));
            acquired.store(true, Ordering::SeqCst);
        })
    };
    std::thread::sleep(Duration::from_millis(100));
    assert!(!acquired.load(Ordering::SeqCst), "the second writer waits");
    drop(held);
    waiter.join().unwrap();
    assert!(acquired.load(Ordering::SeqCst));
}
