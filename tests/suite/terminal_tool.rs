//! The terminal_* tools of the default world on real PTYs: readiness, still-running, input
//! waits, cancellation, ownership.

use crate::common::{
    batch, batch_command, eventually, first_text, number_after, run_batch, sleep_runs, unique_seconds,
};
use crate::terminal_support::{TerminalWorld, pty_lock};
use std::os::unix::process::CommandExt;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// The bracketed status line a send ends with.
fn status(text: &str) -> &str {
    text.lines().last().unwrap_or_default()
}

fn expect_status(text: &str, wanted: &str) {
    assert!(status(text).contains(wanted), "{text}");
}

#[test]
fn readiness_survives_what_users_do_to_their_shell() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();

    let text = agent.send(&id, "false", None);
    expect_status(&text, "done, exit code 1; decided by prompt-marker");
    let text = agent.send(&id, "python3 -m venv --without-pip venv && . venv/bin/activate", None);
    expect_status(&text, "done, exit code 0");
    let text = agent.send(&id, "echo venv=$VIRTUAL_ENV", None);
    assert!(
        text.contains(&format!("venv={}", terminal.dir.path().join("venv").display())),
        "{text}"
    );
    let text = agent.send(&id, "PS1='x '", None);
    expect_status(&text, "done, exit code 0; decided by prompt-marker");
    let text = agent.send(&id, "set -euo pipefail", None);
    expect_status(&text, "done, exit code 0; decided by prompt-marker");
    let text = agent.send(&id, "PROMPT_COMMAND='echo hook-ran'", None);
    expect_status(&text, "decided by prompt-marker");
    let text = agent.send(&id, "echo sum=$((2+3))", None);
    assert!(text.contains("sum=5") && text.contains("hook-ran"), "{text}");
    expect_status(&text, "decided by prompt-marker");
    // The user's hook replaced the status capture: the status is not reported rather than guessed.
    assert!(
        status(&text).contains("[pty-") && !status(&text).contains("exit code"),
        "{text}"
    );
    agent.close(&id);
}

/// A program asleep in select, poll or epoll asks for input only when the terminal is in the set
/// it waits on: an event loop waiting on a timer, or a parent collecting a child's output from
/// pipes, is still running, with the terminal open as its stdout.
#[test]
fn a_program_waiting_on_timers_or_pipes_is_not_waiting_for_input() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();
    let busy = [
        (
            "python3 -c \"import select; select.select([], [], [], 1.5); print('slept')\"",
            "slept",
        ),
        (
            "python3 -c \"import subprocess; subprocess.run(['sleep', '1.5'], capture_output=True); print('collected')\"",
            "collected",
        ),
    ];
    for (command, said) in busy {
        let text = agent.send(&id, command, None);
        assert!(text.contains(said), "{text}");
        expect_status(&text, "done, exit code 0");
    }
    let text = agent.send(
        &id,
        "python3 -c \"import select, sys; select.select([sys.stdin], [], [], 30); print('got', input())\"",
        None,
    );
    expect_status(&text, "waiting for input");
    let text = agent.send(&id, "hello", None);
    assert!(text.contains("got hello"), "{text}");
    expect_status(&text, "done, exit code 0");
    agent.close(&id);
}

/// Silence is the shell idle at a prompt that brought no marker (a continuation prompt). When a
/// quiet foreground job ends the shell is in front again, with no output for longer than
/// readiness-ms, until its prompt comes back; here it then reads a pipe that stays empty for
/// longer than that. That is the command running, not a silent shell.
#[test]
fn silence_is_only_the_shell_idle_at_a_prompt_without_a_marker() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();
    let text = agent.send(&id, "sleep 1.3; read -u 3 3< <(sleep 2); echo after-wait", None);
    assert!(text.contains("after-wait"), "{text}");
    expect_status(&text, "done, exit code 0; decided by prompt-marker");
    let text = agent.send(&id, "echo \"unclosed", None);
    expect_status(
        &text,
        "quiet: no prompt marker and no output for a while; decided by silence",
    );
    let text = agent.send(&id, "quote\"", None);
    assert!(text.contains("unclosed\nquote\n"), "{text}");
    expect_status(&text, "done, exit code 0; decided by prompt-marker");
    agent.close(&id);
}

