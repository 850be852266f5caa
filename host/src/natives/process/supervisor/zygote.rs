//! The zygote: a copy of the host, forked once per process table, that creates every
//! supervisor.
//!
//! Forking the host costs in proportion to its resident memory (the page tables are copied);
//! the zygote releases that memory right after the fork, so each supervisor it forks costs
//! the same whatever the host's size. It keeps one standby supervisor waiting on its control
//! socket (see [`standby`](super::standby) and [`wire`](super::super::wire)) and forks the next
//! as soon as that one's program runs. Only when it cannot fork does it read a request
//! itself, to refuse it with the errno on the request's report pipe.
//!
//! It ends with the host: when the host closes its end of the control socket (or dies) and
//! through `PR_SET_PDEATHSIG`. Supervisors do not depend on it: they are the host's children and
//! watch the host themselves, so the zygote dying stops only new spawns.

use std::ffi::c_void;
use std::os::fd::RawFd;
use std::ptr;

use libc::{c_int, c_uint, pid_t};

use super::super::wire::{ExecArgs, HEADER_LEN, Header, INLINE_BLOB_MAX, MAX_FDS, Report, Stage, WORD, decode_blob};
use super::program::ProgramPlan;
use super::{SupervisorPlan, release_memory, standby, sys};
use crate::natives::inherited;

/// The control socket's number in the zygote; 0-2 are `/dev/null`, so received fds are above.
const CONTROL_FD: RawFd = 3;
/// Signals that end the zygote (`kill <pid>`); the others stay blocked. Its own process group
/// keeps a terminal's ^C away from it.
const ENDING_SIGNALS: &[c_int] = &[libc::SIGTERM, libc::SIGINT, libc::SIGHUP, libc::SIGQUIT];
/// Room for the `SCM_RIGHTS` message of [`MAX_FDS`] fds (`CMSG_SPACE`), as aligned words.
const CONTROL_WORDS: usize = 8;

/// Entered in the child just forked from the host; never returns.
///
/// # Safety
/// Only in a child just forked from the host by its anchor thread, whose death means the
/// host's death. `control` is the zygote's end of the control socket.
pub(in crate::natives::process) unsafe fn serve(control: RawFd, host_pid: pid_t) -> ! {
    sys::block_all_signals();
    // Every page of the host shared with us costs the host a copy when it writes it, so this
    // comes first. SAFETY: from here on only stack data, static data and code are used.
    unsafe { release_memory::release_host_memory() };
    // The host's handlers mean nothing here, and its ignored signals must not reach programs.
    inherited::reset_dispositions();
    sys::set_name(c"seam-zygote");
    if !sys::watch_for_host_death(libc::SIGKILL, host_pid) {
        sys::exit(0);
    }
    let _ = sys::own_process_group();
    sys::leave_working_directory();
    let fd_limit = inherited::open_file_limit();
    // SAFETY: we are the zygote: nothing here owns the fds inherited from the host.
    unsafe { adopt_fds(control, fd_limit) };
    let serving_mask = sys::all_signals_except(ENDING_SIGNALS);
    sys::set_signal_mask(&serving_mask);
    // A standby that ended before taking a request: the host's child, which only a `Started`
    // report can name to the host. One is remembered; one more dying before any program runs
    // is left unreaped.
    let mut unreaped: pid_t = 0;
    loop {
        match start_standby(host_pid, fd_limit, &serving_mask, unreaped) {
            Ok((handover, standby)) => {
                let said = sys::read_byte(handover);
                sys::close(handover);
                match said {
                    // Its `Started` report carried `unreaped` to the host.
                    Some(standby::RUNNING) => unreaped = 0,
                    // Its report names it to the host.
                    Some(_) => {}
                    // Ended with nothing said: because the host closed its end, or killed.
                    None => {
                        if host_hung_up() {
                            sys::exit(0);
                        }
                        if unreaped == 0 {
                            unreaped = standby;
                        }
                    }
                }
            }
            Err(errno) => refuse_one_request(errno),
        }
    }
}

