//! Facts about a terminal session read from /proc, and the teardown of its process tree.
//!
//! A PTY session is a kernel session (the shell called setsid), so its processes are found by
//! session id; descendants that left the session (setsid of their own) are found through their
//! parent links: the shell is a child subreaper, so such orphans reparent to it rather than to
//! init. Processes are remembered with their start time, so a reused pid is never signalled.

use super::polled::{self, Polled};
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use std::collections::HashSet;
use std::os::unix::fs::MetadataExt;
use std::time::{Duration, Instant};

/// Wait channels of a task blocked in a terminal read (n_tty_read sleeps in `wait_woken`, as
/// does a TCP receive: the call tells them apart, see `polled`). Names differ across kernels;
/// the caller treats the answer as one signal among others.
const TTY_READ_WCHANS: &[&str] = &["wait_woken", "n_tty_read"];
/// Wait channels of poll/select/epoll: a line editor waiting for a key (bash's readline, python's
/// REPL, less, node's REPL on its event loop), or a busy program waiting on anything else; the
/// set it polls tells which (`polled`).
const POLL_WCHANS: &[&str] = &[
    "poll_schedule_timeout",
    "do_select",
    "do_sys_poll",
    "core_sys_select",
    "ep_poll",
    "do_epoll_wait",
];

struct Stat {
    state: char,
    ppid: i32,
    pgrp: i32,
    session: i32,
    threads: i64,
    /// Clock ticks after boot: with the pid, names one process for good.
    start_time: u64,
}

fn stat(pid: i32) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    let rest = &text[text.rfind(')')? + 2..];
    let mut fields = rest.split(' ');
    let state = fields.next()?.chars().next()?;
    let mut number = || fields.next()?.parse::<i32>().ok();
    let (ppid, pgrp, session) = (number()?, number()?, number()?);
    // Fields 20 (num_threads) and 22 (starttime) are the 17th and 19th after the state.
    let threads = fields.nth(13)?.parse().ok()?;
    let start_time = fields.nth(1)?.parse().ok()?;
    Some(Stat {
        state,
        ppid,
        pgrp,
        session,
        threads,
        start_time,
    })
}

fn all_pids() -> Vec<i32> {
    numbered_entries("/proc")
}

/// The names of `dir`'s entries that are numbers: pids under /proc, thread ids under a task dir.
fn numbered_entries(dir: &str) -> Vec<i32> {
    let Ok(dir) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok()).collect()
}

/// A process named for good: pid and start time.
type Member = (i32, u64);

fn is_live(member: Member) -> bool {
    stat(member.0).is_some_and(|s| s.start_time == member.1 && s.state != 'Z' && s.state != 'X')
}

/// Live (not zombie) processes of session `sid` and their descendants.
fn session_tree(sid: i32) -> Vec<Member> {
    let stats: Vec<(i32, Stat)> = all_pids().into_iter().filter_map(|p| Some((p, stat(p)?))).collect();
    let mut members: HashSet<i32> = stats
        .iter()
        .filter(|(_, s)| s.session == sid)
        .map(|(p, _)| *p)
        .collect();
    loop {
        let before = members.len();
        for (pid, s) in &stats {
            if members.contains(&s.ppid) {
                members.insert(*pid);
            }
        }
        if members.len() == before {
            break;
        }
    }
    stats
        .iter()
        .filter(|(p, s)| members.contains(p) && s.state != 'Z' && s.state != 'X')
        .map(|(p, s)| (*p, s.start_time))
        .collect()
}

/// How a process group waits on its terminal: asleep reading it, asleep polling it, or neither.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TerminalWait {
    None,
    Reading,
    Polling,
}