#[test]
fn a_long_command_reads_as_still_running_and_a_later_read_sees_it_finish() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();
    let started = Instant::now();
    let text = agent.send(&id, "sleep 3; echo finished-$((6*7))", Some(300));
    expect_status(&text, "still running; decided by timeout");
    assert!(started.elapsed() < Duration::from_secs(2));
    let mut seen = String::new();
    let finished = eventually(Duration::from_secs(10), || {
        let read = agent.call("terminal_read", serde_json::json!({"session_id": id}));
        seen.push_str(&read.text());
        seen.contains("finished-42")
    });
    assert!(finished, "{seen}");
    let text = agent.send(&id, "echo next", None);
    expect_status(&text, "done, exit code 0");
    // From the start: the session's output begins at its first prompt, without the set-up.
    let all = agent.call("terminal_read", serde_json::json!({"session_id": id, "from_byte": 0}));
    let all = all.text();
    assert!(all.starts_with("$ sleep 3; echo finished"), "{all}");
    assert!(all.contains("finished-42") && !all.contains("__seam"), "{all}");
    agent.close(&id);
}

/// A send that returned leaves no send in flight, but what it started may still hold the
/// terminal: the list says so, since input would go to that program, not to the prompt.
#[test]
fn the_list_tells_a_shell_at_its_prompt_from_a_program_left_running() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();
    let state = || {
        let list = agent.call("terminal_list", serde_json::json!({})).text();
        let line = list
            .lines()
            .find(|l| l.starts_with(&format!("{id} ")))
            .unwrap_or_default()
            .to_owned();
        line.split(" cwd=")
            .next()
            .unwrap_or_default()
            .trim_start_matches(&format!("{id} "))
            .to_owned()
    };
    assert_eq!(state(), "idle");
    expect_status(&agent.send(&id, "sleep 30", Some(300)), "still running");
    assert_eq!(state(), "running a program");
    agent.call(
        "terminal_signal",
        serde_json::json!({"session_id": id, "signal": "INT"}),
    );
    assert!(eventually(Duration::from_secs(5), || state() == "idle"), "{}", state());
    expect_status(&agent.send(&id, "cat", None), "waiting for input");
    assert_eq!(state(), "waiting for input");
    agent.call(
        "terminal_signal",
        serde_json::json!({"session_id": id, "signal": "INT"}),
    );
    assert!(eventually(Duration::from_secs(5), || state() == "idle"), "{}", state());
    // Past its prompt marker, a shell still working out its prompt is on its way to it: idle.
    expect_status(&agent.send(&id, "PS1='$(sleep 0.5)$ '", None), "done");
    expect_status(&agent.send(&id, "true", None), "done");
    assert_eq!(state(), "idle");
    // The shell itself busy (a loop of builtins) holds the terminal as a program would.
    expect_status(&agent.send(&id, "while :; do :; done", Some(300)), "still running");
    assert_eq!(state(), "running a program");
    agent.close(&id);
}

#[test]
fn a_command_typed_while_another_runs_is_done_only_when_its_own_prompt_returns() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();
    let text = agent.send(&id, "sleep 1; echo first-$((1+1))", Some(200));
    expect_status(&text, "still running");
    // The earlier command's prompt comes back first; the typed-ahead line runs right after it.
    let text = agent.send(&id, "echo second-$((2+2))", None);
    assert!(text.contains("second-4\n"), "{text}");
    expect_status(&text, "done, exit code 0; decided by prompt-marker");
    assert!(!status(&text).contains("more output"), "{text}");
    agent.close(&id);
}

