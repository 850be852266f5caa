//! Walking and signalling the supervisor's process tree through `/proc`, without allocating.
//!
//! Children are listed per thread in `/proc/<pid>/task/<tid>/children`, so every thread of a
//! process is visited: a multi-threaded program may fork from any of them.

use libc::{c_int, pid_t};

use super::sys;

/// Most pids held in the walk at once; beyond it the rest is picked up by the next round
/// (the supervisor repeats SIGKILL rounds until it has no children left).
const MAX_PENDING: usize = 4096;
/// Upper bound on processes visited in one walk, so pid reuse can never make it loop.
const MAX_VISITS: usize = 65_536;

/// Most processes remembered as signalled (see [`Signalled`]).
const MAX_SIGNALLED: usize = 1024;

/// Sends `signals`, in order, to every descendant of the calling process, parents first; with
/// `once`, only to those it does not hold yet, which it then holds unless they ignore the first
/// signal: one started with it ignored (inherited) may stop ignoring it, and is asked again.
///
/// A process's children are listed before it is signalled: once it dies they are reparented
/// (to us) and would no longer be found under it in this round. Returns how many were signalled.
pub(super) fn signal_descendants(signals: &[c_int], mut once: Option<&mut Signalled>) -> usize {
    let mut pending = PendingPids::new();
    for_each_child(sys::own_pid(), |child| pending.push(child));
    let mut visits = 0usize;
    let mut signalled = 0usize;
    while visits < MAX_VISITS {
        let Some(pid) = pending.pop() else { break };
        visits += 1;
        for_each_child(pid, |child| pending.push(child));
        if once.as_deref().is_some_and(|once| once.holds(pid)) {
            continue;
        }
        signalled += 1;
        for &signal in signals {
            // SAFETY: kill has no memory-safety preconditions.
            unsafe { libc::kill(pid, signal) };
        }
        if let Some(once) = once.as_deref_mut()
            && !signals.first().is_some_and(|&first| ignores(pid, first))
        {
            once.remember(pid);
        }
    }
    signalled
}

/// Processes already sent the polite signals, so that a later round reaches only those started
/// since: a process forked during the grace by one the signals had not reached yet (a sandbox
/// still setting up) would otherwise run on until SIGKILL.
pub(super) struct Signalled {
    pids: [pid_t; MAX_SIGNALLED],
    len: usize,
}

impl Signalled {
    pub(super) fn new() -> Self {
        Self {
            pids: [0; MAX_SIGNALLED],
            len: 0,
        }
    }

    fn holds(&self, pid: pid_t) -> bool {
        self.pids[..self.len].contains(&pid)
    }

    /// Past [`MAX_SIGNALLED`] nothing more is remembered and every later pid counts as new: a
    /// second SIGTERM is better than none.
    fn remember(&mut self, pid: pid_t) {
        if let Some(slot) = self.pids.get_mut(self.len) {
            *slot = pid;
            self.len += 1;
        }
    }
}

/// Whether `pid` ignores `signal` now: its `SigIgn` mask in /proc/PID/status (read whole into
/// a stack buffer; the supervisor does not allocate).
pub(crate) fn ignores(pid: pid_t, signal: c_int) -> bool {
    let mut path = ProcPath::new();
    path.push(b"/proc/");
    path.push_number(pid);
    path.push(b"/status");
    let Some(file) = path.open(libc::O_RDONLY) else {
        return false;
    };
    let mut status = [0u8; 4096];
    let mut filled = 0;
    while let Some(free) = status.get_mut(filled..).filter(|free| !free.is_empty()) {
        // SAFETY: the buffer pointer and length describe `free`.
        let read = unsafe { libc::read(file.0, free.as_mut_ptr().cast(), free.len()) };
        match usize::try_from(read) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(_) if sys::errno() == libc::EINTR => {}
            Err(_) => return false,
        }
    }
    signal_mask(status.get(..filled).unwrap_or_default(), b"SigIgn:")
        .is_some_and(|mask| (1..=64).contains(&signal) && mask & (1 << (signal - 1)) != 0)
}

/// The hexadecimal signal mask on the line of /proc/PID/status that starts with `field`.
fn signal_mask(status: &[u8], field: &[u8]) -> Option<u64> {
    let line = status
        .split(|&b| b == b'\n')
        .find_map(|line| line.strip_prefix(field))?;
    let mut mask: u64 = 0;
    let mut digits = 0;
    for &b in line.trim_ascii() {
        mask = mask
            .checked_mul(16)?
            .checked_add(u64::from(char::from(b).to_digit(16)?))?;
        digits += 1;
    }
    (digits > 0).then_some(mask)
}

