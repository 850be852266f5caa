//! Reusable threads for the per-process work that blocks (watchers, stdin feeders).
//!
//! Creating a thread and tearing it down (stack mapping, clone, unmapping) costs about as much as
//! all the rest of the host's side of a spawn, so a finished job's thread waits a while for
//! the next one instead of exiting.

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::Duration;

/// How long an idle thread waits for a job before it exits.
const IDLE_TIMEOUT: Duration = Duration::from_secs(10);
/// Idle threads kept at most; beyond, finished threads exit at once.
const MAX_IDLE: usize = 16;

type Job = Box<dyn FnOnce() + Send>;

struct IdleWorker {
    id: u64,
    jobs: SyncSender<Job>,
}

/// The idle workers; one pool serves the whole host.
struct Pool {
    idle: Mutex<Vec<IdleWorker>>,
    next_id: AtomicU64,
}

static POOL: Pool = Pool::new();

/// Runs `job` on an idle worker thread, or on a new one. An error means no thread could be
/// started and `job` was dropped without running.
pub(super) fn run(job: impl FnOnce() + Send + 'static) -> io::Result<()> {
    POOL.run(Box::new(job))
}

impl Pool {
    const fn new() -> Self {
        Self {
            idle: Mutex::new(Vec::new()),
            next_id: AtomicU64::new(0),
        }
    }

    fn run(&'static self, mut job: Job) -> io::Result<()> {
        loop {
            let Some(worker) = self.idle().pop() else {
                break;
            };
            // An idle worker's one-slot channel is empty, so this only fails if it is gone.
            match worker.jobs.try_send(job) {
                Ok(()) => return Ok(()),
                Err(TrySendError::Full(returned) | TrySendError::Disconnected(returned)) => job = returned,
            }
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (jobs_tx, jobs) = mpsc::sync_channel(1);
        thread::Builder::new()
            .name("proc-worker".to_owned())
            .spawn(move || self.work(id, job, &jobs_tx, &jobs))?;
        Ok(())
    }

    fn work(&self, id: u64, first: Job, jobs_tx: &SyncSender<Job>, jobs: &Receiver<Job>) {
        let mut job = first;
        loop {
            job();
            {
                let mut idle = self.idle();
                if idle.len() >= MAX_IDLE {
                    return;
                }
                idle.push(IdleWorker {
                    id,
                    jobs: jobs_tx.clone(),
                });
            }
            job = match jobs.recv_timeout(IDLE_TIMEOUT) {
                Ok(next) => next,
                Err(RecvTimeoutError::Timeout) => {
                    let mut idle = self.idle();
                    if let Some(at) = idle.iter().position(|worker| worker.id == id) {
                        idle.swap_remove(at);
                        return;
                    }
                    drop(idle);
                    // Taken off the idle list just now: a job is on its way.
                    match jobs.recv() {
                        Ok(next) => next,
                        Err(_) => return,
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return,
            };
        }
    }

    fn idle(&self) -> MutexGuard<'_, Vec<IdleWorker>> {
        self.idle.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::thread::{self, ThreadId};
    use std::time::{Duration, Instant};

    use super::Pool;

    fn run_and_name(pool: &'static Pool) -> ThreadId {
        let (tx, rx) = mpsc::channel();
        pool.run(Box::new(move || tx.send(thread::current().id()).expect("send")))
            .expect("run");
        rx.recv_timeout(Duration::from_secs(5)).expect("job ran")
    }

    fn idle_count(pool: &Pool) -> usize {
        pool.idle().len()
    }

    #[test]
    fn a_finished_worker_takes_the_next_job() {
        let pool: &'static Pool = Box::leak(Box::new(Pool::new()));
        let first = run_and_name(pool);
        let deadline = Instant::now() + Duration::from_secs(5);
        while idle_count(pool) == 0 {
            assert!(Instant::now() < deadline, "the worker never became idle");
            thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(run_and_name(pool), first);
        assert_ne!(first, thread::current().id());
    }
}
