//! One query at a time per connection, across concurrent lanes: a lease in seam:host/state
//! taken with compare-and-swap. Waiters sleep in the host (`wait-change`), not in guest time.
//! A lease carries its expiry, renewed while its holder waits, so a lane that trapped
//! mid-query wedges the connection for at most `HOLD_MS`; whoever takes over an expired lease
//! learns it, because that connection's protocol state may be torn.

use std::cell::{Cell, RefCell};

use crate::bindings::exports::seam::lsp::lsp::Error;
use crate::bindings::seam::host::state;
use crate::clock::{left_at, now_ms};
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
fn unique(now: u64) -> u64 {
    use std::hash::BuildHasher;
    std::collections::hash_map::RandomState::new().hash_one(now)
}

/// A lease's value: `nonce:expiry`.
fn lease_value(nonce: u64, until_ms: u64) -> Vec<u8> {
    let mut value = String::with_capacity(41);
    seam_guest::text::push_decimal(&mut value, nonce, 0);
    value.push(':');
    seam_guest::text::push_decimal(&mut value, until_ms, 0);
    value.into_bytes()
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
        // The clock is read once per attempt: each reading is a crossing.
        let mut now = now_ms();
        let key = ["lease/", name].concat();
        let nonce = unique(now);
        let deadline = now + wait_ms;
        let mut current = state::get(&key);
        loop {
            let value = lease_value(nonce, now + HOLD_MS);
            let took_over = current.as_deref().is_some_and(|held| expiry(held) < now);
            if (current.is_none() || took_over) && state::compare_and_swap(&key, current.as_deref(), Some(&value)) {
                return Ok(Self {
                    key,
                    nonce,
                    value: RefCell::new(value),
                    renewed_ms: Cell::new(now),
                    took_over,
                });
            }
            if now >= deadline {
                return Err(errors::error(
                    errors::TIMEOUT,
                    format!("another query on {name} did not finish within {wait_ms} ms"),
                ));
            }
            let held_until = current.as_deref().map(expiry).unwrap_or(0);
            let wake = left_at(deadline.min(held_until.max(now + 1)), now);
            current = state::wait_change(&key, current.as_deref(), wake.max(1));
            now = now_ms();
        }
    }

    /// Push the expiry out again when the last renewal (as of `now`) is `RENEW_MS` old.
    pub fn keep(&self, now: u64) {
        if now < self.renewed_ms.get() + RENEW_MS {
            return;
        }
        let value = lease_value(self.nonce, now + HOLD_MS);
        if state::compare_and_swap(&self.key, Some(&self.value.borrow()), Some(&value)) {
            self.value.replace(value);
            self.renewed_ms.set(now);
        }
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        state::compare_and_swap(&self.key, Some(&self.value.borrow()), None);
    }
}