/// A fixed-capacity stack of pids; pushes beyond capacity are dropped (see [`MAX_PENDING`]).
struct PendingPids {
    pids: [pid_t; MAX_PENDING],
    len: usize,
}

impl PendingPids {
    fn new() -> Self {
        Self {
            pids: [0; MAX_PENDING],
            len: 0,
        }
    }

    fn push(&mut self, pid: pid_t) {
        if let Some(slot) = self.pids.get_mut(self.len) {
            *slot = pid;
            self.len += 1;
        }
    }

    fn pop(&mut self) -> Option<pid_t> {
        self.len = self.len.checked_sub(1)?;
        self.pids.get(self.len).copied()
    }
}

/// Calls `visit` with every child of every thread of `pid`.
fn for_each_child(pid: pid_t, mut visit: impl FnMut(pid_t)) {
    let mut path = ProcPath::new();
    path.push(b"/proc/");
    path.push_number(pid);
    path.push(b"/task");
    let Some(dir) = path.open(libc::O_RDONLY | libc::O_DIRECTORY) else {
        return;
    };
    let mut entries = [0u8; 2048];
    loop {
        // SAFETY: the buffer pointer and length describe `entries`.
        let filled = unsafe { libc::syscall(libc::SYS_getdents64, dir.0, entries.as_mut_ptr(), entries.len()) };
        let Ok(filled) = usize::try_from(filled) else {
            break;
        };
        if filled == 0 {
            break;
        }
        for_each_dirent_name(entries.get(..filled).unwrap_or_default(), |name| {
            if let Some(tid) = parse_pid(name) {
                for_each_task_child(pid, tid, &mut visit);
            }
        });
    }
}

fn for_each_task_child(pid: pid_t, tid: pid_t, visit: &mut impl FnMut(pid_t)) {
    let mut path = ProcPath::new();
    path.push(b"/proc/");
    path.push_number(pid);
    path.push(b"/task/");
    path.push_number(tid);
    path.push(b"/children");
    let Some(file) = path.open(libc::O_RDONLY) else {
        return;
    };
    let mut numbers = NumberScanner::default();
    let mut chunk = [0u8; 512];
    loop {
        // SAFETY: the buffer pointer and length describe `chunk`.
        let read = unsafe { libc::read(file.0, chunk.as_mut_ptr().cast(), chunk.len()) };
        match usize::try_from(read) {
            Ok(0) => break,
            Ok(n) => numbers.feed(chunk.get(..n).unwrap_or_default(), &mut *visit),
            Err(_) if sys::errno() == libc::EINTR => {}
            Err(_) => break,
        }
    }
    numbers.finish(visit);
}

/// Walks the `linux_dirent64` records of a getdents64 buffer, yielding each name.
fn for_each_dirent_name(mut records: &[u8], mut visit: impl FnMut(&[u8])) {
    const RECLEN_AT: usize = 16;
    const NAME_AT: usize = 19;
    while let Some(header) = records.get(..NAME_AT) {
        let reclen = usize::from(u16::from_ne_bytes([header[RECLEN_AT], header[RECLEN_AT + 1]]));
        let Some(record) = records.get(..reclen).filter(|_| reclen > NAME_AT) else {
            return;
        };
        let name = record.get(NAME_AT..).unwrap_or_default();
        let name_len = name.iter().position(|&b| b == 0).unwrap_or(name.len());
        visit(name.get(..name_len).unwrap_or_default());
        records = records.get(reclen..).unwrap_or_default();
    }
}

fn parse_pid(digits: &[u8]) -> Option<pid_t> {
    if digits.is_empty() || digits.len() > 10 {
        return None;
    }
    let mut value: pid_t = 0;
    for &b in digits {
        if !b.is_ascii_digit() {
            return None;
        }
        value = value.checked_mul(10)?.checked_add(pid_t::from(b - b'0'))?;
    }
    (value > 0).then_some(value)
}

/// Parses whitespace-separated pids fed in arbitrary chunks.
#[derive(Default)]
struct NumberScanner {
    value: pid_t,
    digits: usize,
}