#[test]
fn a_program_typed_while_another_runs_is_seen_waiting_for_input_once_it_asks() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();
    let text = agent.send(&id, "sleep 1", Some(200));
    expect_status(&text, "still running");
    // The earlier command's prompt comes back first: it is not this one's, and what the typed
    // line runs next asks a question.
    let text = agent.send(&id, r#"python3 -c "print('hello', input('name? '))""#, Some(10_000));
    expect_status(&text, "waiting for input; decided by stdin-wait");
    let text = agent.send(&id, "ada", None);
    assert!(text.contains("hello ada"), "{text}");
    expect_status(&text, "done, exit code 0");
    agent.close(&id);
}

/// The list shows where the shell is now, after its `cd`s, not where it started; after it
/// exited, where it last was.
#[test]
fn the_list_shows_the_shell_s_current_directory() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();
    let elsewhere = tempfile::tempdir().unwrap();
    let target = elsewhere.path().canonicalize().unwrap();
    expect_status(
        &agent.send(&id, &format!("cd {}", target.display()), None),
        "done, exit code 0",
    );
    let list = agent.call("terminal_list", serde_json::json!({})).text();
    assert!(list.contains(&format!("cwd={}", target.display())), "{list}");
    expect_status(&agent.send(&id, "exit 3", None), "shell exited with code 3");
    let screen = agent.call("terminal_read", serde_json::json!({"session_id": id, "screen": true}));
    assert!(
        status(&screen.text()).ends_with("; the shell exited]"),
        "{}",
        screen.text()
    );
    let list = agent.call("terminal_list", serde_json::json!({})).text();
    assert!(
        list.contains("exited with code 3") && list.contains(&format!("cwd={}", target.display())),
        "{list}"
    );
    agent.close(&id);
}

/// A command left running and then interrupted prints its prompt around the next send: that
/// prompt is not the next command's, even when the next command is quiet.
#[test]
fn a_send_after_an_interrupted_command_waits_for_its_own_prompt() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();
    expect_status(&agent.send(&id, "sleep 30", Some(300)), "still running");
    agent.call(
        "terminal_signal",
        serde_json::json!({"session_id": id, "signal": "INT"}),
    );
    // The interrupted command's prompt (exit 130) may come back before or after the send
    // starts; either way it is not the prompt of what the send runs.
    let started = Instant::now();
    let text = agent.send(&id, "sleep 1; echo slept-$((3*3))", None);
    assert!(text.contains("slept-9"), "{text}");
    expect_status(&text, "done, exit code 0; decided by prompt-marker");
    assert!(started.elapsed() >= Duration::from_secs(1), "{text}");
    agent.close(&id);
}

/// Output past the scrollback is gone before the send reads it: the send says how much; of
/// what is left it shows the end, where a command prints its result, and says where the rest
/// is. A read's status speaks of the shell, not of a command.
#[test]
fn a_send_whose_output_outgrew_the_scrollback_says_so_and_shows_the_end() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();
    // Bounded generously: on a loaded machine 400000 lines through a PTY take seconds.
    let text = agent.send(&id, "seq 1 400000; echo END", Some(90_000));
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    assert!(
        first.starts_with("[the first ") && first.ends_with(" bytes of output had already left the scrollback]"),
        "{first}"
    );
    let second = lines.next().unwrap_or_default();
    assert!(
        second.starts_with("[bytes ") && second.contains(" are left out, the end follows"),
        "{second}"
    );
    assert!(text.contains("\n399999\n400000\nEND\n"), "{text}");
    expect_status(&text, "done, exit code 0");
    assert!(!status(&text).contains("more output"), "{text}");
    let from = number_after(second, "from_byte ");
    let read = agent.call(
        "terminal_read",
        serde_json::json!({"session_id": id, "from_byte": from}),
    );
    assert!(
        read.text().ends_with("; more output follows; shell open]"),
        "{}",
        read.text()
    );
    agent.close(&id);
}

#[test]
fn a_read_of_the_terminal_is_reported_as_waiting_for_input_and_the_answer_completes_it() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();
    let text = agent.send(&id, "read -r -p 'name? ' x; echo got=$x", None);
    expect_status(&text, "waiting for input; decided by stdin-wait");
    assert!(text.contains("name? "), "{text}");
    let text = agent.send(&id, "answer", None);
    assert!(text.contains("got=answer"), "{text}");
    expect_status(&text, "done, exit code 0");
    agent.close(&id);
}

