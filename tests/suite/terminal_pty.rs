//! The native PTY shim on real pseudo-terminals.

use crate::common::{eventually, processes_with, unique_seconds};
use crate::terminal_support::{bash_spec, expect_output, open_ptmx, pty_lock, screen, table};
use seam_host::natives::pty::TerminalWait;
use std::time::{Duration, Instant};

fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        s.rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z'))
    })
}

#[test]
fn the_shell_leads_its_own_session_on_the_terminal() {
    let _guard = pty_lock();
    let dir = tempfile::tempdir().unwrap();
    let ptys = table();
    let session = ptys.spawn(bash_spec(dir.path().to_str().unwrap())).unwrap();
    session
        .write(b"echo sid=$(($(ps -o sid= -p $$))) tty=$(tty) size=$(stty size)\n")
        .unwrap();
    let pid = session.pid();
    expect_output(&session, 0, &format!("sid={pid} tty=/dev/pts/"));
    expect_output(&session, 0, "size=24 80");
    assert_eq!(
        session.foreground_pgid().unwrap(),
        pid as i32,
        "the idle shell owns the foreground"
    );

    let from = session.end();
    session.resize(40, 132).unwrap();
    session.write(b"stty size\n").unwrap();
    expect_output(&session, from, "40 132");

    // The same session is found by id from anywhere in the host.
    assert_eq!(ptys.get(session.id()).unwrap().pid(), pid);
    ptys.close(session.id());
    assert_eq!(ptys.get(session.id()).err().map(|e| e.code()), Some("PTY_UNKNOWN"));
    assert_eq!(session.write(b"x").err().map(|e| e.code()), Some("PTY_CLOSED"));
}

#[test]
fn a_read_of_the_terminal_is_seen_and_answered() {
    let _guard = pty_lock();
    let dir = tempfile::tempdir().unwrap();
    let ptys = table();
    let session = ptys.spawn(bash_spec(dir.path().to_str().unwrap())).unwrap();
    session.write(b"echo ready\n").unwrap();
    let from = expect_output(&session, 0, "ready");
    assert!(
        eventually(Duration::from_secs(5), || session.foreground_wait().unwrap()
            == TerminalWait::Polling),
        "a shell idle at its prompt polls the terminal in its line editor"
    );
    session.write(b"read -r x; echo got=$x\n").unwrap();
    assert!(
        eventually(Duration::from_secs(5), || session.foreground_wait().unwrap()
            == TerminalWait::Reading),
        "`read` sleeps reading the terminal: {}",
        screen(&session)
    );
    session.write(b"answer\n").unwrap();
    expect_output(&session, from, "got=answer");
    ptys.close(session.id());
}

#[test]
fn a_reader_is_told_by_what_it_reads_on_any_thread() {
    let _guard = pty_lock();
    let dir = tempfile::tempdir().unwrap();
    let ptys = table();
    let session = ptys.spawn(bash_spec(dir.path().to_str().unwrap())).unwrap();
    let shell = session.pid() as i32;
    let settled = |wanted: TerminalWait| {
        eventually(Duration::from_secs(5), || {
            session.foreground_pgid().unwrap() != shell && session.foreground_wait().unwrap() == wanted
        })
    };
    // The main thread joins the one that reads the keyboard.
    session
        .write(b"python3 -c 'import os,threading; t=threading.Thread(target=lambda: os.read(0, 1)); t.start(); t.join()'\n")
        .unwrap();
    assert!(settled(TerminalWait::Reading), "{}", screen(&session));
    session.write(b"x\n").unwrap();
    // A TCP receive sleeps where a terminal read does, and waits on the network alone.
    session
        .write(
            b"python3 -c 'import socket,time; l=socket.create_server((\"127.0.0.1\",0)); \
              c=socket.create_connection(l.getsockname()); print(\"receiving\", flush=True); l.accept()[0].recv(1)'\n",
        )
        .unwrap();
    expect_output(&session, 0, "receiving\r\n");
    assert!(settled(TerminalWait::None), "{}", screen(&session));
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(
        session.foreground_wait().unwrap(),
        TerminalWait::None,
        "{}",
        screen(&session)
    );
    ptys.close(session.id());
}