/// How group `pgid` waits on the terminal device `tty`: a reader anywhere in the group wins over
/// a poller. The terminal may be any of a process's descriptors, not only stdin: a pager at the
/// end of a pipe (`man`, `git log`, `ls | less`) and a program asking for a passphrase read the
/// keyboard through /dev/tty opened apart. The terminal is known by its device number, not its
/// path: a sandbox shows the same terminal under another name (/dev/console).
pub(super) fn group_wait_on_tty(pgid: i32, tty: u64) -> TerminalWait {
    let mut wait = TerminalWait::None;
    for pid in all_pids() {
        // The cheap filter first: most processes are not in the group.
        let Some(process) = stat(pid).filter(|s| s.pgrp == pgid) else {
            continue;
        };
        // Any thread may be the reader (a main thread joining the one reading input); a
        // thread's own /proc entry answers for it, reached by its id as a process's is.
        let threads = if process.threads > 1 {
            numbered_entries(&format!("/proc/{pid}/task"))
        } else {
            vec![pid]
        };
        for thread in threads {
            let state = if thread == pid {
                Some(process.state)
            } else {
                stat(thread).map(|s| s.state)
            };
            if state != Some('S') {
                continue;
            }
            let this = thread_wait_on_tty(thread, tty);
            if this == TerminalWait::Reading {
                return this;
            }
            if this == TerminalWait::Polling {
                wait = this;
            }
        }
    }
    wait
}

/// How one sleeping thread waits on the terminal `tty`.
fn thread_wait_on_tty(thread: i32, tty: u64) -> TerminalWait {
    let Ok(wchan) = std::fs::read_to_string(format!("/proc/{thread}/wchan")) else {
        return TerminalWait::None;
    };
    // Suffixes such as `.constprop.0` are compiler artifacts of the symbol name.
    let wchan = wchan.trim().split('.').next().unwrap_or_default();
    let this = if TTY_READ_WCHANS.contains(&wchan) {
        TerminalWait::Reading
    } else if POLL_WCHANS.contains(&wchan) {
        TerminalWait::Polling
    } else {
        return TerminalWait::None;
    };
    let holds = match polled::waits_on_terminal(thread, tty) {
        Polled::Terminal => true,
        Polled::Elsewhere => false,
        // Its call unreadable here: holding the terminal is the best sign left.
        Polled::Unknown => holds_terminal(thread, tty),
    };
    if holds { this } else { TerminalWait::None }
}

fn holds_terminal(pid: i32, tty: u64) -> bool {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return false;
    };
    // stat follows an fd's magic link to the open file, whatever the process calls it.
    fds.filter_map(Result::ok)
        .any(|fd| std::fs::metadata(fd.path()).is_ok_and(|m| m.rdev() == tty))
}

fn signal_all(members: &HashSet<Member>, signals: &[Signal]) {
    for &member in members {
        for &signal in signals {
            // Re-checked right before signalling: the pid may have been reused since the scan.
            if is_live(member) {
                let _ = kill(Pid::from_raw(member.0), signal);
            }
        }
    }
}

/// SIGHUP + SIGTERM (+ SIGCONT so stopped jobs see them), then SIGKILL for whatever is left after
/// `grace`. An interactive bash ignores SIGTERM, hence the SIGHUP a closing terminal would send.
/// Every process seen in the tree is remembered: once the shell dies its orphans reparent away
/// and could no longer be found from the session.
pub(super) fn terminate_session(sid: i32, grace: Duration) {
    let mut known: HashSet<Member> = session_tree(sid).into_iter().collect();
    signal_all(&known, &[Signal::SIGHUP, Signal::SIGTERM, Signal::SIGCONT]);
    let deadline = Instant::now() + grace;
    let mut delay = Duration::from_millis(1);
    loop {
        known.extend(session_tree(sid));
        known.retain(|&m| is_live(m));
        if known.is_empty() {
            return;
        }
        if Instant::now() >= deadline {
            break;
        }
        std::thread::sleep(delay);
        delay = (delay * 2).min(Duration::from_millis(20));
    }
    // A process may fork while we kill: repeat until the tree is empty (bounded).
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        signal_all(&known, &[Signal::SIGKILL]);
        std::thread::sleep(Duration::from_millis(5));
        known.extend(session_tree(sid));
        known.retain(|&m| is_live(m));
        if known.is_empty() || Instant::now() >= deadline {
            return;
        }
    }
}
