//! What a standby touches between taking its request and its program's exec is faulted in
//! while it waits, off the spawn's path.
//!
//! A fork copies no page-table entry of the code (the binary's and libc's text are file
//! mappings the kernel maps again on first use, one fault per 64 KiB window), and every page
//! of stack and static data the zygote wrote is shared copy-on-write until the standby writes
//! it. Left alone, a dozen such faults fell between the request and the exec of every spawn.

use std::hint::black_box;
use std::mem::MaybeUninit;
use std::ptr;

use super::super::wire;
use super::{SUPERVISOR_NAME, program, run_program, standby, sys, zygote};

/// Stack the request's path uses below the standby's waiting frame: the decoded request, the
/// program child's stack (`program::CHILD_STACK_BYTES`) and the frames in between.
const STACK_BYTES: usize = 32 * 1024;
const PAGE_BYTES: usize = 4096;

/// Touches the code, static data, stack and thread-local data of a request's path.
pub(super) fn prefault() {
    let code: [*const u8; 14] = [
        zygote::plan_of as *const u8,
        wire::decode_blob as *const u8,
        run_program as *const u8,
        program::launch as *const u8,
        program::enter_program as *const u8,
        standby::refuse as *const u8,
        sys::write_all as *const u8,
        libc::clone as *const u8,
        libc::dup2 as *const u8,
        libc::chdir as *const u8,
        libc::setpgid as *const u8,
        libc::sigprocmask as *const u8,
        libc::pthread_sigmask as *const u8,
        libc::execve as *const u8,
    ];
    let data = [SUPERVISOR_NAME.as_ptr().cast::<u8>(), standby::RUNNING_BYTE.as_ptr()];
    for address in code.into_iter().chain(data) {
        // SAFETY: each is the entry of a function (in a readable, executable mapping) or
        // static data.
        black_box(unsafe { ptr::read_volatile(address) });
    }
    // errno lives in the thread's static TLS block, a copy-on-write page after the fork.
    // SAFETY: the calling thread's own errno.
    unsafe { *libc::__errno_location() = 0 };
    touch_stack();
}

#[inline(never)]
fn touch_stack() {
    let mut area = MaybeUninit::<[u8; STACK_BYTES]>::uninit();
    let base = area.as_mut_ptr().cast::<u8>();
    for offset in (0..STACK_BYTES).step_by(PAGE_BYTES) {
        // SAFETY: a byte of our own array.
        unsafe { ptr::write_volatile(base.add(offset), 0) };
    }
    black_box(&area);
}