#[test]
fn a_real_sigint_interrupts_the_foreground_job_even_when_the_shell_traps_it() {
    let _guard = pty_lock();
    let dir = tempfile::tempdir().unwrap();
    let ptys = table();
    let session = ptys.spawn(bash_spec(dir.path().to_str().unwrap())).unwrap();
    let shell = session.pid() as i32;
    session
        .write(b"trap 'echo trapped' INT; sleep 30; echo after=$?\n")
        .unwrap();
    assert!(eventually(Duration::from_secs(5), || session
        .foreground_pgid()
        .unwrap()
        != shell));
    assert_eq!(
        session.foreground_wait().unwrap(),
        TerminalWait::None,
        "sleep does not wait on the terminal"
    );
    let started = Instant::now();
    session.signal_foreground(libc::SIGINT).unwrap();
    expect_output(&session, 0, "after=130");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(eventually(Duration::from_secs(5), || session
        .foreground_pgid()
        .unwrap()
        == shell));
    ptys.close(session.id());
}

#[test]
fn scrollback_is_bounded_and_reads_by_offset_say_what_slid_out() {
    let _guard = pty_lock();
    let dir = tempfile::tempdir().unwrap();
    let ptys = table();
    let mut spec = bash_spec(dir.path().to_str().unwrap());
    spec.scrollback_bytes = 4096;
    let session = ptys.spawn(spec).unwrap();
    session
        .write(b"for i in $(seq 1 2000); do printf 'line-%05d\\n' $i; done; echo end-of-$((6*7))\n")
        .unwrap();
    expect_output(&session, 0, "end-of-42\r\n");
    let chunk = session.read_from(0, usize::MAX);
    assert!(chunk.lossy && chunk.start > 0 && chunk.data.len() <= 4096, "{chunk:?}");
    assert_eq!(chunk.next, session.end());
    let partial = session.read_from(chunk.start, 10);
    assert_eq!((partial.data.len(), partial.next), (10, chunk.start + 10));
    assert!(!partial.lossy && !partial.eof);

    session.write(b"exit 7\n").unwrap();
    assert!(eventually(Duration::from_secs(5), || session.exited().is_some()));
    assert_eq!(session.exited().unwrap().exit_code, Some(7));
    assert!(eventually(Duration::from_secs(5), || session
        .read_from(session.end(), 1)
        .eof));
    ptys.close(session.id());
}

#[test]
fn close_ends_the_whole_session_tree_even_what_left_the_session() {
    let _guard = pty_lock();
    let dir = tempfile::tempdir().unwrap();
    let ptys = table();
    let session = ptys.spawn(bash_spec(dir.path().to_str().unwrap())).unwrap();
    let marker = unique_seconds(1000);
    // A background job, a job that ignores SIGHUP and SIGTERM, and a process in a new session.
    let command = format!(
        "sleep {marker} & (trap '' HUP TERM; exec sleep {marker}) & setsid sleep {marker} & echo started-$((6*7))\n"
    );
    session.write(command.as_bytes()).unwrap();
    // A computed needle: the terminal echoes the command line itself.
    expect_output(&session, 0, "started-42");
    // Three `sleep`s, not the short-lived `setsid` that forks the third: closing while it still
    // runs would race its child's birth (which, orphaned after the shell died, nothing can find).
    let sleeping = || {
        let pids = processes_with(&marker).into_iter().map(|(pid, _)| pid);
        pids.filter(|pid| std::fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim() == "sleep"))
            .count()
    };
    assert!(
        eventually(Duration::from_secs(5), || sleeping() == 3
            && processes_with(&marker).len() == 3),
        "{:?}",
        processes_with(&marker)
    );
    let shell = session.pid() as i32;
    let outcome = ptys.close(session.id()).unwrap();
    assert!(outcome.signal.is_some() || outcome.exit_code.is_some());
    assert!(!alive(shell));
    let survivors = processes_with(&marker);
    assert!(
        survivors.iter().all(|(_, state)| *state == 'Z'),
        "survivors: {survivors:?}"
    );
}

