//! The subprocess seam and the host process shim share one vocabulary of stdio dispositions,
//! outcomes and reads; these conversions move values across, field for field.

use crate::bindings::seam::host::process as host;
use crate::bindings::seam::subprocess::types::{
    Chunk, Collect, CollectedText, Farewell, Input, Outcome, Output, PipeRead, PipeText, Stream, TextChunk,
};

impl From<Collect> for host::Collect {
    fn from(collect: Collect) -> Self {
        Self {
            tail_bytes: collect.tail_bytes,
            head_bytes: collect.head_bytes,
            spill: collect.spill,
        }
    }
}

impl From<Output> for host::Output {
    fn from(output: Output) -> Self {
        match output {
            Output::Null => Self::Null,
            Output::Inherit => Self::Inherit,
            Output::Pipe => Self::Pipe,
            Output::Collect(collect) => Self::Collect(collect.into()),
            Output::Merge => Self::Merge,
        }
    }
}

impl From<Input> for host::Input {
    fn from(input: Input) -> Self {
        match input {
            Input::Null => Self::Null,
            Input::Pipe => Self::Pipe,
            Input::Bytes(bytes) => Self::Bytes(bytes),
        }
    }
}

impl From<Stream> for host::Stream {
    fn from(stream: Stream) -> Self {
        match stream {
            Stream::Stdout => Self::Stdout,
            Stream::Stderr => Self::Stderr,
        }
    }
}

impl From<host::Outcome> for Outcome {
    fn from(outcome: host::Outcome) -> Self {
        Self {
            exit_code: outcome.exit_code,
            signal: outcome.signal,
            left_running: outcome.left_running,
        }
    }
}

impl From<host::Chunk> for Chunk {
    fn from(chunk: host::Chunk) -> Self {
        Self {
            data: chunk.data,
            start: chunk.start,
            next: chunk.next,
            lossy: chunk.lossy,
            spill_path: chunk.spill_path,
            spilled_bytes: chunk.spilled_bytes,
            eof: chunk.eof,
        }
    }
}

impl From<host::TextChunk> for TextChunk {
    fn from(chunk: host::TextChunk) -> Self {
        Self {
            text: chunk.text,
            start: chunk.start,
            next: chunk.next,
            lossy: chunk.lossy,
            spill_path: chunk.spill_path,
            spilled_bytes: chunk.spilled_bytes,
            eof: chunk.eof,
            replaced: chunk.replaced,
        }
    }
}

impl From<host::PipeRead> for PipeRead {
    fn from(read: host::PipeRead) -> Self {
        Self {
            data: read.data,
            eof: read.eof,
        }
    }
}

impl From<Farewell> for host::Farewell {
    fn from(farewell: Farewell) -> Self {
        Self {
            stdin: farewell.stdin,
            wait_ms: farewell.wait_ms,
        }
    }
}

impl From<host::PipeText> for PipeText {
    fn from(read: host::PipeText) -> Self {
        Self {
            text: read.text,
            eof: read.eof,
            replaced: read.replaced,
        }
    }
}

impl From<host::CollectedText> for CollectedText {
    fn from(text: host::CollectedText) -> Self {
        Self {
            head: text.head,
            tail: text.tail,
            total_bytes: text.total_bytes,
            dropped_bytes: text.dropped_bytes,
            replaced: text.replaced,
            spill_path: text.spill_path,
            spilled_bytes: text.spilled_bytes,
        }
    }
}
