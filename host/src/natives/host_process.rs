//! seam:host/process over the native process shim.

use super::bindings::natives::seam::host::process as wit;
use super::process::{self, Farewell, Process, ProcessError};
use super::sandbox_launch::which::is_executable_file;
use crate::lane::Lane;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use wasmtime::Result;
use wasmtime::component::Resource;

/// A provider's handle to a process. Dropping it ends the tree unless it was detached.
pub struct ChildHandle {
    process: Arc<Process>,
    detached: bool,
}

fn error(e: ProcessError) -> wit::Error {
    wit::Error {
        code: e.code().to_string(),
        message: e.to_string(),
    }
}

fn output(o: wit::Output) -> process::OutputSpec {
    match o {
        wit::Output::Null => process::OutputSpec::Null,
        wit::Output::Inherit => process::OutputSpec::Inherit,
        wit::Output::Pipe => process::OutputSpec::Pipe,
        wit::Output::Merge => process::OutputSpec::Merge,
        wit::Output::Collect(c) => process::OutputSpec::Collect(process::CollectSpec {
            tail_bytes: c.tail_bytes as usize,
            head_bytes: c.head_bytes as usize,
            spill: c.spill,
        }),
    }
}

fn stream(s: wit::Stream) -> process::Stream {
    match s {
        wit::Stream::Stdout => process::Stream::Stdout,
        wit::Stream::Stderr => process::Stream::Stderr,
    }
}

fn outcome(o: process::Outcome) -> wit::Outcome {
    wit::Outcome {
        exit_code: o.exit_code,
        signal: o.signal,
        left_running: o.left_running,
    }
}

impl Lane {
    fn child(&self, handle: &Resource<ChildHandle>) -> Result<Arc<Process>> {
        Ok(self.table.get(handle)?.process.clone())
    }
}

impl wit::Host for Lane {
    fn spawn(&mut self, spec: wit::SpawnSpec) -> Result<Result<Resource<ChildHandle>, wit::Error>> {
        let spec = process::SpawnSpec {
            argv: spec.argv,
            cwd: PathBuf::from(spec.cwd),
            env: spec.env,
            stdin: match spec.stdin {
                wit::Input::Null => process::StdinSpec::Null,
                wit::Input::Pipe => process::StdinSpec::Pipe,
                wit::Input::Bytes(b) => process::StdinSpec::Bytes(b),
            },
            stdout: output(spec.stdout),
            stderr: output(spec.stderr),
            grace: Duration::from_millis(spec.grace_ms.into()),
            private_tmp: spec.private_tmp,
        };
        // Logged here, where a disabled level costs nothing, not by the provider across a seam.
        tracing::debug!(component = self.current_name(), program = ?spec.argv.first(), cwd = ?spec.cwd, "spawn");
        let host = self.linked.host.clone();
        match self.blocking(|| host.processes.spawn(spec)) {
            Ok(process) => {
                // A cancelled call must not leave its processes running, nor its lane waiting.
                self.call.cancel.register(&process);
                Ok(Ok(self.table.push(ChildHandle {
                    process,
                    detached: false,
                })?))
            }
            Err(e) => Ok(Err(error(e))),
        }
    }

    fn attach(&mut self, id: u64) -> Result<Result<Resource<ChildHandle>, wit::Error>> {
        match self.linked.host.processes.get(id) {
            Some(process) => Ok(Ok(self.table.push(ChildHandle {
                process,
                detached: true,
            })?)),
            None => Ok(Err(wit::Error {
                code: "PROCESS_UNKNOWN".into(),
                message: format!("no process with id {id} in this host"),
            })),
        }
    }

    fn environment(&mut self) -> Result<Vec<(String, String)>> {
        Ok(self.linked.host.environment.clone())
    }

    fn first_executable(&mut self, candidates: Vec<String>) -> Result<Option<u32>> {
        let found = candidates.iter().position(|path| is_executable_file(Path::new(path)));
        Ok(found.and_then(|index| u32::try_from(index).ok()))
    }

    fn is_directory(&mut self, path: String) -> Result<bool> {
        Ok(std::fs::metadata(path).is_ok_and(|m| m.is_dir()))
    }
}

impl wit::HostChild for Lane {
    fn id(&mut self, this: Resource<ChildHandle>) -> Result<u64> {
        Ok(self.child(&this)?.id())
    }

    fn pid(&mut self, this: Resource<ChildHandle>) -> Result<u32> {
        Ok(self.child(&this)?.pid())
    }

    fn write_stdin(&mut self, this: Resource<ChildHandle>, data: Vec<u8>) -> Result<Result<(), wit::Error>> {
        let child = self.child(&this)?;
        Ok(self.blocking(|| child.write_stdin(&data)).map_err(error))
    }

    fn close_stdin(&mut self, this: Resource<ChildHandle>) -> Result<()> {
        self.child(&this)?.close_stdin();
        Ok(())
    }

