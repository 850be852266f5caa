//! Collected streams (head, tail window, spill files), piped streams and merging.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::*;
use crate::natives::process::ProcessTable;

const LINES: u32 = 2000;

fn numbered_lines() -> Vec<u8> {
    (1..=LINES).flat_map(|i| format!("line{i}\n").into_bytes()).collect()
}

fn print_numbered_lines(stdout: OutputSpec) -> Arc<Process> {
    let mut spec = bash(&format!("for i in $(seq 1 {LINES}); do echo line$i; done"));
    spec.stdout = stdout;
    let process = ProcessTable::new().spawn(spec).expect("spawn");
    assert_eq!(finished(&process), exited(0));
    process
}

fn mode_of(path: &Path) -> u32 {
    fs::metadata(path).expect("metadata").permissions().mode() & 0o777
}

#[test]
fn tail_window_slides_and_head_is_kept() {
    let expected = numbered_lines();
    let total = expected.len() as u64;
    let process = print_numbered_lines(collect(100, 16, None));
    assert_eq!(process.total_bytes(Stream::Stdout), total);
    assert_eq!(process.head(Stream::Stdout), &expected[..16]);

    let chunk = process.read_from(Stream::Stdout, 0, usize::MAX).expect("read");
    assert!(chunk.lossy, "offset 0 slid out of the window");
    assert_eq!(chunk.start, total - 100);
    assert_eq!(chunk.data, &expected[expected.len() - 100..]);
    assert_eq!((chunk.next, chunk.eof, chunk.spill_path), (total, true, None));
    assert_eq!(chunk.spilled_bytes, 0);
}

#[test]
fn collected_text_is_the_head_and_the_tail_with_the_gap_counted() {
    let expected = String::from_utf8(numbered_lines()).expect("text");
    let total = expected.len() as u64;
    let process = print_numbered_lines(collect(100, 16, Some(1 << 20)));
    let text = process.collected_text(Stream::Stdout).expect("collected");
    assert_eq!(text.text.head, &expected[..16]);
    assert_eq!(text.text.tail, &expected[expected.len() - 100..]);
    assert_eq!((text.text.total_bytes, text.text.dropped_bytes), (total, total - 116));
    assert!(!text.text.replaced);
    let spill = text.spill_path.expect("the stream outgrew its window");
    assert_eq!(text.spilled_bytes, total);
    fs::remove_dir_all(spill.parent().expect("spill dir")).expect("clean up spill dir");

    // A stream that fits is all tail, and spills nothing.
    let process = print_numbered_lines(collect(1 << 20, 16, Some(1 << 20)));
    let text = process.collected_text(Stream::Stdout).expect("collected");
    assert_eq!(
        (text.text.head.as_str(), text.text.tail.as_str()),
        ("", expected.as_str())
    );
    assert_eq!(
        (text.text.dropped_bytes, text.spill_path, text.spilled_bytes),
        (0, None, 0)
    );
    let piped = ProcessTable::new()
        .spawn(SpawnSpec {
            stdout: OutputSpec::Pipe,
            ..bash("true")
        })
        .expect("spawn");
    assert_eq!(
        piped.collected_text(Stream::Stdout).map_err(|e| e.code()).err(),
        Some("PROCESS_STREAM_NOT_COLLECTED")
    );
}

#[test]
fn text_reads_keep_to_whole_characters() {
    let mut spec = bash("printf '日本語'");
    spec.stdout = collect(1 << 20, 0, None);
    let process = ProcessTable::new().spawn(spec).expect("spawn");
    assert_eq!(finished(&process), exited(0));
    let first = process.read_text_from(Stream::Stdout, 0, 4).expect("read");
    assert_eq!(
        (first.text.as_str(), first.start, first.next, first.eof),
        ("日", 0, 3, false)
    );
    let inside = process.read_text_from(Stream::Stdout, 4, 99).expect("read");
    assert_eq!(
        (inside.text.as_str(), inside.start, inside.next, inside.eof),
        ("語", 6, 9, true)
    );
    assert!(!inside.replaced && !inside.lossy);
}

#[test]
fn reads_inside_the_window_are_exact_and_bounded() {
    let expected = numbered_lines();
    let total = expected.len() as u64;
    let process = print_numbered_lines(collect(100, 0, None));
    let from = total - 50;
    let first = process.read_from(Stream::Stdout, from, 20).expect("read");
    assert!(!first.lossy && !first.eof);
    assert_eq!((first.start, first.next), (from, from + 20));
    assert_eq!(first.data, &expected[expected.len() - 50..expected.len() - 30]);
    let rest = process.read_from(Stream::Stdout, first.next, 1000).expect("read");
    assert_eq!(rest.data, &expected[expected.len() - 30..]);
    assert!(rest.eof && !rest.lossy);
}

#[test]
fn lossy_reads_point_to_a_private_spill_file_with_the_whole_stream() {
    let expected = numbered_lines();
    let process = print_numbered_lines(collect(100, 0, Some(1 << 20)));
    let chunk = process.read_from(Stream::Stdout, 0, usize::MAX).expect("read");
    assert!(chunk.lossy);
    let spill = chunk.spill_path.expect("lossy read names the spill file");
    assert_eq!(process.spill_path(Stream::Stdout).as_deref(), Some(spill.as_path()));
    assert_eq!(fs::read(&spill).expect("spill contents"), expected);
    assert_eq!(chunk.spilled_bytes, expected.len() as u64);
    assert_eq!(mode_of(&spill), 0o600);
    let dir = spill.parent().expect("spill dir");
    assert_eq!(mode_of(dir), 0o700);
    assert_eq!(
        dir.parent(),
        super::super::spill::spill_roots().first().map(PathBuf::as_path)
    );
    let name = dir.file_name().and_then(|name| name.to_str()).unwrap_or_default();
    assert!(name.starts_with("seam-"), "{name}");
    fs::remove_dir_all(dir).expect("clean up spill dir");
}

