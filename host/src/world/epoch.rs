//! The epoch ticker. Guest time limits are checked on each tick of the engine's epoch
//! (`Lane::on_epoch`), which only matters while some lane may run guest code. So lanes hold an
//! [`Awake`] while they may, and once none has for a while the ticker parks until one does:
//! a seam waiting for work (an MCP server between requests, a session between calls) wakes
//! no CPU, where a ticker that never stops wakes it 200 times a second.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::{self, Thread};
use std::time::Duration;
use wasmtime::{Engine, EngineWeak};

/// How often guest time limits are checked.
const TICK: Duration = Duration::from_millis(5);

/// Ticks with no lane awake before the ticker parks: calls back to back never wait for it to
/// wake, and a lone call wakes it with one `unpark`.
const IDLE_TICKS: u32 = 50;

/// A handle on the ticker; the ticker stops when the last handle is gone.
#[derive(Clone)]
pub(crate) struct Epoch(Arc<Handle>);

struct Handle {
    shared: Arc<Shared>,
    ticker: Thread,
}

struct Shared {
    /// Lanes that may run guest code now.
    awake: AtomicUsize,
    stopped: AtomicBool,
    /// Ticks made so far: what a test watches.
    #[cfg(test)]
    ticks: AtomicUsize,
}

/// Held by a lane while it may run guest code: the epoch ticks.
pub(crate) struct Awake(Epoch);

impl Epoch {
    /// Start ticking `engine`'s epoch.
    pub fn start(engine: &Engine) -> std::io::Result<Self> {
        let shared = Arc::new(Shared {
            awake: AtomicUsize::new(0),
            stopped: AtomicBool::new(false),
            #[cfg(test)]
            ticks: AtomicUsize::new(0),
        });
        let weak = engine.weak();
        let ticking = shared.clone();
        let thread = thread::Builder::new()
            .name("seam-epoch".into())
            .spawn(move || tick(&weak, &ticking))?;
        Ok(Self(Arc::new(Handle {
            shared,
            ticker: thread.thread().clone(),
        })))
    }

    /// Keep the epoch ticking until the returned guard is dropped.
    pub fn awake(&self) -> Awake {
        drop(Woken(&self.0));
        Awake(self.clone())
    }

    #[cfg(test)]
    fn ticks(&self) -> usize {
        self.0.shared.ticks.load(Ordering::Acquire)
    }
}

impl Awake {
    /// Run `work`, during which this lane runs no guest code, with the epoch free to rest.
    pub fn resting<R>(&self, work: impl FnOnce() -> R) -> R {
        let shared = &self.0.0;
        shared.shared.awake.fetch_sub(1, Ordering::AcqRel);
        // Awake again when the work ends, also by unwinding: the guard's own drop counts once.
        let _woken = Woken(shared);
        work()
    }
}

struct Woken<'a>(&'a Handle);

/// Counts a lane awake and wakes the ticker. One that is not parked only records the token:
/// an atomic swap, no system call.
impl Drop for Woken<'_> {
    fn drop(&mut self) {
        self.0.shared.awake.fetch_add(1, Ordering::AcqRel);
        self.0.ticker.unpark();
    }
}

impl Drop for Awake {
    fn drop(&mut self) {
        self.0.0.shared.awake.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        self.shared.stopped.store(true, Ordering::Release);
        self.ticker.unpark();
    }
}

fn tick(engine: &EngineWeak, shared: &Shared) {
    let mut idle = 0;
    while !shared.stopped.load(Ordering::Acquire) {
        let Some(engine) = engine.upgrade() else {
            return;
        };
        engine.increment_epoch();
        drop(engine);
        #[cfg(test)]
        shared.ticks.fetch_add(1, Ordering::AcqRel);
        idle = if shared.awake.load(Ordering::Acquire) > 0 {
            0
        } else {
            idle + 1
        };
        if idle >= IDLE_TICKS {
            // Returns at once when a lane woke since the last park: no wake-up is lost between
            // the check above and here.
            thread::park();
            idle = 0;
        } else {
            thread::sleep(TICK);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    /// Until `ticking` says yes of the ticks made over one interval, or 5 s pass.
    fn settles(epoch: &Epoch, ticking: bool) -> bool {
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            let before = epoch.ticks();
            thread::sleep(TICK * (IDLE_TICKS + 10));
            if (epoch.ticks() > before) == ticking {
                return true;
            }
        }
        false
    }

    #[test]
    fn the_epoch_ticks_while_a_lane_is_awake_and_rests_when_none_is() {
        let engine = Engine::default();
        let epoch = Epoch::start(&engine).unwrap();
        assert!(settles(&epoch, false), "with no lane awake the ticker parks");
        let awake = epoch.awake();
        let before = epoch.ticks();
        thread::sleep(TICK * 20);
        assert!(epoch.ticks() > before, "an awake lane wakes the ticker");
        let second = epoch.awake();
        drop(awake);
        // Past the idle ticks twice over, it would have parked by now with no lane awake.
        thread::sleep(TICK * IDLE_TICKS * 2);
        let before = epoch.ticks();
        thread::sleep(TICK * 20);
        assert!(epoch.ticks() > before, "one lane still awake keeps it ticking");
        drop(second);
        assert!(settles(&epoch, false), "it parks again once the last lane rests");
    }

    #[test]
    fn the_ticker_ends_with_its_last_handle() {
        let engine = Engine::default();
        let epoch = Epoch::start(&engine).unwrap();
        let shared = epoch.0.shared.clone();
        assert!(settles(&epoch, false));
        drop(epoch);
        let deadline = Instant::now() + Duration::from_secs(5);
        // The thread holds the other reference until it returns.
        while Arc::strong_count(&shared) > 1 {
            assert!(Instant::now() < deadline, "the ticker thread ended");
            thread::sleep(TICK);
        }
    }
}