#[test]
fn a_python_repl_runs_inside_the_terminal() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();
    let text = agent.send(&id, "python3 -q", None);
    expect_status(&text, "waiting for input");
    let text = agent.send(&id, "print(6 * 7)", None);
    assert!(
        text.contains("42") && status(&text).contains("waiting for input"),
        "{text}"
    );
    let text = agent.send(&id, "exit()", None);
    expect_status(&text, "done, exit code 0");
    // The prompt a REPL printed before it waited is in that send's result, not the next one's.
    for _ in 0..5 {
        let started = agent.send(&id, "python3 -q", None);
        assert!(
            status(&started).contains("waiting for input") && started.contains(">>> "),
            "{started}"
        );
        let ended = agent.send(&id, "exit()", None);
        assert!(!ended.contains(">>>"), "{ended}");
    }
    agent.close(&id);
}

/// Node's REPL waits for a key on its event loop (epoll), not in a read or poll of the terminal.
#[test]
fn a_node_repl_is_seen_waiting_for_input() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();
    // A send that waited out its timeout would say "still running; decided by timeout".
    let text = agent.send(&id, "node -i", None);
    expect_status(&text, "waiting for input");
    let text = agent.send(&id, "6 * 7", None);
    assert!(
        text.contains("42") && status(&text).contains("waiting for input"),
        "{text}"
    );
    // Its line editing moves the cursor, but its output reads as lines, all of them.
    let text = agent.send(&id, "for (let i = 0; i < 60; i++) console.log('line' + i)", None);
    assert!(text.contains("\nline0\n") && text.contains("\nline59\n"), "{text}");
    assert!(!status(&text).contains("showing the screen"), "{text}");
    let text = agent.send(&id, ".exit", None);
    expect_status(&text, "done, exit code 0");
    agent.close(&id);
}

#[test]
fn cancelling_a_send_interrupts_the_foreground_job_even_when_the_shell_traps_sigint() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();
    agent.send(&id, "trap 'echo trapped-INT' INT", None);
    let context = agent.context();
    let flag = context.cancelled.clone();
    let marker = unique_seconds(30);
    let canceller = {
        let marker = marker.clone();
        // Cancelled once the job runs, however slowly the shell got to it.
        std::thread::spawn(move || {
            eventually(Duration::from_secs(10), || sleep_runs(&marker));
            flag.store(true, Ordering::Relaxed);
        })
    };
    let started = Instant::now();
    let input = format!("sleep {marker}; echo sleep-status=$?");
    let args = serde_json::json!({"session_id": id, "input": input, "wait_ms": 20000});
    let result = agent.call_with("terminal_send", args, context);
    canceller.join().unwrap();
    let text = result.text();
    // Well before the sleep would have ended by itself.
    assert!(started.elapsed() < Duration::from_secs(20), "{text}");
    // The shell's own trap does not run: the signal went to the foreground job, not to the shell.
    assert!(
        text.contains("sleep-status=130") && !text.contains("trapped-INT"),
        "{text}"
    );
    expect_status(&text, "decided by prompt-marker");
    let text = agent.send(&id, "echo alive", None);
    assert!(text.contains("alive"), "{text}");
    agent.close(&id);
}

#[test]
fn full_screen_output_and_very_long_lines_come_back_whole() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();
    let text = agent.send(&id, "top -b -n1", None);
    assert!(
        text.contains("PID") && status(&text).contains("done, exit code 0"),
        "{text}"
    );
    let text = agent.send(&id, "head -c 30000 /dev/zero | tr '\\0' x; echo", None);
    assert!(text.contains(&"x".repeat(30000)), "{}", status(&text));
    expect_status(&text, "done, exit code 0");
    agent.close(&id);
}

