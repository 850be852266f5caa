//! seam:host/fsio over the native file shim. Every operation runs as blocking host work, so
//! time spent in the kernel (an fsync, waiting for a target's lock) is not guest time.

use super::bindings::natives::seam::host::fsio as wit;
use super::fsio::{self, FsioError};
use crate::lane::Lane;
use std::path::PathBuf;
use std::time::Instant;
use wasmtime::Result;
use wasmtime::component::{Linker, WasmList};

/// The name bindgen defines `atomic-write` under, and this module redefines it under.
const FSIO: &str = "seam:host/fsio@0.1.0";

/// Redefine `atomic-write` (after bindgen's definitions) to publish the bytes straight from
/// the caller's memory: bindgen's version copies them into a `Vec` first, which for a 1 MB
/// file is a tenth of a millisecond and a megabyte allocated and freed per write.
pub(crate) fn define_borrowing_atomic_write(linker: &mut Linker<Lane>) -> Result<()> {
    linker.allow_shadowing(true);
    let defined = linker.instance(FSIO)?.func_wrap(
        "atomic-write",
        |mut store: wasmtime::StoreContextMut<'_, Lane>,
         (path, data, mode, expected): (String, WasmList<u8>, Option<u32>, Option<wit::Expect>)| {
            let host = store.data().linked.host.clone();
            let started = Instant::now();
            let written = publish(&host, &path, data.as_le_slice(&store), mode, expected);
            store.data_mut().count_blocked(started.elapsed());
            Ok((written,))
        },
    );
    linker.allow_shadowing(false);
    defined
}

fn publish(
    host: &super::HostState,
    path: &str,
    data: &[u8],
    mode: Option<u32>,
    expected: Option<wit::Expect>,
) -> Result<wit::Written, wit::Error> {
    let expect = expected.map(|e| match e {
        wit::Expect::Absent => fsio::Expect::Absent,
        wit::Expect::Version(version) => fsio::Expect::Version(version),
    });
    let written = host.fsio.atomic_write(path, data, mode, expect.as_ref());
    written.map_err(error).map(|w| wit::Written {
        metadata: metadata(w.metadata),
        created: w.created,
    })
}

fn error(e: FsioError) -> wit::Error {
    wit::Error {
        code: e.code().to_string(),
        message: e.to_string(),
    }
}

/// Paths cross the boundary as strings; a name that is not UTF-8 cannot be named by a caller.
fn path_string(path: PathBuf) -> Result<String, wit::Error> {
    path.into_os_string().into_string().map_err(|raw| wit::Error {
        code: "FSIO_INVALID_PATH".into(),
        message: format!("{}: not UTF-8", PathBuf::from(raw).display()),
    })
}

fn kind(kind: fsio::Kind) -> wit::Kind {
    match kind {
        fsio::Kind::File => wit::Kind::File,
        fsio::Kind::Dir => wit::Kind::Dir,
        fsio::Kind::Symlink => wit::Kind::Symlink,
        fsio::Kind::Fifo => wit::Kind::Fifo,
        fsio::Kind::CharDevice => wit::Kind::CharDevice,
        fsio::Kind::BlockDevice => wit::Kind::BlockDevice,
        fsio::Kind::Socket => wit::Kind::Socket,
        fsio::Kind::Other => wit::Kind::Other,
    }
}

fn metadata(meta: fsio::Metadata) -> wit::Metadata {
    wit::Metadata {
        kind: kind(meta.kind),
        version: meta.version(),
        dev: meta.dev,
        ino: meta.ino,
        size: meta.size,
        mtime_ns: meta.mtime_ns,
        ctime_ns: meta.ctime_ns,
        mode: meta.mode,
    }
}

fn contents(contents: fsio::Contents) -> wit::Contents {
    wit::Contents {
        data: contents.data,
        metadata: metadata(contents.metadata),
    }
}

