//! Whether a process asleep in read, poll, select or epoll waits on a given terminal.
//!
//! A line editor waits for a key that way (less, vim, python's and node's REPLs), but so does a
//! busy program: an event loop waiting on its timers, a parent collecting a child's output from
//! pipes, all with the terminal open as stdout. Only the set it polls tells them apart. That set
//! is read from the kernel: `/proc/<pid>/syscall` gives the call and its arguments; a poll or
//! select set is in the process's memory, an epoll set in the epoll descriptor's fdinfo. Both
//! need the access a debugger has, which seam has over the sessions it started (they are its
//! descendants); where it has not, the answer is unknown and the caller falls back on whether
//! the process holds the terminal at all. A plain read needs the call alone: a terminal read
//! sleeps where a TCP receive does (`wait_woken`), so only the descriptor tells them apart.

use std::os::unix::fs::MetadataExt;

/// What a process asleep in one of these calls waits on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Polled {
    /// The terminal is in its set, for input.
    Terminal,
    /// Its set holds other descriptors only (or none: a sleep).
    Elsewhere,
    /// The set could not be read.
    Unknown,
}

/// Sets larger than this are not read (`Unknown`): a terminal program polls a few descriptors.
const MAX_POLL_FDS: u64 = 4096;
/// select(2) takes descriptors below FD_SETSIZE.
const FD_SETSIZE: u64 = 1024;
/// Any of POLLIN, POLLPRI, POLLRDNORM: the events of a reader.
const READ_EVENTS: u64 = 0x1 | 0x2 | 0x40;

/// Whether process `pid`, asleep in read, poll, select or epoll, waits for input on terminal
/// `tty`. Asleep in any other call (a socket's receive), it does not.
pub(super) fn waits_on_terminal(pid: i32, tty: u64) -> Polled {
    let Some((call, args)) = blocked_call(pid) else {
        return Polled::Unknown;
    };
    let found = match Call::of(call) {
        Some(Call::Read) => Some(i32::try_from(args[0]).is_ok_and(|fd| is_tty(pid, fd, tty))),
        Some(Call::Poll) => poll_set(pid, args[0], args[1]).map(|fds| fds.into_iter().any(|fd| is_tty(pid, fd, tty))),
        Some(Call::Select) => {
            select_set(pid, args[0], args[1]).map(|fds| fds.into_iter().any(|fd| is_tty(pid, fd, tty)))
        }
        Some(Call::Epoll) => epoll_set(pid, args[0]).map(|fds| fds.into_iter().any(|fd| is_tty(pid, fd, tty))),
        None => Some(false),
    };
    match found {
        Some(true) => Polled::Terminal,
        Some(false) => Polled::Elsewhere,
        None => Polled::Unknown,
    }
}

enum Call {
    /// `read(fd, ...)`, `readv(fd, ...)` and their positioned variants.
    Read,
    /// `poll(fds, nfds, ...)`, `ppoll(fds, nfds, ...)`.
    Poll,
    /// `select(nfds, readfds, ...)`, `pselect6(nfds, readfds, ...)`.
    Select,
    /// `epoll_wait(epfd, ...)` and its variants.
    Epoll,
}

impl Call {
    fn of(number: i64) -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        match number {
            libc::SYS_poll => return Some(Self::Poll),
            libc::SYS_select => return Some(Self::Select),
            libc::SYS_epoll_wait => return Some(Self::Epoll),
            _ => {}
        }
        match number {
            libc::SYS_read | libc::SYS_readv | libc::SYS_pread64 | libc::SYS_preadv | libc::SYS_preadv2 => {
                Some(Self::Read)
            }
            libc::SYS_ppoll => Some(Self::Poll),
            libc::SYS_pselect6 => Some(Self::Select),
            libc::SYS_epoll_pwait | libc::SYS_epoll_pwait2 => Some(Self::Epoll),
            _ => None,
        }
    }
}

/// The system call `pid` is blocked in and its first two arguments, from
/// `/proc/<pid>/syscall` ("NR ARG1 ARG2 ... SP PC", the arguments in hex); `None` when it is
/// not blocked in one or the file cannot be read.
fn blocked_call(pid: i32) -> Option<(i64, [u64; 2])> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/syscall")).ok()?;
    let mut fields = text.split_whitespace();
    let number = fields.next()?.parse::<i64>().ok().filter(|n| *n >= 0)?;
    let mut arg = || u64::from_str_radix(fields.next()?.trim_start_matches("0x"), 16).ok();
    Some((number, [arg()?, arg()?]))
}

/// The descriptors a poll set at `address` of `count` entries reads from.
fn poll_set(pid: i32, address: u64, count: u64) -> Option<Vec<i32>> {
    if count > MAX_POLL_FDS {
        return None;
    }
    // struct pollfd { int fd; short events; short revents; }
    let raw = read_memory(pid, address, count as usize * 8)?;
    Some(
        raw.chunks_exact(8)
            .filter(|entry| u64::from(u16::from_ne_bytes([entry[4], entry[5]])) & READ_EVENTS != 0)
            .map(|entry| i32::from_ne_bytes([entry[0], entry[1], entry[2], entry[3]]))
            .filter(|fd| *fd >= 0)
            .collect(),
    )
}

/// The descriptors below `nfds` set in the read set at `address` (none when it is null).
fn select_set(pid: i32, nfds: u64, address: u64) -> Option<Vec<i32>> {
    if address == 0 || nfds == 0 {
        return Some(Vec::new());
    }
    let nfds = nfds.min(FD_SETSIZE);
    let raw = read_memory(pid, address, nfds.div_ceil(8) as usize)?;
    Some(
        (0..nfds as i32)
            .filter(|fd| raw[*fd as usize / 8] & (1 << (fd % 8)) != 0)
            .collect(),
    )
}