#[test]
fn sessions_are_fenced_by_owner_and_sends_are_one_at_a_time() {
    let terminal = TerminalWorld::new();
    let (alice, bob) = (terminal.agent("alice"), terminal.agent("bob"));
    let id = alice.open();
    for (tool, args) in [
        (
            "terminal_send",
            serde_json::json!({"session_id": id, "input": "echo hi"}),
        ),
        ("terminal_read", serde_json::json!({"session_id": id})),
        (
            "terminal_signal",
            serde_json::json!({"session_id": id, "signal": "INT"}),
        ),
        ("terminal_close", serde_json::json!({"session_id": id})),
    ] {
        let result = bob.call(tool, args);
        assert_eq!(
            result.code.as_deref(),
            Some("FOREIGN_SESSION"),
            "{tool}: {}",
            result.text()
        );
    }
    assert_eq!(
        bob.call("terminal_list", serde_json::json!({})).text(),
        "No open terminal sessions."
    );
    assert!(
        alice
            .call("terminal_list", serde_json::json!({}))
            .text()
            .starts_with(&format!("{id} idle"))
    );

    std::thread::scope(|scope| {
        let slow = scope.spawn(|| alice.send(&id, "sleep 1.5", Some(5000)));
        // The first send holds the session from when it starts until its prompt returns.
        let listed_busy = || {
            let list = alice.call("terminal_list", serde_json::json!({}));
            list.text().starts_with(&format!("{id} busy"))
        };
        assert!(
            eventually(Duration::from_secs(5), listed_busy),
            "the first send never started"
        );
        let second = alice.call(
            "terminal_send",
            serde_json::json!({"session_id": id, "input": "echo x"}),
        );
        assert_eq!(second.code.as_deref(), Some("TERMINAL_BUSY"), "{}", second.text());
        expect_status(&slow.join().unwrap(), "done");
    });

    alice.close(&id);
    let gone = alice.call(
        "terminal_send",
        serde_json::json!({"session_id": id, "input": "echo hi"}),
    );
    assert_eq!(gone.code.as_deref(), Some("TERMINAL_NOT_FOUND"), "{}", gone.text());
}

#[test]
fn the_batch_mode_drives_a_whole_terminal_session() {
    let _guard = pty_lock();
    let dir = tempfile::tempdir().unwrap();
    let lines = [
        serde_json::json!({"tool": "terminal_open", "args": {}}),
        serde_json::json!({"tool": "terminal_send", "args": {"session_id": "pty-1", "input": "cd sub && X=kept"}}),
        serde_json::json!({"tool": "terminal_send", "args": {"session_id": "pty-1", "input": "echo $X in ${PWD##*/}"}}),
        serde_json::json!({"tool": "terminal_list", "args": {}}),
        serde_json::json!({"tool": "terminal_close", "args": {"session_id": "pty-1"}}),
        serde_json::json!({"tool": "terminal_list", "args": {}}),
    ];
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let results = batch(dir.path(), &lines);
    let text = |i: usize| first_text(&results[i]);
    assert_eq!(results.len(), lines.len(), "{results:?}");
    assert!(text(0).contains("pty-1"), "{}", text(0));
    assert!(text(2).contains("kept in sub"), "{}", text(2));
    assert!(text(3).starts_with("pty-1 idle"), "{}", text(3));
    assert_eq!(text(5), "No open terminal sessions.");
}

/// `seam call --batch` on `lines`, started after `inherit` ran in its process: the state a
/// parent may hand seam (ignored signals, open descriptors). `inherit` runs between fork and
/// exec, so it must be async-signal-safe.
fn batch_started_after(inherit: fn() -> std::io::Result<()>, lines: &[serde_json::Value]) -> Vec<serde_json::Value> {
    let dir = tempfile::tempdir().unwrap();
    let mut seam = batch_command(dir.path());
    // SAFETY: `inherit` is async-signal-safe, as this function requires.
    unsafe { seam.pre_exec(inherit) };
    run_batch(seam, lines)
}

