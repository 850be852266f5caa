//! Dropping the supervisor's copy of the host's anonymous memory.
//!
//! The supervisor is a copy-on-write image of the host. Left alone, every page the host writes
//! later would be duplicated, the original kept alive by the supervisor for as long as the
//! program runs: a whole second host in the worst case, per running program.
//!
//! After the split, the supervisor only touches its own stack (which also holds this thread's
//! TLS), code, library data and kernel-provided pages. So anonymous memory is unmapped: the
//! heap, other threads' stacks, the host's anonymous mappings (e.g. guest memories). Kept: the
//! mapping holding the current stack, `[...]` kernel mappings other than `[heap]`, file-backed
//! mappings, and anonymous mappings directly following a file-backed one (the zero-filled
//! `.bss` tail of a binary or library).

use libc::c_void;

/// Releasable ranges collected per pass of `/proc/self/maps` (unmapping while reading would
/// shift the file under the reader).
const MAX_RANGES: usize = 512;
const MAX_PASSES: usize = 8;
/// Bytes of a maps line that are parsed; the fields that matter come first.
const LINE_CAPACITY: usize = 256;

/// # Safety
/// Only for the forked supervisor, after the program was split off: nothing may touch heap or
/// anonymous memory afterwards (every reference must point to the stack or static data).
pub(super) unsafe fn release_host_memory() {
    let stack_marker = 0u8;
    let stack_address = std::ptr::addr_of!(stack_marker) as usize;
    for _ in 0..MAX_PASSES {
        let mut ranges = [(0usize, 0usize); MAX_RANGES];
        let mut count = 0usize;
        let mut overflowed = false;
        for_each_mapping(|mapping| {
            if !mapping.releasable(stack_address) {
                return;
            }
            match ranges.get_mut(count) {
                Some(slot) => {
                    *slot = (mapping.start, mapping.end);
                    count += 1;
                }
                None => overflowed = true,
            }
        });
        for &(start, end) in ranges.iter().take(count) {
            // SAFETY: the range is an anonymous mapping this process no longer uses (see above).
            unsafe { libc::munmap(start as *mut c_void, end - start) };
        }
        if !overflowed {
            return;
        }
    }
}

/// One line of `/proc/self/maps`, with what the release decision needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Mapping {
    start: usize,
    end: usize,
    /// Backed by a file (inode != 0).
    file_backed: bool,
    /// Named by the kernel, e.g. `[stack]`, `[vdso]`, `[anon:...]`.
    kernel_named: bool,
    heap: bool,
    /// Directly follows a file-backed mapping: possibly its `.bss` tail (without ASLR, the brk
    /// heap may even be merged into that tail).
    follows_file: bool,
}

impl Mapping {
    fn releasable(&self, stack_address: usize) -> bool {
        let anonymous = !self.file_backed && (!self.kernel_named || self.heap);
        let holds_stack = (self.start..self.end).contains(&stack_address);
        anonymous && !holds_stack && !self.follows_file
    }
}

/// Calls `visit` with every mapping of this process, in address order.
fn for_each_mapping(mut visit: impl FnMut(&Mapping)) {
    // SAFETY: a NUL-terminated static path.
    let fd = unsafe { libc::open(c"/proc/self/maps".as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC) };
    if fd < 0 {
        return;
    }
    let mut parser = MapsParser::new();
    let mut chunk = [0u8; 4096];
    loop {
        // SAFETY: the buffer pointer and length describe `chunk`.
        let read = unsafe { libc::read(fd, chunk.as_mut_ptr().cast(), chunk.len()) };
        match usize::try_from(read) {
            Ok(0) => break,
            Ok(n) => parser.feed(chunk.get(..n).unwrap_or_default(), &mut visit),
            Err(_) if super::sys::errno() == libc::EINTR => {}
            Err(_) => break,
        }
    }
    parser.finish(&mut visit);
    // SAFETY: we own this fd.
    unsafe { libc::close(fd) };
}

/// Turns the bytes of a maps file into mappings, noting which follow a file-backed one.
struct MapsParser {
    lines: LineSplitter,
    previous: Option<Mapping>,
}

impl MapsParser {
    fn new() -> Self {
        Self {
            lines: LineSplitter::new(),
            previous: None,
        }
    }

    fn feed(&mut self, bytes: &[u8], visit: &mut impl FnMut(&Mapping)) {
        let Self { lines, previous } = self;
        lines.feed(bytes, &mut |line| Self::on_line(line, previous, visit));
    }

    fn finish(&mut self, visit: &mut impl FnMut(&Mapping)) {
        let Self { lines, previous } = self;
        lines.finish(&mut |line| Self::on_line(line, previous, visit));
    }