impl NumberScanner {
    fn feed(&mut self, bytes: &[u8], visit: &mut impl FnMut(pid_t)) {
        for &b in bytes {
            if b.is_ascii_digit() {
                self.value = self.value.saturating_mul(10).saturating_add(pid_t::from(b - b'0'));
                self.digits += 1;
            } else {
                self.finish(visit);
            }
        }
    }

    fn finish(&mut self, visit: &mut impl FnMut(pid_t)) {
        if self.digits > 0 && self.value > 0 {
            visit(self.value);
        }
        *self = Self::default();
    }
}

/// A NUL-terminated path assembled on the stack.
struct ProcPath {
    bytes: [u8; 64],
    len: usize,
}

impl ProcPath {
    fn new() -> Self {
        Self { bytes: [0; 64], len: 0 }
    }

    /// Appends `part`; an over-long path is left unterminated-safe because the last byte is
    /// never written, and simply fails to open.
    fn push(&mut self, part: &[u8]) {
        for &b in part {
            if self.len + 1 < self.bytes.len() {
                self.bytes[self.len] = b;
                self.len += 1;
            }
        }
    }

    fn push_number(&mut self, value: pid_t) {
        let mut digits = [0u8; 10];
        let mut start = digits.len();
        let mut rest = value.unsigned_abs();
        loop {
            start -= 1;
            digits[start] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 || start == 0 {
                break;
            }
        }
        self.push(digits.get(start..).unwrap_or_default());
    }

    fn open(&self, flags: c_int) -> Option<RawFdGuard> {
        // SAFETY: `bytes` is NUL-terminated: its last byte is never written by `push`.
        let fd = unsafe { libc::open(self.bytes.as_ptr().cast(), flags | libc::O_CLOEXEC) };
        (fd >= 0).then_some(RawFdGuard(fd))
    }
}

/// Closes the fd when dropped (no allocation, unlike `File`'s error paths).
struct RawFdGuard(c_int);

impl Drop for RawFdGuard {
    fn drop(&mut self) {
        // SAFETY: the guard owns this fd.
        unsafe { libc::close(self.0) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scanner_handles_numbers_split_across_chunks() {
        let mut seen = Vec::new();
        let mut scanner = NumberScanner::default();
        scanner.feed(b"12 3", &mut |pid| seen.push(pid));
        scanner.feed(b"4 56 ", &mut |pid| seen.push(pid));
        scanner.feed(b"7", &mut |pid| seen.push(pid));
        scanner.finish(&mut |pid| seen.push(pid));
        assert_eq!(seen, vec![12, 34, 56, 7]);
    }

    #[test]
    fn pid_parsing_rejects_dot_entries() {
        assert_eq!(parse_pid(b"."), None);
        assert_eq!(parse_pid(b".."), None);
        assert_eq!(parse_pid(b"4242"), Some(4242));
    }

    #[test]
    fn proc_path_renders_numbers() {
        let mut path = ProcPath::new();
        path.push(b"/proc/");
        path.push_number(1_234_567);
        assert_eq!(&path.bytes[..path.len], b"/proc/1234567");
        assert_eq!(path.bytes[path.len], 0);
    }

    #[test]
    fn a_process_is_held_once_remembered() {
        let mut once = Signalled::new();
        assert!(!once.holds(10));
        once.remember(10);
        assert!(once.holds(10) && !once.holds(11));
    }

    #[test]
    fn the_ignored_signals_are_read_from_the_status_mask() {
        let status = b"Name:\tsleep\nSigBlk:\t0000000000000000\nSigIgn:\t0000000000004006\nSigCgt:\t0\n";
        assert_eq!(signal_mask(status, b"SigIgn:"), Some(0x4006));
        assert_eq!(signal_mask(b"SigIgn:\t\n", b"SigIgn:"), None);
        // This process's own mask: SIGPIPE ignored (the Rust runtime's default), SIGTERM not.
        let own = sys::own_pid();
        assert!(ignores(own, libc::SIGPIPE) && !ignores(own, libc::SIGTERM));
    }

    #[test]
    fn children_of_this_process_are_listed() {
        let mut child = std::process::Command::new("/usr/bin/sleep")
            .arg("5")
            .spawn()
            .expect("spawn sleep");
        let mut seen = Vec::new();
        for_each_child(sys::own_pid(), |pid| seen.push(pid));
        child.kill().expect("kill sleep");
        child.wait().expect("reap sleep");
        let expected = pid_t::try_from(child.id()).expect("pid fits");
        assert!(seen.contains(&expected), "{seen:?} lacks {expected}");
    }
}