#[test]
fn programs_start_with_default_signal_handling_whatever_the_host_ignores() {
    // A host run under nohup ignores SIGHUP, one started as a script's background job ignores
    // SIGINT and SIGQUIT; its shells must still hang up and stop on ^C.
    let _guard = pty_lock();
    fn ignore_some() -> std::io::Result<()> {
        for signal in [libc::SIGHUP, libc::SIGINT, libc::SIGQUIT] {
            // SAFETY: signal() is async-signal-safe.
            unsafe { libc::signal(signal, libc::SIG_IGN) };
        }
        Ok(())
    }
    let ignored = "grep SigIgn /proc/self/status";
    let lines = [
        serde_json::json!({"tool": "bash", "args": {"command": ignored}}),
        serde_json::json!({"tool": "terminal_open", "args": {}}),
        serde_json::json!({"tool": "terminal_send", "args": {"session_id": "pty-1", "input": ignored}}),
        serde_json::json!({"tool": "terminal_close", "args": {"session_id": "pty-1"}}),
    ];
    let results = batch_started_after(ignore_some, &lines);
    assert_eq!(results.len(), lines.len(), "{results:?}");
    let none = "SigIgn:\t0000000000000000";
    assert_eq!(first_text(&results[0]), none, "the bash tool's program");
    assert!(first_text(&results[2]).contains(none), "{}", first_text(&results[2]));
}

#[test]
fn a_shell_that_exits_is_seen_even_when_the_host_was_started_with_sigchld_ignored() {
    // An ignored SIGCHLD passes across exec; with it the kernel would discard the statuses the
    // host waits for.
    let _guard = pty_lock();
    fn ignore_sigchld() -> std::io::Result<()> {
        // SAFETY: signal() is async-signal-safe.
        unsafe { libc::signal(libc::SIGCHLD, libc::SIG_IGN) };
        Ok(())
    }
    let lines = [
        serde_json::json!({"tool": "bash", "args": {"command": "exit 3"}}),
        serde_json::json!({"tool": "terminal_open", "args": {}}),
        serde_json::json!({"tool": "terminal_send", "args": {"session_id": "pty-1", "input": "exit 5"}}),
        serde_json::json!({"tool": "terminal_list", "args": {}}),
    ];
    let results = batch_started_after(ignore_sigchld, &lines);
    assert_eq!(results.len(), lines.len(), "{results:?}");
    assert!(
        first_text(&results[0]).contains("[exit code: 3]"),
        "{}",
        first_text(&results[0])
    );
    assert!(
        status(&first_text(&results[2])).contains("shell exited with code 5"),
        "{}",
        first_text(&results[2])
    );
    assert!(
        first_text(&results[3]).starts_with("pty-1 exited with code 5"),
        "{}",
        first_text(&results[3])
    );
}

/// A terminal whose shell has ended has no foreground group to signal: the signal is refused as
/// closed, and nothing else is signalled. (Its terminal reports group 0, which `killpg` takes
/// as the caller's own group: seam, its batch and whatever shares its group.)
#[test]
fn signalling_a_terminal_whose_shell_ended_is_refused_as_closed() {
    use std::os::unix::process::CommandExt;
    let _guard = pty_lock();
    let dir = tempfile::tempdir().unwrap();
    let mut command = batch_command(dir.path());
    // A group of its own: signalled by mistake, only seam would go.
    command.process_group(0);
    let lines = [
        serde_json::json!({"tool": "terminal_open", "args": {}}),
        serde_json::json!({"tool": "terminal_send", "args": {"session_id": "pty-1", "input": "exit 5"}}),
        serde_json::json!({"tool": "terminal_signal", "args": {"session_id": "pty-1", "signal": "INT"}}),
        serde_json::json!({"tool": "terminal_signal", "args": {"session_id": "pty-1", "signal": "KILL"}}),
        serde_json::json!({"tool": "bash", "args": {"command": "echo still here"}}),
    ];
    let results = run_batch(command, &lines);
    assert_eq!(results.len(), lines.len(), "{results:?}");
    for signalled in &results[2..4] {
        assert_eq!(signalled["code"], "TERMINAL_CLOSED", "{signalled}");
    }
    assert_eq!(first_text(&results[4]), "still here");
}

