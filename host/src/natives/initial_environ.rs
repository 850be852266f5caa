//! seam's own environment, kept from the programs it starts.
//!
//! `/proc/<pid>/environ` shows the block of memory a process was started with, to any process
//! of the same user: a command that reads its parent's (the supervisor, a fork of seam) or
//! seam's own would see every credential the env policy withholds from it. So, first thing,
//! every variable is moved out of that block and the block is zeroed; forks inherit it zeroed.

/// Moves each variable the C library still reads from the initial block to a heap copy, then
/// zeroes the block. Best effort: without /proc, the block is left as it is.
///
/// # Safety
/// Only while the process has one thread: nothing else may read or change the environment.
pub unsafe fn hide() {
    let Some((start, end)) = initial_block() else {
        return;
    };
    let inside = |pointer: *const libc::c_char| (start..end).contains(&(pointer as usize));
    // SAFETY: `environ` is the C library's NULL-terminated array, which nothing else touches
    // while this process has one thread; each entry is a NUL-terminated string.
    unsafe {
        let mut entry = libc::environ;
        while !entry.is_null() && !(*entry).is_null() {
            if inside(*entry) {
                let copy = libc::strdup(*entry);
                if copy.is_null() {
                    // Out of memory this early: leave the block readable rather than lose it.
                    return;
                }
                *entry = copy;
            }
            entry = entry.add(1);
        }
        // The array itself may live in the block too (it does at start): copy it as well.
        if inside(libc::environ.cast()) && !copy_array() {
            return;
        }
        std::ptr::write_bytes(start as *mut u8, 0, end - start);
    }
}

/// Replaces `environ` with a heap copy of the array; false if memory ran out.
///
/// # Safety
/// As [`hide`].
unsafe fn copy_array() -> bool {
    // SAFETY: as `hide`; the copy holds the same pointers and its NULL end.
    unsafe {
        let mut len = 0;
        while !(*libc::environ.add(len)).is_null() {
            len += 1;
        }
        let bytes = (len + 1) * std::mem::size_of::<*mut libc::c_char>();
        let copy = libc::malloc(bytes).cast::<*mut libc::c_char>();
        if copy.is_null() {
            return false;
        }
        std::ptr::copy_nonoverlapping(libc::environ, copy, len + 1);
        libc::environ = copy;
        true
    }
}

/// `env_start` and `env_end` of this process (fields 50 and 51 of `/proc/self/stat`).
fn initial_block() -> Option<(usize, usize)> {
    let stat = std::fs::read("/proc/self/stat").ok()?;
    // The command name may hold spaces and parentheses: fields are counted after its last ')'.
    let after_name = &stat[stat.iter().rposition(|b| *b == b')')? + 1..];
    let text = std::str::from_utf8(after_name).ok()?;
    let mut fields = text.split_whitespace().skip(50 - 3);
    let start = fields.next()?.parse().ok()?;
    let end = fields.next()?.parse().ok()?;
    (start < end).then_some((start, end))
}
