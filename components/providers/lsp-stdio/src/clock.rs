//! Wall-clock milliseconds: deadlines and leases are compared across lanes, so they cannot be
//! per-lane monotonic instants.

pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or_default()
}

/// Milliseconds left until `deadline_ms`, as a host timeout.
pub fn left(deadline_ms: u64) -> u32 {
    left_at(deadline_ms, now_ms())
}

/// `left` as of `now` (a clock reading is a crossing: one is reused where it is fresh enough).
pub fn left_at(deadline_ms: u64, now: u64) -> u32 {
    deadline_ms.saturating_sub(now).min(u64::from(u32::MAX)) as u32
}