impl wit::Host for Lane {
    fn canonicalize(&mut self, path: String) -> Result<Result<String, wit::Error>> {
        Ok(self
            .blocking(|| fsio::canonicalize(&path))
            .map_err(error)
            .and_then(path_string))
    }

    fn stat(&mut self, path: String) -> Result<Result<wit::Metadata, wit::Error>> {
        Ok(self.blocking(|| fsio::stat(&path)).map(metadata).map_err(error))
    }

    fn lstat(&mut self, path: String) -> Result<Result<wit::Metadata, wit::Error>> {
        Ok(self.blocking(|| fsio::lstat(&path)).map(metadata).map_err(error))
    }

    fn read(&mut self, path: String, max_bytes: u64) -> Result<Result<wit::Contents, wit::Error>> {
        Ok(self
            .blocking(|| fsio::read(&path, max_bytes))
            .map(contents)
            .map_err(error))
    }

    fn read_text(&mut self, path: String, max_bytes: u64) -> Result<Result<wit::Text, wit::Error>> {
        let read = self.blocking(|| fsio::read_text(&path, max_bytes));
        Ok(read.map_err(error).map(|text| wit::Text {
            content: text.content,
            encoding: match text.encoding {
                fsio::TextEncoding::Utf8 => wit::TextEncoding::Utf8,
                fsio::TextEncoding::Utf16(fsio::ByteOrder::Little) => wit::TextEncoding::Utf16Le,
                fsio::TextEncoding::Utf16(fsio::ByteOrder::Big) => wit::TextEncoding::Utf16Be,
            },
            metadata: metadata(text.metadata),
        }))
    }

    fn read_lines(
        &mut self,
        path: String,
        max_bytes: u64,
        first: u64,
        count: u32,
    ) -> Result<Result<wit::TextLines, wit::Error>> {
        let read = self.blocking(|| fsio::read_lines(&path, max_bytes, first, count));
        Ok(read.map_err(error).map(|lines| wit::TextLines {
            content: lines.content,
            more: lines.more,
            line_count: lines.line_count,
            metadata: metadata(lines.metadata),
        }))
    }

    fn read_range(&mut self, path: String, offset: u64, max_bytes: u32) -> Result<Result<wit::Contents, wit::Error>> {
        let read = self.blocking(|| fsio::read_range(&path, offset, max_bytes));
        Ok(read.map(contents).map_err(error))
    }

    fn list_dir(&mut self, path: String) -> Result<Result<Vec<wit::DirEntry>, wit::Error>> {
        let entries = self.blocking(|| fsio::list_dir(&path));
        Ok(entries.map_err(error).map(|entries| {
            entries
                .into_iter()
                .map(|e| wit::DirEntry {
                    name: e.name,
                    kind: kind(e.kind),
                })
                .collect()
        }))
    }

    /// Never called: [`define_borrowing_atomic_write`] shadows this definition. Should the
    /// two names ever part (a new fsio version), a write traps here instead of quietly
    /// taking the copying path.
    fn atomic_write(
        &mut self,
        _path: String,
        _data: Vec<u8>,
        _mode: Option<u32>,
        _expected: Option<wit::Expect>,
    ) -> Result<Result<wit::Written, wit::Error>> {
        Err(wasmtime::format_err!(
            "{FSIO} atomic-write reached bindgen's definition, which the host replaces"
        ))
    }

    fn mkdir(&mut self, path: String) -> Result<Result<(), wit::Error>> {
        Ok(self.blocking(|| fsio::mkdir(&path)).map_err(error))
    }

    fn remove(&mut self, path: String) -> Result<Result<(), wit::Error>> {
        Ok(self.blocking(|| fsio::remove(&path)).map_err(error))
    }

    fn is_within(&mut self, root: String, path: String) -> Result<Result<bool, wit::Error>> {
        Ok(self.blocking(|| fsio::is_within(&root, &path)).map_err(error))
    }

    fn temp_dir(&mut self) -> Result<String> {
        Ok(fsio::temp_dir().display().to_string())
    }
}