    fn read_from(
        &mut self,
        this: Resource<ChildHandle>,
        which: wit::Stream,
        from_byte: u64,
        max_bytes: u32,
    ) -> Result<Result<wit::Chunk, wit::Error>> {
        let chunk = self
            .child(&this)?
            .read_from(stream(which), from_byte, max_bytes as usize);
        Ok(chunk.map_err(error).map(|c| wit::Chunk {
            data: c.data,
            start: c.start,
            next: c.next,
            lossy: c.lossy,
            spill_path: c.spill_path.map(|p| p.display().to_string()),
            spilled_bytes: c.spilled_bytes,
            eof: c.eof,
        }))
    }

    fn read_text_from(
        &mut self,
        this: Resource<ChildHandle>,
        which: wit::Stream,
        from_byte: u64,
        max_bytes: u32,
    ) -> Result<Result<wit::TextChunk, wit::Error>> {
        let read = self
            .child(&this)?
            .read_text_from(stream(which), from_byte, max_bytes as usize);
        Ok(read.map_err(error).map(|c| wit::TextChunk {
            text: c.text,
            start: c.start,
            next: c.next,
            lossy: c.lossy,
            spill_path: c.spill_path.map(|p| p.display().to_string()),
            spilled_bytes: c.spilled_bytes,
            eof: c.eof,
            replaced: c.replaced,
        }))
    }

    fn head(&mut self, this: Resource<ChildHandle>, which: wit::Stream) -> Result<Result<Vec<u8>, wit::Error>> {
        Ok(Ok(self.child(&this)?.head(stream(which))))
    }

    fn collected_text(
        &mut self,
        this: Resource<ChildHandle>,
        which: wit::Stream,
    ) -> Result<Result<wit::CollectedText, wit::Error>> {
        let collected = self.child(&this)?.collected_text(stream(which));
        Ok(collected.map_err(error).map(|c| wit::CollectedText {
            head: c.text.head,
            tail: c.text.tail,
            total_bytes: c.text.total_bytes,
            dropped_bytes: c.text.dropped_bytes,
            replaced: c.text.replaced,
            spill_path: c.spill_path.map(|p| p.display().to_string()),
            spilled_bytes: c.spilled_bytes,
        }))
    }

    fn read_pipe(
        &mut self,
        this: Resource<ChildHandle>,
        which: wit::Stream,
        max_bytes: u32,
        timeout_ms: u32,
    ) -> Result<Result<wit::PipeRead, wit::Error>> {
        let child = self.child(&this)?;
        let timeout = Duration::from_millis(timeout_ms.into());
        let read = self.blocking(|| child.read_pipe(stream(which), max_bytes as usize, timeout));
        Ok(read.map_err(error).map(|r| wit::PipeRead {
            data: r.data,
            eof: r.eof,
        }))
    }

    fn read_pipe_text(
        &mut self,
        this: Resource<ChildHandle>,
        which: wit::Stream,
        max_bytes: u32,
        timeout_ms: u32,
    ) -> Result<Result<wit::PipeText, wit::Error>> {
        let child = self.child(&this)?;
        let timeout = Duration::from_millis(timeout_ms.into());
        let read = self.blocking(|| child.read_pipe_text(stream(which), max_bytes as usize, timeout));
        Ok(read.map_err(error).map(|r| wit::PipeText {
            text: r.text,
            eof: r.eof,
            replaced: r.replaced,
        }))
    }

    fn wait(&mut self, this: Resource<ChildHandle>, timeout_ms: Option<u32>) -> Result<Option<wit::Outcome>> {
        let child = self.child(&this)?;
        let timeout = timeout_ms.map(|ms| Duration::from_millis(ms.into()));
        Ok(self.blocking(|| child.wait(timeout)).map(outcome))
    }

    fn terminate(&mut self, this: Resource<ChildHandle>) -> Result<wit::Outcome> {
        let child = self.child(&this)?;
        Ok(outcome(self.blocking(|| child.terminate())))
    }

    fn detach(&mut self, this: Resource<ChildHandle>) -> Result<()> {
        let handle = self.table.get_mut(&this)?;
        handle.detached = true;
        // Detached processes outlive the call (background jobs): cancelling it leaves them be.
        let id = handle.process.id();
        self.call.cancel.release(id);
        Ok(())
    }

    fn detach_until_idle(
        &mut self,
        this: Resource<ChildHandle>,
        idle_ms: u32,
        farewell: Option<wit::Farewell>,
    ) -> Result<()> {
        let id = self.table.get(&this)?.process.id();
        wit::HostChild::detach(self, this)?;
        let idle = Duration::from_millis(idle_ms.into());
        let farewell = farewell.map(|farewell| Farewell {
            stdin: farewell.stdin,
            wait: Duration::from_millis(farewell.wait_ms.into()),
        });
        self.linked.host.processes.expire_when_idle(id, idle, farewell);
        Ok(())
    }

    fn drop(&mut self, this: Resource<ChildHandle>) -> Result<()> {
        let handle = self.table.delete(this)?;
        let processes = &self.linked.host.processes;
        match handle.detached {
            true => processes.released(handle.process.id()),
            false => processes.forget(handle.process.id()),
        }
        Ok(())
    }
}