#[test]
fn spill_file_respects_its_cap() {
    let expected = numbered_lines();
    let process = print_numbered_lines(collect(100, 0, Some(1000)));
    let spill = process.spill_path(Stream::Stdout).expect("spilled");
    assert_eq!(fs::read(&spill).expect("spill contents"), &expected[..1000]);
    assert_eq!(process.total_bytes(Stream::Stdout), expected.len() as u64);
    let chunk = process.read_from(Stream::Stdout, 0, 10).expect("read");
    assert_eq!(
        chunk.spilled_bytes, 1000,
        "the file holds the first 1000 bytes, not all"
    );
    fs::remove_dir_all(spill.parent().expect("spill dir")).expect("clean up spill dir");
}

#[test]
fn wait_returns_only_after_all_output_is_collected() {
    let mut spec = spec(&["/usr/bin/head", "-c", "5000000", "/dev/zero"]);
    spec.stdout = collect(1000, 10, None);
    let process = ProcessTable::new().spawn(spec).expect("spawn");
    assert_eq!(finished(&process), exited(0));
    assert_eq!(process.total_bytes(Stream::Stdout), 5_000_000);
    assert!(process.read_from(Stream::Stdout, 4_999_000, 2000).expect("read").eof);
}

#[test]
fn stdout_and_stderr_are_collected_separately() {
    let process = ProcessTable::new()
        .spawn(bash("echo out; echo err >&2"))
        .expect("spawn");
    assert_eq!(finished(&process), exited(0));
    assert_eq!(collected(&process, Stream::Stdout), "out\n");
    assert_eq!(collected(&process, Stream::Stderr), "err\n");
}

#[test]
fn merged_stderr_interleaves_into_collected_stdout() {
    let mut spec = bash("echo a; echo b >&2; echo c");
    spec.stderr = OutputSpec::Merge;
    let process = ProcessTable::new().spawn(spec).expect("spawn");
    assert_eq!(finished(&process), exited(0));
    assert_eq!(collected(&process, Stream::Stdout), "a\nb\nc\n");
    let err = process.read_from(Stream::Stderr, 0, 10).expect_err("merged");
    assert_eq!(err.code(), "PROCESS_STREAM_NOT_COLLECTED");
}

fn read_pipe_to_end(process: &Process, stream: Stream) -> Vec<u8> {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut out = Vec::new();
    loop {
        let read = process
            .read_pipe(stream, 4096, Duration::from_secs(1))
            .expect("read pipe");
        out.extend_from_slice(&read.data);
        if read.eof {
            return out;
        }
        assert!(Instant::now() < deadline, "no EOF; got {out:?}");
    }
}

#[test]
fn merged_stderr_interleaves_into_piped_stdout() {
    let mut spec = bash("echo a; echo b >&2; echo c");
    spec.stdout = OutputSpec::Pipe;
    spec.stderr = OutputSpec::Merge;
    let process = ProcessTable::new().spawn(spec).expect("spawn");
    assert_eq!(read_pipe_to_end(&process, Stream::Stdout), b"a\nb\nc\n");
    assert_eq!(finished(&process), exited(0));
    assert_eq!(process.total_bytes(Stream::Stdout), 6);
}

#[test]
fn text_pipe_reads_hold_a_cut_character_until_its_end_arrives() {
    // "é" is C3 A9: the first byte is written, then the rest after a pause.
    let mut spec = bash("printf 'a\\303'; sleep 0.3; printf '\\251\\377z'");
    spec.stdout = OutputSpec::Pipe;
    let process = ProcessTable::new().spawn(spec).expect("spawn");
    let (mut texts, mut replaced) = (Vec::new(), false);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let read = process
            .read_pipe_text(Stream::Stdout, 4096, Duration::from_secs(1))
            .expect("read pipe text");
        texts.push(read.text);
        replaced |= read.replaced;
        if read.eof {
            break;
        }
        assert!(Instant::now() < deadline, "no EOF; got {texts:?}");
    }
    assert_eq!(
        texts.first().map(String::as_str),
        Some("a"),
        "the cut character waits: {texts:?}"
    );
    assert_eq!(texts.concat(), "aé\u{fffd}z");
    assert!(replaced, "the invalid byte is reported as replaced");
    assert_eq!(finished(&process), exited(0));
}

#[test]
fn pipe_reads_honour_the_timeout() {
    let mut spec = bash("sleep 0.6; echo late");
    spec.stdout = OutputSpec::Pipe;
    let process = ProcessTable::new().spawn(spec).expect("spawn");
    let started = Instant::now();
    let early = process
        .read_pipe(Stream::Stdout, 100, Duration::from_millis(100))
        .expect("read pipe");
    let waited = started.elapsed();
    assert!(early.data.is_empty() && !early.eof);
    assert!(
        waited >= Duration::from_millis(90) && waited < Duration::from_millis(500),
        "waited {waited:?}"
    );
    assert_eq!(read_pipe_to_end(&process, Stream::Stdout), b"late\n");
    assert_eq!(finished(&process), exited(0));
    let err = process.read_from(Stream::Stdout, 0, 1).expect_err("piped");
    assert_eq!(err.code(), "PROCESS_STREAM_NOT_COLLECTED");
}

#[test]
fn collected_streams_cannot_be_read_as_pipes() {
    let process = ProcessTable::new().spawn(bash("true")).expect("spawn");
    let err = process
        .read_pipe(Stream::Stdout, 10, Duration::ZERO)
        .expect_err("collected");
    assert_eq!(err.code(), "PROCESS_STREAM_NOT_PIPED");
    finished(&process);
}
