//! One query at a time per connection, across concurrent lanes: a lease in seam:host/state
//! taken with compare-and-swap. Waiters sleep in the host (`wait-change`), not in guest time.
//! A lease carries its expiry, renewed while its holder waits, so a lane that trapped
//! mid-query wedges the connection for at most `HOLD_MS`; whoever takes over an expired lease
//! learns it, because that connection's protocol state may be torn.

use std::cell::{Cell, RefCell};

use crate::bindings::exports::seam::lsp::lsp::Error;
use crate::bindings::seam::host::state;
use crate::clock::{left, now_ms};
use crate::errors;

/// How long a lease holds without renewal: longer than any stretch of guest work between two
/// waits (a lane's guest time is bounded well below it).
const HOLD_MS: u64 = 30_000;
/// How often a waiting holder renews.
const RENEW_MS: u64 = 5_000;

pub struct Lease {
    key: String,
    nonce: u64,
    value: RefCell<Vec<u8>>,
    renewed_ms: Cell<u64>,
    /// The previous holder's lease had expired: it never finished.
    pub took_over: bool,
}

/// A nonce no other lane holds: 64 random bits (the hasher's keys come from the platform's
/// random source), so taking a lease costs no extra state round trip for a counter.
fn unique() -> u64 {
    use std::hash::BuildHasher;
    std::collections::hash_map::RandomState::new().hash_one(now_ms())
}

fn expiry(value: &[u8]) -> u64 {
    std::str::from_utf8(value)
        .ok()
        .and_then(|v| v.rsplit(':').next()?.parse().ok())
        .unwrap_or(0)
}

impl Lease {
    /// Take the lease `name`, waiting up to `wait_ms` for its holder.
    pub fn acquire(name: &str, wait_ms: u64) -> Result<Self, Error> {
        let key = format!("lease/{name}");
        let nonce = unique();
        let deadline = now_ms() + wait_ms;
        let mut current = state::get(&key);
        loop {
            let value = format!("{nonce}:{}", now_ms() + HOLD_MS).into_bytes();
            let took_over = current.as_deref().is_some_and(|held| expiry(held) < now_ms());
            if (current.is_none() || took_over) && state::compare_and_swap(&key, current.as_deref(), Some(&value)) {
                return Ok(Self {
                    key,
                    nonce,
                    value: RefCell::new(value),
                    renewed_ms: Cell::new(now_ms()),
                    took_over,
                });
            }
            if now_ms() >= deadline {
                return Err(errors::error(
                    errors::TIMEOUT,
                    format!("another query on {name} did not finish within {wait_ms} ms"),
                ));
            }
            let held_until = current.as_deref().map(expiry).unwrap_or(0);
            let wake = left(deadline.min(held_until.max(now_ms() + 1)));
            current = state::wait_change(&key, current.as_deref(), wake.max(1));
        }
    }

    /// Push the expiry out again when the last renewal is `RENEW_MS` old.
    pub fn keep(&self) {
        if now_ms() < self.renewed_ms.get() + RENEW_MS {
            return;
        }
        let value = format!("{}:{}", self.nonce, now_ms() + HOLD_MS).into_bytes();
        if state::compare_and_swap(&self.key, Some(&self.value.borrow()), Some(&value)) {
            self.value.replace(value);
            self.renewed_ms.set(now_ms());
        }
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        state::compare_and_swap(&self.key, Some(&self.value.borrow()), None);
    }
}
