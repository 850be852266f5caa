//! `jobs-local`: the jobs seam as a registry over detached processes. The registry lives in
//! seam:host/state and the processes in the host, both behind durable ids, so a job outlives
//! the call that started it; each call attaches to the watched process again through the seam
//! that started it (seam:shell or seam:subprocess). An end is recorded the first time a call
//! sees it.

mod errors;
mod record;
mod registry;
mod watched;

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:jobs-local;

            world jobs-local {
                import seam:shell/shell@0.1.0;
                import seam:subprocess/subprocess@0.1.0;
                import seam:host/state@0.1.0;
                export seam:jobs/jobs@0.1.0;
            }
        "#,
        // Dependencies first: shell uses seam:sandbox, the subprocess package refers to seam:host.
        path: [
            "../../../wit/sandbox",
            "../../../wit/host",
            "../../../wit/subprocess",
            "../../../wit/shell",
            "../../../wit/jobs",
        ],
        generate_all,
    });
}

use bindings::exports::seam::jobs::jobs::{Chunk, Error, Guest, JobInfo, StartRequest};

use crate::record::{Ended, Exit, Record};
use crate::watched::Watched;

/// Most output bytes one `output` call returns, whatever the caller asks.
const MAX_READ_BYTES: u32 = 1 << 20;
/// After the output ended, how long a read waits for the process itself to be reaped, so that
/// `eof` and the ended state arrive together.
const END_AFTER_EOF_MS: u32 = 1_000;

struct JobsLocal;

/// The record with its end filled in when the process has ended since the registry last looked.
fn refreshed(id: &str, record: Record) -> Record {
    if record.ended.is_some() {
        return record;
    }
    let exit = match Watched::attach(record.watch) {
        Ok(watched) => watched.wait(Some(0)),
        // The host no longer knows the process: it is gone, and how it ended is lost.
        Err(_) => Some(Exit {
            exit_code: None,
            killed: false,
        }),
    };
    end_with(id, record, exit)
}

/// The record with `exit` recorded as its end (the first end seen wins), or as it was.
fn end_with(id: &str, record: Record, exit: Option<Exit>) -> Record {
    match exit {
        Some(exit) => registry::record_end(id, Ended::from_exit(exit, registry::now_ms())).unwrap_or(record),
        None => record,
    }
}

impl Guest for JobsLocal {
    fn admit(owner: String) -> Result<(), Error> {
        registry::check_live(&owner)
    }

    fn start(request: StartRequest) -> Result<String, Error> {
        registry::check_live(&request.owner)?;
        if request.kind.trim().is_empty() || request.owner.is_empty() {
            return Err(errors::error(
                errors::INVALID_REQUEST,
                "a job needs a kind and an owner",
            ));
        }
        let watch = record::Watch::from(request.watch);
        // Registering a process nobody can find again would make a job that never ends.
        Watched::attach(watch)?;
        let id = registry::next_id();
        let label = match request.label.trim() {
            "" => request.command.clone().unwrap_or_else(|| request.kind.clone()),
            label => label.to_owned(),
        };
        registry::save(
            &id,
            &Record {
                kind: request.kind,
                label,
                owner: request.owner,
                command: request.command,
                watch,
                started_ms: registry::now_ms(),
                ended: None,
            },
        );
        Ok(id)
    }

    fn list_jobs(owner: String) -> Result<Vec<JobInfo>, Error> {
        registry::check_live(&owner)?;
        let jobs = registry::owned_by(&owner).into_iter();
        Ok(jobs.map(|(id, record)| refreshed(&id, record).info(&id)).collect())
    }

    fn output(owner: String, id: String, from_byte: u64, max_bytes: u32) -> Result<Chunk, Error> {
        let record = refreshed(&id, registry::fenced(&owner, &id)?);
        let watched = Watched::attach(record.watch)?;
        let mut chunk = watched.read(from_byte, max_bytes.clamp(1, MAX_READ_BYTES))?;
        let record = match record.ended {
            Some(_) => record,
            // The output ended; the process follows within moments (its supervisor reaps it).
            None if chunk.eof => end_with(&id, record, watched.wait(Some(END_AFTER_EOF_MS))),
            None => record,
        };
        // A program that closed its output but runs on has not ended.
        chunk.eof &= record.ended.is_some();
        Ok(chunk)
    }

    fn kill(owner: String, id: String) -> Result<JobInfo, Error> {
        let record = refreshed(&id, registry::fenced(&owner, &id)?);
        if record.ended.is_some() {
            return Ok(record.info(&id));
        }
        let exit = Watched::attach(record.watch)?.terminate();
        Ok(end_with(&id, record, Some(exit)).info(&id))
    }

    fn wait(owner: String, id: String, timeout_ms: Option<u32>) -> Result<JobInfo, Error> {
        let record = refreshed(&id, registry::fenced(&owner, &id)?);
        if record.ended.is_some() {
            return Ok(record.info(&id));
        }
        let exit = Watched::attach(record.watch)?.wait(timeout_ms);
        Ok(end_with(&id, record, exit).info(&id))
    }

    fn take_notices(owner: String) -> Result<Vec<JobInfo>, Error> {
        registry::check_live(&owner)?;
        let jobs = registry::owned_by(&owner).into_iter();
        let ended = jobs
            .map(|(id, record)| (refreshed(&id, record), id))
            .filter(|(record, id)| record.ended.is_some() && registry::take_notice(id));
        Ok(ended.map(|(record, id)| record.info(&id)).collect())
    }

    fn release(owner: String) -> u32 {
        registry::release(&owner);
        let mut killed = 0;
        for (id, record) in registry::owned_by(&owner) {
            let record = refreshed(&id, record);
            if record.ended.is_none()
                && let Ok(watched) = Watched::attach(record.watch)
            {
                watched.terminate();
                killed += 1;
            }
            registry::forget(&id);
        }
        killed
    }
}

bindings::export!(JobsLocal with_types_in bindings);