#[test]
fn a_thousand_open_close_cycles_leak_no_pty_descriptor() {
    let _guard = pty_lock();
    let dir = tempfile::tempdir().unwrap();
    let ptys = table();
    let before = open_ptmx();
    let mut spec = bash_spec(dir.path().to_str().unwrap());
    spec.argv = vec!["/bin/sh".into()];
    for _ in 0..1000 {
        let session = ptys.spawn(spec.clone()).unwrap();
        ptys.close(session.id());
    }
    assert_eq!(open_ptmx(), before);
    assert!(ptys.ids().is_empty());
}

#[test]
fn invalid_specs_are_refused_with_their_codes() {
    let _guard = pty_lock();
    let ptys = table();
    let dir = tempfile::tempdir().unwrap();
    let before = open_ptmx();
    let mut spec = bash_spec(dir.path().to_str().unwrap());
    spec.argv = vec!["bash".into()];
    assert_eq!(ptys.spawn(spec).err().map(|e| e.code()), Some("PTY_INVALID_SPEC"));
    let mut spec = bash_spec(dir.path().to_str().unwrap());
    spec.rows = 501;
    assert_eq!(ptys.spawn(spec).err().map(|e| e.code()), Some("PTY_INVALID_SPEC"));
    let session = ptys.spawn(bash_spec(dir.path().to_str().unwrap())).unwrap();
    assert_eq!(
        session.resize(24, 1001).err().map(|e| e.code()),
        Some("PTY_INVALID_SPEC")
    );
    ptys.close(session.id());
    let mut spec = bash_spec(dir.path().to_str().unwrap());
    spec.cwd = dir.path().join("missing").display().to_string();
    assert_eq!(ptys.spawn(spec).err().map(|e| e.code()), Some("PTY_CWD_INVALID"));
    let mut spec = bash_spec(dir.path().to_str().unwrap());
    spec.argv = vec!["/nonexistent/shell".into()];
    assert_eq!(ptys.spawn(spec).err().map(|e| e.code()), Some("PTY_SPAWN_FAILED"));
    assert_eq!(open_ptmx(), before, "a failed spawn closes its PTY");
}

#[test]
fn close_ends_processes_that_double_fork_while_it_runs() {
    let _guard = pty_lock();
    let dir = tempfile::tempdir().unwrap();
    let ptys = table();
    let session = ptys.spawn(bash_spec(dir.path().to_str().unwrap())).unwrap();
    let shell = session.pid() as i32;
    // The session's tree lives in a cgroup of its own, which is what makes this close exact.
    let cgroup = std::fs::read_to_string(format!("/proc/{shell}/cgroup")).unwrap();
    assert!(
        cgroup.lines().any(|l| l.starts_with("0::") && l.contains("-pty-")),
        "{cgroup}"
    );
    let marker = unique_seconds(2000);
    // Daemons born without pause, each orphaned at once (setsid, then its parent exits): some
    // are mid-birth whenever close runs, and once the shell is gone they reparent to init.
    let command = format!("(while :; do setsid sh -c 'sleep {marker} &'; done) & echo started-$((6*7))\n");
    session.write(command.as_bytes()).unwrap();
    expect_output(&session, 0, "started-42");
    assert!(eventually(Duration::from_secs(5), || processes_with(&marker).len() > 20));
    ptys.close(session.id()).unwrap();
    assert!(!alive(shell));
    let survivors: Vec<_> = processes_with(&marker).into_iter().filter(|(_, s)| *s != 'Z').collect();
    assert!(survivors.is_empty(), "survivors: {survivors:?}");
}
