//! Assembles a [`Process`]: pipes, the launch itself, and the watcher thread.
//!
//! The watcher is started once the launch request is on its way: waking a worker then costs
//! nothing the caller waits for, since a standby takes the request and starts the program
//! meanwhile. After a failed launch it ends on its own (its pipes close); if it cannot start,
//! the program it would have watched is terminated and reaped.

use std::fs::File;
use std::io;
use std::sync::Arc;

use super::collect::{CollectBuffer, Drain};
use super::error::ProcessError;
use super::handle::{OutputEnd, Process};
use super::launch::launch;
use super::pipe_reader::PipeReader;
use super::private_tmp::PrivateTmp;
use super::spawner::Spawner;
use super::spec::{OutputSpec, SpawnSpec, StdinSpec, Stream};
use super::spill::SpillDir;
use super::stdin::{self, StdinPipe};
use super::watcher::{ExitLink, start_watcher};
use super::wiring::wire;

pub(super) fn start(id: u64, mut spec: SpawnSpec, spawner: &Spawner) -> Result<Process, ProcessError> {
    spec.validate()?;
    let private_tmp = (spec.private_tmp.then(PrivateTmp::create).transpose())
        .map_err(ProcessError::io("creating a private temporary directory"))?;
    if let Some(tmp) = &private_tmp {
        tmp.set_in(&mut spec.env);
    }
    let (child_stdio, host) = wire(&spec)?;
    let spill_dir = Arc::new(SpillDir::default());
    let mut drains = Vec::new();
    let stdout = output_end(Stream::Stdout, &spec.stdout, host.stdout, &spill_dir, &mut drains);
    let stderr = output_end(Stream::Stderr, &spec.stderr, host.stderr, &spill_dir, &mut drains);
    let stdin = match (std::mem::take(&mut spec.stdin), host.stdin) {
        (StdinSpec::Pipe, sink) => StdinPipe::new(sink),
        (StdinSpec::Bytes(bytes), Some(sink)) => {
            stdin::feed_in_background(sink, bytes).map_err(ProcessError::io("starting the stdin writer"))?;
            StdinPipe::new(None)
        }
        _ => StdinPipe::new(None),
    };
    let exit = ExitLink::new(private_tmp);
    let mut watcher = None;
    let launched = launch(spawner, &spec, child_stdio, || {
        watcher = Some(start_watcher(Arc::clone(&exit), drains));
    })?;
    match watcher {
        Some(Ok(watcher)) => watcher.deliver(launched.supervisor, launched.finish),
        failed => {
            // Nobody would drain its output nor reap it: end it now.
            launched.abandon();
            let err = failed
                .and_then(Result::err)
                .unwrap_or_else(|| io::Error::other("it was never started"));
            return Err(ProcessError::io("starting the process watcher")(err));
        }
    }
    Ok(Process {
        id,
        pid: launched.program_pid,
        exit,
        stdin,
        stdout,
        stderr,
    })
}

fn output_end(
    stream: Stream,
    spec: &OutputSpec,
    host_end: Option<File>,
    spill_dir: &Arc<SpillDir>,
    drains: &mut Vec<Drain>,
) -> OutputEnd {
    let Some(source) = host_end else {
        return OutputEnd::Elsewhere;
    };
    let OutputSpec::Collect(collect_spec) = spec else {
        return OutputEnd::Piped(PipeReader::new(source));
    };
    let buffer = Arc::new(CollectBuffer::new(collect_spec));
    let spill = collect_spec.spill.map(|limit| (Arc::clone(spill_dir), limit));
    drains.push(Drain::new(stream, source, Arc::clone(&buffer), spill));
    OutputEnd::Collected(buffer)
}
