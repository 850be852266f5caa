//! Assembles a [`Process`]: pipes, reader threads, the reaper, then the launch itself.
//!
//! Every thread is started before the program is launched, so a failure to start one leaves
//! nothing running; after a failed launch the threads end on their own (their pipes close).

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;

use super::collect::{self, CollectBuffer};
use super::error::ProcessError;
use super::handle::{OutputEnd, Process};
use super::launch::launch;
use super::pipe_reader::PipeReader;
use super::reaper::{ExitLink, start_reaper};
use super::spec::{OutputSpec, SpawnSpec, StdinSpec, Stream};
use super::spill::{self, SpillWriter};
use super::stdin::{self, StdinPipe};
use super::wiring::wire;

pub(super) fn start(id: u64, mut spec: SpawnSpec) -> Result<Process, ProcessError> {
    spec.validate()?;
    let (child_stdio, host) = wire(&spec)?;
    let spill_dir = spill_dir_for(&spec)?;
    let mut drains = Vec::new();
    let stdout = output_end(
        Stream::Stdout,
        &spec.stdout,
        host.stdout,
        spill_dir.as_deref(),
        &mut drains,
    )?;
    let stderr = output_end(
        Stream::Stderr,
        &spec.stderr,
        host.stderr,
        spill_dir.as_deref(),
        &mut drains,
    )?;
    let stdin = match (std::mem::take(&mut spec.stdin), host.stdin) {
        (StdinSpec::Pipe, sink) => StdinPipe::new(sink),
        (StdinSpec::Bytes(bytes), Some(sink)) => {
            stdin::feed_in_background(sink, bytes).map_err(ProcessError::io("starting the stdin writer"))?;
            StdinPipe::new(None)
        }
        _ => StdinPipe::new(None),
    };
    let exit = ExitLink::new();
    let reaper = start_reaper(Arc::clone(&exit), drains).map_err(ProcessError::io("starting the process reaper"))?;

    let launched = launch(&spec, child_stdio).inspect_err(|_| {
        if let Some(dir) = &spill_dir {
            // Nothing was written yet; do not leave empty spill files behind.
            let _ = std::fs::remove_dir_all(dir);
        }
    })?;
    reaper.deliver(launched.supervisor);
    Ok(Process {
        id,
        pid: launched.program_pid,
        exit,
        stdin,
        stdout,
        stderr,
    })
}

/// One private directory per process, shared by its spilled streams.
fn spill_dir_for(spec: &SpawnSpec) -> Result<Option<PathBuf>, ProcessError> {
    let spills = [&spec.stdout, &spec.stderr]
        .into_iter()
        .any(|output| matches!(output, OutputSpec::Collect(collect) if collect.spill.is_some()));
    if !spills {
        return Ok(None);
    }
    spill::create_private_dir()
        .map(Some)
        .map_err(ProcessError::io("creating the spill directory"))
}

fn output_end(
    stream: Stream,
    spec: &OutputSpec,
    host_end: Option<File>,
    spill_dir: Option<&Path>,
    drains: &mut Vec<JoinHandle<()>>,
) -> Result<OutputEnd, ProcessError> {
    let Some(source) = host_end else {
        return Ok(OutputEnd::Elsewhere);
    };
    let OutputSpec::Collect(collect_spec) = spec else {
        return Ok(OutputEnd::Piped(PipeReader::new(source)));
    };
    let spill = match (collect_spec.spill, spill_dir) {
        (Some(limit), Some(dir)) => {
            Some(SpillWriter::create(dir, stream, limit).map_err(ProcessError::io("creating a spill file"))?)
        }
        _ => None,
    };
    let spill_path = spill.as_ref().map(|spill| spill.path().to_path_buf());
    let buffer = Arc::new(CollectBuffer::new(collect_spec, spill_path));
    let drain = collect::start_drain(source, Arc::clone(&buffer), spill)
        .map_err(ProcessError::io("starting an output reader"))?;
    drains.push(drain);
    Ok(OutputEnd::Collected(buffer))
}
