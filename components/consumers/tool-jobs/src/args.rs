//! The arguments of each job tool.

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct List {}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Output {
    pub job_id: String,
    /// Byte offset to read from; none: from the start.
    pub offset: Option<u64>,
    pub max_bytes: Option<u32>,
    /// Wait up to this long for the job to end before reading.
    pub wait_ms: Option<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Kill {
    pub job_id: String,
}