/// Forks the next standby, handing it `unreaped`; returns the read end of its handover pipe
/// (see [`standby`]) and its pid.
fn start_standby(
    host_pid: pid_t,
    fd_limit: c_uint,
    serving_mask: &libc::sigset_t,
    unreaped: pid_t,
) -> Result<(RawFd, pid_t), c_int> {
    let mut taken = [-1; 2];
    // SAFETY: `taken` is a valid out-array of two ints.
    if unsafe { libc::pipe2(taken.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(sys::errno());
    }
    let [taken_read, taken_write] = taken;
    // The standby starts with every signal blocked: it consumes them synchronously.
    sys::block_all_signals();
    // SAFETY: the child only runs async-signal-safe code and never returns.
    let forked = unsafe { sys::fork_sibling() };
    if forked == Ok(0) {
        sys::close(taken_read);
        let handover = standby::Handover {
            pipe: taken_write,
            unreaped,
        };
        // SAFETY: we are the new standby.
        unsafe { standby::stand_by(handover, host_pid, fd_limit) };
    }
    sys::set_signal_mask(serving_mask);
    sys::close(taken_write);
    forked
        .map(|standby| (taken_read, standby))
        .inspect_err(|_| sys::close(taken_read))
}

/// True once the host has closed its end of the control socket (or died).
fn host_hung_up() -> bool {
    let mut control = libc::pollfd {
        fd: CONTROL_FD,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd, no waiting.
    let ready = unsafe { libc::poll(&mut control, 1, 0) };
    ready > 0 && control.revents & libc::POLLHUP != 0
}

/// Without a standby, the next request is answered here, refused with `errno`.
fn refuse_one_request(errno: c_int) {
    let mut request = Received::new();
    if !receive(&mut request) {
        sys::exit(0);
    }
    if let Some(&report_fd) = request.fds().first() {
        let refusal = Report::Failed {
            stage: Stage::Zygote,
            supervisor: 0,
            errno,
        };
        sys::write_all(report_fd, &refusal.encode());
    }
    // The report pipe (the first fd) last: its end-of-file tells the host that the zygote
    // no longer holds any of the program's fds.
    for &fd in request.fds().iter().rev() {
        sys::close(fd);
    }
}

/// Keeps only the control socket (as [`CONTROL_FD`]) and `/dev/null` as fds 0-2, which the
/// program inherits for streams the spec leaves at `/dev/null`.
///
/// # Safety
/// Only in the freshly forked zygote.
unsafe fn adopt_fds(control: RawFd, fd_limit: c_uint) {
    // SAFETY: fd operations on fds this process owns.
    unsafe {
        if control == CONTROL_FD {
            libc::fcntl(control, libc::F_SETFD, libc::FD_CLOEXEC);
        } else {
            libc::dup3(control, CONTROL_FD, libc::O_CLOEXEC);
        }
        sys::close_fds_from(c_uint::try_from(CONTROL_FD + 1).unwrap_or(c_uint::MAX), fd_limit);
    }
    sys::null_onto(0, libc::O_RDONLY);
    sys::null_onto(1, libc::O_WRONLY);
    sys::null_onto(2, libc::O_WRONLY);
}

/// One datagram from the host, with the fds that came with it.
pub(super) struct Received {
    pub(super) header: [u8; HEADER_LEN],
    /// Room for an inline blob, word-aligned as decoding needs.
    blob: [usize; INLINE_BLOB_MAX / WORD],
    len: usize,
    flags: c_int,
    fds: [RawFd; MAX_FDS],
    fd_count: usize,
}

impl Received {
    /// Room for one request, every byte of it written (so its stack pages are this process's
    /// own before a request comes).
    pub(super) fn new() -> Self {
        Self {
            header: [0; HEADER_LEN],
            blob: [0; INLINE_BLOB_MAX / WORD],
            len: 0,
            flags: 0,
            fds: [-1; MAX_FDS],
            fd_count: 0,
        }
    }

    pub(super) fn fds(&self) -> &[RawFd] {
        self.fds.get(..self.fd_count).unwrap_or_default()
    }
}

/// Waits for the next request, into `received`; false once the host has closed its end (or
/// died).
pub(super) fn receive(received: &mut Received) -> bool {
    let mut control_buffer = [0u64; CONTROL_WORDS];
    let mut iov = [
        libc::iovec {
            iov_base: received.header.as_mut_ptr().cast(),
            iov_len: HEADER_LEN,
        },
        libc::iovec {
            iov_base: received.blob.as_mut_ptr().cast(),
            iov_len: size_of_val(&received.blob),
        },
    ];
    // SAFETY: a zeroed msghdr is valid; the pointers set below outlive the call.
    let mut message: libc::msghdr = unsafe { std::mem::zeroed() };
    message.msg_iov = iov.as_mut_ptr();
    message.msg_iovlen = iov.len();
    message.msg_control = control_buffer.as_mut_ptr().cast();
    message.msg_controllen = size_of_val(&control_buffer);
    let len = loop {
        // SAFETY: `message` describes live buffers.
        let len = unsafe { libc::recvmsg(CONTROL_FD, &mut message, libc::MSG_CMSG_CLOEXEC) };
        match usize::try_from(len) {
            // A host never sends an empty datagram: this is end-of-file.
            Ok(0) => return false,
            Ok(len) => break len,
            Err(_) if sys::errno() == libc::EINTR => {}
            Err(_) => return false,
        }
    };
    received.len = len;
    received.flags = message.msg_flags;
    // SAFETY: walking the control messages the kernel just wrote into `control_buffer`.
    unsafe {
        let mut cmsg = libc::CMSG_FIRSTHDR(&message);
        while !cmsg.is_null() {
            if (*cmsg).cmsg_level == libc::SOL_SOCKET && (*cmsg).cmsg_type == libc::SCM_RIGHTS {
                let data = libc::CMSG_DATA(cmsg).cast::<RawFd>();
                let bytes = ((*cmsg).cmsg_len as usize).saturating_sub(libc::CMSG_LEN(0) as usize);
                for index in 0..bytes / size_of::<RawFd>() {
                    let fd = data.add(index).read_unaligned();
                    match received.fds.get_mut(received.fd_count) {
                        Some(slot) => {
                            *slot = fd;
                            received.fd_count += 1;
                        }
                        None => sys::close(fd),
                    }
                }
            }
            cmsg = libc::CMSG_NXTHDR(&message, cmsg);
        }
    }
    true
}

/// Decodes a spawn request: the program's stdio fds and its blob, decoded where it came
/// (inline, in `request` itself) or mapped privately from its memfd.
pub(super) fn plan_of(request: &mut Received, fd_limit: c_uint) -> Result<SupervisorPlan, c_int> {
    let truncated = request.flags & (libc::MSG_TRUNC | libc::MSG_CTRUNC) != 0;
    let header = Header::decode(&request.header)
        .filter(|header| {
            !truncated && Some(request.len) == header.datagram_len() && header.fd_count() == request.fd_count
        })
        .ok_or(libc::EINVAL)?;
    let (&report_fd, passed) = request.fds().split_first().ok_or(libc::EINVAL)?;
    let (blob_fd, stdio_fds) = match header.blob_inline {
        true => (None, passed),
        false => passed
            .split_first()
            .map(|(&fd, rest)| (Some(fd), rest))
            .ok_or(libc::EINVAL)?,
    };
    let mut stdio = [-1; 3];
    let mut passed = stdio_fds.iter();
    for (index, slot) in stdio.iter_mut().enumerate() {
        if header.stdio & (1 << index) != 0 {
            *slot = *passed.next().ok_or(libc::EINVAL)?;
        }
    }
    let blob_len = usize::try_from(header.blob_len).map_err(|_| libc::EINVAL)?;
    let mapping = blob_fd.map(|fd| Mapping::new(fd, blob_len)).transpose()?;
    let base = match &mapping {
        Some(mapping) => mapping.base.cast(),
        None => request.blob.as_mut_ptr().cast(),
    };
    // SAFETY: `base` is word-aligned, writable and holds `blob_len` bytes: a private mapping of
    // that length, or the inline room, which the datagram's length shows the blob filled that far.
    let exec: ExecArgs = unsafe { decode_blob(base, blob_len) }.ok_or(libc::EINVAL)?;
    Ok(SupervisorPlan {
        grace_ns: header.grace_ns,
        report_fd,
        fd_limit,
        program: ProgramPlan { stdio, exec },
        request: mapping.map(Mapping::into_raw),
    })
}

/// A private, writable mapping of a request blob, unmapped on drop unless handed on.
struct Mapping {
    base: *mut c_void,
    len: usize,
}

impl Mapping {
    fn new(fd: RawFd, len: usize) -> Result<Self, c_int> {
        let protection = libc::PROT_READ | libc::PROT_WRITE;
        // SAFETY: mapping an fd we received; the kernel validates fd and length.
        let base = unsafe { libc::mmap(ptr::null_mut(), len, protection, libc::MAP_PRIVATE, fd, 0) };
        if base == libc::MAP_FAILED {
            return Err(sys::errno());
        }
        Ok(Self { base, len })
    }

    /// Keeps the mapping beyond this value; whoever holds the range unmaps it.
    fn into_raw(self) -> (*mut c_void, usize) {
        let raw = (self.base, self.len);
        std::mem::forget(self);
        raw
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: our own mapping; nothing points into it any more in this process.
        unsafe { libc::munmap(self.base, self.len) };
    }
}
