//! The program's stdin: /dev/null by default, bytes, or a host-written pipe.

use std::time::{Duration, Instant};

use super::*;
use crate::natives::process::ProcessTable;

#[test]
fn null_stdin_is_dev_null_so_cat_returns_at_once() {
    let started = Instant::now();
    let process = ProcessTable::new()
        .spawn(bash("readlink /proc/self/fd/0; cat"))
        .expect("spawn");
    let outcome = process.wait(Some(Duration::from_secs(5)));
    assert_eq!(outcome, Some(exited(0)));
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(collected(&process, Stream::Stdout), "/dev/null\n");
}

#[test]
fn bytes_stdin_is_echoed_by_cat() {
    let mut spec = spec(&["/usr/bin/cat"]);
    spec.stdin = StdinSpec::Bytes(b"hello\nworld".to_vec());
    let process = ProcessTable::new().spawn(spec).expect("spawn");
    assert_eq!(finished(&process), exited(0));
    assert_eq!(collected(&process, Stream::Stdout), "hello\nworld");
}

#[test]
fn large_bytes_stdin_does_not_deadlock() {
    let input: Vec<u8> = (0..3_000_000u32).map(|i| b'a' + (i % 26) as u8).collect();
    let mut spec = spec(&["/usr/bin/cat"]);
    spec.stdin = StdinSpec::Bytes(input.clone());
    spec.stdout = collect(input.len(), 0, None);
    let process = ProcessTable::new().spawn(spec).expect("spawn");
    assert_eq!(finished(&process), exited(0));
    let chunk = process.read_from(Stream::Stdout, 0, usize::MAX).expect("read");
    assert!(chunk.data == input && chunk.eof);
}

#[test]
fn piped_stdin_is_written_then_closed() {
    let mut spec = spec(&["/usr/bin/cat"]);
    spec.stdin = StdinSpec::Pipe;
    let process = ProcessTable::new().spawn(spec).expect("spawn");
    process.write_stdin(b"first ").expect("write");
    process.write_stdin(b"second\n").expect("write");
    assert_eq!(
        process.wait(Some(Duration::from_millis(100))),
        None,
        "cat waits for EOF"
    );
    process.close_stdin();
    assert_eq!(finished(&process), exited(0));
    assert_eq!(collected(&process, Stream::Stdout), "first second\n");
    let err = process.write_stdin(b"late").expect_err("stdin is closed");
    assert_eq!(err.code(), "PROCESS_STDIN_CLOSED");
}

#[test]
fn stdin_that_is_not_piped_cannot_be_written() {
    let process = ProcessTable::new().spawn(spec(&["/usr/bin/true"])).expect("spawn");
    let err = process.write_stdin(b"x").expect_err("stdin is /dev/null");
    assert_eq!(err.code(), "PROCESS_STDIN_CLOSED");
    finished(&process);
}
