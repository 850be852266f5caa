//! The job registry in seam:host/state: lanes are per call, jobs outlive calls.
//!
//! Keys: `next` (the last N handed out), `job/job-N` (a JSON [`Record`]), `noticed/job-N`
//! (its end was reported by `take-notices`), `released/<owner>`. Every read-modify-write is a
//! compare-and-swap, so concurrent lanes never lose an update.

use crate::bindings::exports::seam::jobs::jobs::Error;
use crate::bindings::seam::host::state;
use crate::errors;
use crate::record::{self, Ended, Record};

fn job_key(id: &str) -> String {
    format!("job/{id}")
}

pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or_default()
}

pub fn next_id() -> String {
    loop {
        let current = state::get("next");
        let n = current
            .as_deref()
            .and_then(|b| std::str::from_utf8(b).ok()?.parse::<u64>().ok())
            .unwrap_or(0)
            + 1;
        if state::compare_and_swap("next", current.as_deref(), Some(n.to_string().as_bytes())) {
            return format!("job-{n}");
        }
    }
}

fn encode(record: &Record) -> Vec<u8> {
    serde_json::to_vec(record).expect("a record serializes")
}

pub fn save(id: &str, record: &Record) {
    state::set(&job_key(id), &encode(record));
}

pub fn load(id: &str) -> Option<Record> {
    serde_json::from_slice(&state::get(&job_key(id))?).ok()
}

pub fn forget(id: &str) {
    state::delete(&job_key(id));
    state::delete(&format!("noticed/{id}"));
}

/// Records the end of a job unless an end is already recorded (the first seen wins); returns
/// the record as stored.
pub fn record_end(id: &str, ended: Ended) -> Option<Record> {
    loop {
        let current = state::get(&job_key(id))?;
        let mut record: Record = serde_json::from_slice(&current).ok()?;
        if record.ended.is_some() {
            return Some(record);
        }
        record.ended = Some(ended);
        if state::compare_and_swap(&job_key(id), Some(&current), Some(&encode(&record))) {
            return Some(record);
        }
    }
}

/// True exactly once per job: the first caller reports its end.
pub fn take_notice(id: &str) -> bool {
    state::compare_and_swap(&format!("noticed/{id}"), None, Some(b"1"))
}

pub fn release(owner: &str) {
    state::set(&format!("released/{owner}"), b"1");
}

/// Refuses a released owner before anything else.
pub fn check_live(owner: &str) -> Result<(), Error> {
    // Concatenated, not formatted: every bash call asks (its end notices), and the formatting
    // machinery is cold code in a lane's fresh instance.
    if state::get(&["released/", owner].concat()).is_some() {
        return Err(errors::error(
            errors::OWNER_NOT_LIVE,
            format!("agent {owner:?} was released"),
        ));
    }
    Ok(())
}

/// The job `id` if `owner` may use it: OWNER_NOT_LIVE, JOB_NOT_FOUND, FOREIGN_JOB.
pub fn fenced(owner: &str, id: &str) -> Result<Record, Error> {
    check_live(owner)?;
    let record = load(id).ok_or_else(|| errors::error(errors::NOT_FOUND, format!("no job {id}")))?;
    if record.owner != owner {
        return Err(errors::error(
            errors::FOREIGN_JOB,
            format!("job {id} belongs to another agent"),
        ));
    }
    Ok(record)
}

/// The jobs of `owner`, oldest first.
pub fn owned_by(owner: &str) -> Vec<(String, Record)> {
    let mut jobs: Vec<(String, Record)> = state::keys("job/")
        .into_iter()
        .filter_map(|key| {
            let id = key.strip_prefix("job/")?.to_owned();
            let record = load(&id)?;
            (record.owner == owner).then_some((id, record))
        })
        .collect();
    jobs.sort_by_key(|(id, _)| record::number(id));
    jobs
}