    fn on_line(line: &[u8], previous: &mut Option<Mapping>, visit: &mut impl FnMut(&Mapping)) {
        let Some(mut mapping) = parse_line(line) else {
            return;
        };
        mapping.follows_file = previous.is_some_and(|prev| prev.file_backed && prev.end == mapping.start);
        visit(&mapping);
        *previous = Some(mapping);
    }
}

/// Splits a byte stream into lines, keeping the first [`LINE_CAPACITY`] bytes of each.
struct LineSplitter {
    line: [u8; LINE_CAPACITY],
    len: usize,
}

impl LineSplitter {
    fn new() -> Self {
        Self {
            line: [0; LINE_CAPACITY],
            len: 0,
        }
    }

    fn feed(&mut self, bytes: &[u8], on_line: &mut impl FnMut(&[u8])) {
        for &b in bytes {
            if b == b'\n' {
                self.finish(on_line);
            } else if let Some(slot) = self.line.get_mut(self.len) {
                *slot = b;
                self.len += 1;
            }
        }
    }

    fn finish(&mut self, on_line: &mut impl FnMut(&[u8])) {
        if self.len > 0 {
            on_line(self.line.get(..self.len).unwrap_or_default());
        }
        self.len = 0;
    }
}

/// Parses `start-end perms offset dev inode [path]`.
fn parse_line(line: &[u8]) -> Option<Mapping> {
    let mut fields = line.split(|&b| b == b' ').filter(|field| !field.is_empty());
    let range = fields.next()?;
    let dash = range.iter().position(|&b| b == b'-')?;
    let start = parse_hex(range.get(..dash)?)?;
    let end = parse_hex(range.get(dash + 1..)?)?;
    let _perms = fields.next()?;
    let _offset = fields.next()?;
    let _device = fields.next()?;
    let inode = fields.next()?;
    let path = fields.next().unwrap_or_default();
    Some(Mapping {
        start,
        end,
        file_backed: inode.iter().any(|&b| b != b'0'),
        kernel_named: path.first() == Some(&b'['),
        heap: path == b"[heap]",
        follows_file: false,
    })
}

fn parse_hex(digits: &[u8]) -> Option<usize> {
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0usize, |value, &b| {
        let digit = (b as char).to_digit(16)?;
        value.checked_mul(16)?.checked_add(digit as usize)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAPS: &[u8] = b"\
55d0a0000000-55d0a0100000 r-xp 00000000 fd:01 1234    /usr/bin/seam
55d0a0100000-55d0a0200000 rw-p 00100000 fd:01 1234    /usr/bin/seam
55d0a0200000-55d0a0300000 rw-p 00000000 00:00 0
55d0a1000000-55d0a2000000 rw-p 00000000 00:00 0       [heap]
7e0000000000-7e0000001000 r--p 00000000 fd:01 99      /usr/lib/libc.so.6
7e0000001000-7e0000002000 rw-p 00000000 00:00 0       [heap]
7f0000000000-7f0010000000 rw-p 00000000 00:00 0
7f0010000000-7f0010001000 ---p 00000000 00:00 0
7f0010001000-7f0010800000 rw-p 00000000 00:00 0
7f0020000000-7f0020100000 rw-s 00000000 00:01 77      /memfd:wasm-image (deleted)
7f0030000000-7f0030001000 rw-p 00000000 00:00 0       [anon:named]
7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0       [stack]
7ffd00100000-7ffd00102000 r-xp 00000000 00:00 0       [vdso]
";

    #[test]
    fn only_unused_anonymous_memory_is_released() {
        // The stack address lies in the thread stack at 7f0010001000.
        let mut released = Vec::new();
        let mut parser = MapsParser::new();
        let mut keep_releasable = |mapping: &Mapping| {
            if mapping.releasable(0x7f00_1000_4000) {
                released.push(mapping.start);
            }
        };
        parser.feed(MAPS, &mut keep_releasable);
        parser.finish(&mut keep_releasable);
        assert_eq!(released, vec![0x55d0_a100_0000, 0x7f00_0000_0000, 0x7f00_1000_0000]);
    }

    #[test]
    fn hex_and_line_parsing() {
        assert_eq!(parse_hex(b"7f0a"), Some(0x7f0a));
        assert_eq!(parse_hex(b"xyz"), None);
        let line = b"7f0000000000-7f0010000000 rw-p 00000000 00:00 0";
        let mapping = parse_line(line).expect("parses");
        assert_eq!(
            (mapping.start, mapping.end, mapping.file_backed),
            (0x7f00_0000_0000, 0x7f00_1000_0000, false)
        );
    }
}