/// The descriptors an epoll instance watches, from its fdinfo ("tfd: N events: MASK ...").
fn epoll_set(pid: i32, epfd: u64) -> Option<Vec<i32>> {
    let info = std::fs::read_to_string(format!("/proc/{pid}/fdinfo/{epfd}")).ok()?;
    let mut fds = Vec::new();
    for line in info.lines() {
        let Some(rest) = line.strip_prefix("tfd:") else {
            continue;
        };
        let mut fields = rest.split_whitespace();
        let fd = fields.next().and_then(|fd| fd.parse::<i32>().ok());
        let events = fields
            .skip_while(|field| *field != "events:")
            .nth(1)
            .and_then(|mask| u64::from_str_radix(mask, 16).ok());
        if let (Some(fd), Some(events)) = (fd, events)
            && events & READ_EVENTS != 0
        {
            fds.push(fd);
        }
    }
    Some(fds)
}

fn read_memory(pid: i32, address: u64, len: usize) -> Option<Vec<u8>> {
    let mut buffer = vec![0u8; len];
    let local = [std::io::IoSliceMut::new(&mut buffer)];
    let remote = [nix::sys::uio::RemoteIoVec {
        base: usize::try_from(address).ok()?,
        len,
    }];
    let read = nix::sys::uio::process_vm_readv(nix::unistd::Pid::from_raw(pid), &mut { local }, &remote).ok()?;
    (read == len).then_some(buffer)
}

/// Whether descriptor `fd` of `pid` is terminal `tty` (by device number, whatever its path), or
/// /dev/tty, its controlling terminal: the caller asks about the terminal's foreground group,
/// whose controlling terminal it is.
fn is_tty(pid: i32, fd: i32, tty: u64) -> bool {
    let controlling = libc::makedev(5, 0);
    std::fs::metadata(format!("/proc/{pid}/fd/{fd}")).is_ok_and(|m| m.rdev() == tty || m.rdev() == controlling)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    /// Waits until `pid` sleeps in the same call for 50 ms, then says what it waits on.
    fn polled_once_asleep(pid: i32, tty: u64) -> Polled {
        let deadline = Instant::now() + Duration::from_secs(10);
        let asleep = || {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let state = stat
                .rsplit(')')
                .next()
                .and_then(|rest| rest.trim_start().chars().next());
            (state == Some('S')).then(|| blocked_call(pid)).flatten()
        };
        loop {
            assert!(Instant::now() < deadline, "the process never slept");
            let first = asleep();
            std::thread::sleep(Duration::from_millis(50));
            if first.is_some() && asleep() == first {
                return waits_on_terminal(pid, tty);
            }
        }
    }

    /// A program with a real terminal as stdin is told apart by the set it waits on: the
    /// terminal in it, or only other descriptors (a pipe, a timer, nothing).
    #[test]
    fn tells_a_wait_on_the_terminal_from_a_wait_elsewhere() {
        let scripts = [
            (
                "select",
                "import select,sys; select.select([sys.stdin],[],[],30)",
                Polled::Terminal,
            ),
            (
                "a select on nothing",
                "import select; select.select([],[],[],30)",
                Polled::Elsewhere,
            ),
            (
                "poll",
                "import select,sys; p=select.poll(); p.register(sys.stdin, select.POLLIN); p.poll(30000)",
                Polled::Terminal,
            ),
            (
                "a poll on a pipe",
                "import os,select; r,w=os.pipe(); p=select.poll(); p.register(r, select.POLLIN); p.poll(30000)",
                Polled::Elsewhere,
            ),
            (
                "epoll",
                "import select,sys; e=select.epoll(); e.register(sys.stdin, select.EPOLLIN); e.poll(30)",
                Polled::Terminal,
            ),
            (
                "an epoll on a pipe",
                "import os,select; r,w=os.pipe(); e=select.epoll(); e.register(r, select.EPOLLIN); e.poll(30)",
                Polled::Elsewhere,
            ),
            ("a read", "import os; os.read(0, 1)", Polled::Terminal),
            (
                "a read of a pipe",
                "import os; r,w=os.pipe(); os.read(r, 1)",
                Polled::Elsewhere,
            ),
            (
                "a TCP receive",
                "import socket; l=socket.create_server(('127.0.0.1',0)); \
                 c=socket.create_connection(l.getsockname()); l.accept()[0].recv(1)",
                Polled::Elsewhere,
            ),
        ];
        for (name, script, expected) in scripts {
            let pair = super::super::device::open(24, 80).expect("a PTY pair");
            // The script says it is ready before its wait: a launcher that sleeps on its own
            // children before it execs python (pyenv's shim) is not mistaken for the wait.
            let mut child = Command::new("python3")
                .args(["-c", &format!("import os; os.write(1, b'.'); {script}")])
                .stdin(Stdio::from(pair.slave))
                .stdout(Stdio::piped())
                .spawn()
                .expect("python3 runs");
            let mut ready = [0u8; 1];
            let stdout = child.stdout.as_mut().expect("a piped stdout");
            std::io::Read::read_exact(stdout, &mut ready).expect("the script starts");
            let seen = polled_once_asleep(child.id() as i32, pair.device);
            let _ = child.kill();
            let _ = child.wait();
            assert_eq!(seen, expected, "{name}");
        }
    }
}