#[test]
fn a_terminal_shell_holds_no_descriptor_of_the_host() {
    // A descriptor the host holds without close-on-exec (here fd 50, as a parent may leave one
    // open) must not reach the shell: a pipe held open there would keep its reader waiting.
    let _guard = pty_lock();
    fn leave_fd_50_open() -> std::io::Result<()> {
        // SAFETY: dup2 is async-signal-safe; the copy has no close-on-exec flag.
        match unsafe { libc::dup2(2, 50) } {
            50 => Ok(()),
            _ => Err(std::io::Error::last_os_error()),
        }
    }
    let lines = [
        serde_json::json!({"tool": "terminal_open", "args": {}}),
        serde_json::json!({"tool": "terminal_send", "args": {"session_id": "pty-1", "input": "printf 'fds: '; ls /proc/$$/fd | tr '\\n' ' '; echo"}}),
        serde_json::json!({"tool": "terminal_close", "args": {"session_id": "pty-1"}}),
    ];
    let results = batch_started_after(leave_fd_50_open, &lines);
    let text = first_text(&results[1]);
    let listed = text
        .lines()
        .find_map(|line| line.strip_prefix("fds: "))
        .unwrap_or_else(|| panic!("no listing in {text}"));
    let fds: Vec<&str> = listed.split_whitespace().collect();
    assert!(fds.contains(&"0"), "{text}");
    // stdio, and the terminal bash itself keeps as 255.
    assert!(fds.iter().all(|fd| ["0", "1", "2", "255"].contains(fd)), "{text}");
}

#[test]
fn bad_opens_are_refused_with_their_codes() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    for (args, code) in [
        (serde_json::json!({"cwd": "missing"}), "TERMINAL_CWD_INVALID"),
        (
            serde_json::json!({"shell": "/nonexistent/bash"}),
            "TERMINAL_INVALID_REQUEST",
        ),
        (serde_json::json!({"rows": 0}), "TERMINAL_INVALID_REQUEST"),
    ] {
        let result = agent.call("terminal_open", args.clone());
        assert_eq!(result.code.as_deref(), Some(code), "{args}: {}", result.text());
    }
    let result = agent.call(
        "terminal_signal",
        serde_json::json!({"session_id": "pty-9", "signal": "INT"}),
    );
    assert_eq!(result.code.as_deref(), Some("TERMINAL_NOT_FOUND"), "{}", result.text());
    assert_eq!(
        agent.call("terminal_list", serde_json::json!({})).text(),
        "No open terminal sessions."
    );
}

#[test]
fn output_reads_as_the_lines_printed_without_control_sequences() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();
    let text = agent.send(
        &id,
        r"printf '\033[1;31mred\033[0m plain\n'; printf '10%%\r50%%\r100%%\n'; printf 'loading...\rok\033[K\n'",
        None,
    );
    expect_status(&text, "done, exit code 0");
    assert!(text.contains("red plain\n100%\nok\n"), "{text:?}");
    assert!(!text.contains(['\u{1b}', '\r']), "{text:?}");
    agent.close(&id);
}

/// A command sent the moment the previous one is done can reach the shell before its line
/// editor takes the terminal back (here a prompt that runs a command, as prompts showing a git
/// branch do): it must still be echoed once, not by the terminal and again by the editor.
#[test]
fn a_command_sent_right_after_the_last_is_echoed_once() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();
    expect_status(&agent.send(&id, r"PS1='$(sleep 0.1)\$ '", None), "done, exit code 0");
    for n in 0..5 {
        let text = agent.send(&id, &format!("echo sent-{n}-$((6*7))"), None);
        let echoed = text
            .lines()
            .filter(|line| line.contains(&format!("echo sent-{n}-")))
            .count();
        assert_eq!(echoed, 1, "{text}");
        assert!(text.contains(&format!("sent-{n}-42")), "{text}");
    }
    agent.close(&id);
}
