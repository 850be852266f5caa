//! What a session's terminal shows: full-screen programs drawn by the emulator behind every PTY,
//! read through the terminal tools of the default world.

use crate::terminal_support::TerminalWorld;

fn status(text: &str) -> &str {
    text.lines().last().unwrap_or_default()
}

fn read_screen(agent: &crate::terminal_support::Agent<'_>, id: &str) -> String {
    let result = agent.call("terminal_read", serde_json::json!({"session_id": id, "screen": true}));
    assert!(!result.is_error, "{}", result.text());
    result.text()
}

#[test]
fn an_editor_is_seen_as_its_screen_and_edits_a_file_with_the_keys_sent() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let file = terminal.dir.path().join("notes.txt");
    std::fs::write(&file, "first line\nsecond line\n").unwrap();
    let id = agent.open();
    // No vimrc, no viminfo, no swap file: the test leaves the user's home and the fixture alone.
    let text = agent.send(&id, "vim -u NONE -i NONE -N -n notes.txt", None);
    assert!(
        status(&text).contains("showing the screen of the full-screen program"),
        "{text}"
    );
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[..2], ["first line", "second line"], "{text}");
    // vim marks the rows past the end of the file, and names the file on its last row.
    assert!(lines.contains(&"~") && text.contains("\"notes.txt\""), "{text}");
    assert!(!text.contains('\u{1b}'), "{text:?}");

    let text = agent.send(&id, "Gothird line\u{1b}:wq", None);
    assert!(status(&text).contains("done, exit code 0"), "{text}");
    assert!(!status(&text).contains("full-screen"), "{text}");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "first line\nsecond line\nthird line\n"
    );
    // Back at the prompt: the screen is the shell's again, with the command that ran vim.
    let screen = read_screen(&agent, &id);
    assert!(screen.contains("$ vim -u NONE -i NONE -N -n notes.txt"), "{screen}");
    assert!(!screen.contains("full-screen program is showing"), "{screen}");
    agent.close(&id);
}

#[test]
fn a_pager_shows_one_screen_of_a_long_file_and_quits_on_its_key() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let lines: String = (1..=200).map(|n| format!("line {n}\n")).collect();
    std::fs::write(terminal.dir.path().join("long.txt"), lines).unwrap();
    let id = agent.open();
    let text = agent.send(&id, "less long.txt", None);
    assert!(status(&text).contains("showing the screen"), "{text}");
    // The default size is 24 rows: 23 lines of the file and less's own prompt line.
    assert!(
        text.starts_with("line 1\nline 2\n") && text.contains("line 23\n"),
        "{text}"
    );
    assert!(!text.contains("line 24\n"), "{text}");
    let text = agent.send(&id, " ", Some(5_000));
    assert!(text.contains("line 46") && !text.contains("line 1\n"), "{text}");
    // The arrow keys as a model writes them (less asks for application cursor keys).
    let keys = |input: &str| {
        let args = serde_json::json!({"session_id": id, "input": input, "enter": false, "wait_ms": 5_000});
        let result = agent.call("terminal_send", args);
        assert!(!result.is_error, "{}", result.text());
        result.text()
    };
    let top = keys("\u{1b}[B").lines().next().unwrap_or_default().to_owned();
    let after_up = keys("\u{1b}[A\u{1b}[A");
    let expected = top.trim_start_matches("line ").parse::<u32>().unwrap() - 2;
    assert!(after_up.starts_with(&format!("line {expected}\n")), "{top}: {after_up}");
    let text = agent.send(&id, "q", Some(5_000));
    assert!(status(&text).contains("done, exit code 0"), "{text}");
    agent.close(&id);
}

#[test]
fn the_screen_shows_the_prompt_and_the_cursor_and_a_session_starts_clean() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();
    agent.send(&id, r"printf 'abc\rX\n'; tput cols", None);
    // Nothing of the session's set-up is on its screen: the first row is the first command.
    let screen = read_screen(&agent, &id);
    assert!(
        screen.starts_with("$ printf 'abc\\rX\\n'; tput cols\nXbc\n80\n$\n"),
        "{screen}"
    );
    assert!(
        status(&screen).contains("screen 80x24, cursor at row 4 column 3"),
        "{screen}"
    );

    let mixed = agent.call(
        "terminal_read",
        serde_json::json!({"session_id": id, "screen": true, "from_byte": 0}),
    );
    assert_eq!(mixed.code.as_deref(), Some("INVALID_ARGUMENTS"), "{}", mixed.text());
    agent.close(&id);
}

#[test]
fn a_program_that_asks_where_its_cursor_is_gets_an_answer() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();
    // The cursor position report a terminal owes `ESC [ 6 n`, read back with echo off before
    // asking, as programs do (the answer comes at once): the command is on the first row, `ab` on
    // the second.
    let text = agent.send(
        &id,
        r#"stty -echo; printf 'ab\033[6n'; read -r -dR -t5 r; stty echo; echo " ${r#*[}""#,
        Some(10_000),
    );
    assert!(text.contains("ab 2;3"), "{text}");
    assert!(status(&text).contains("done, exit code 0"), "{text}");
    agent.close(&id);
}

#[test]
fn programs_reading_the_keyboard_through_dev_tty_are_seen_waiting() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();
    // less at the end of a pipe: its stdin is the pipe, the keys come through /dev/tty.
    let text = agent.send(&id, "seq 200 | less", Some(10_000));
    assert!(status(&text).contains("waiting for input"), "{text}");
    assert!(
        text.starts_with("1\n2\n") && status(&text).contains("showing the screen"),
        "{text}"
    );
    let text = agent.send(&id, "q", Some(5_000));
    assert!(status(&text).contains("done, exit code 0"), "{text}");
    // A line read from /dev/tty with stdin elsewhere, as a passphrase prompt does.
    let text = agent.send(
        &id,
        r#"python3 -c "print('got', open('/dev/tty').readline().strip())" </dev/null"#,
        Some(10_000),
    );
    assert!(status(&text).contains("waiting for input"), "{text}");
    let text = agent.send(&id, "secret-word\n", Some(5_000));
    assert!(text.contains("got secret-word"), "{text}");
    agent.close(&id);
}

#[test]
fn a_terminal_too_large_to_draw_is_refused_before_anything_starts() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    for (rows, cols) in [(10_000, 80), (24, 10_000)] {
        let result = agent.call("terminal_open", serde_json::json!({"rows": rows, "cols": cols}));
        assert_eq!(
            result.code.as_deref(),
            Some("TERMINAL_INVALID_REQUEST"),
            "{}",
            result.text()
        );
        assert!(
            result.text().contains("1 to 500 rows and 1 to 1000 cols"),
            "{}",
            result.text()
        );
    }
    assert_eq!(
        agent.call("terminal_list", serde_json::json!({})).text(),
        "No open terminal sessions."
    );
    let result = agent.call("terminal_open", serde_json::json!({"rows": 500, "cols": 1000}));
    assert!(!result.is_error, "{}", result.text());
}

#[test]
fn boxes_drawn_with_the_terminals_line_drawing_set_are_seen_as_boxes() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();
    // What curses does outside a UTF-8 locale: switch sets with terminfo's smacs, print letters.
    let text = agent.send(&id, "tput smacs; printf 'lqqk'; tput rmacs; echo ' lqqk'", None);
    assert!(text.contains("\n┌──┐ lqqk\n"), "{text}");
    let screen = read_screen(&agent, &id);
    assert!(screen.contains("\n┌──┐ lqqk\n"), "{screen}");
    agent.close(&id);
}

#[test]
fn a_program_using_the_older_alternate_screen_mode_is_seen_on_it_and_gone_after() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();
    // What a program that writes xterm's ?1047 itself does, instead of terminfo's ?1049.
    let text = agent.send(
        &id,
        r"printf '\e[?1047h\e[Hpage one'; read -r; printf '\e[?1047l'; echo back",
        None,
    );
    assert!(text.contains("waiting for input"), "{text}");
    let screen = read_screen(&agent, &id);
    assert!(screen.starts_with("page one"), "{screen}");
    let text = agent.send(&id, "", None);
    assert!(text.contains("back"), "{text}");
    let screen = read_screen(&agent, &id);
    // The shell's screen again: the command line, what followed, no page.
    assert!(
        !screen.lines().any(|l| l.starts_with("page one")) && screen.contains("\nback\n"),
        "{screen}"
    );
    agent.close(&id);
}

#[test]
fn a_program_painting_over_the_shells_screen_is_seen_as_its_screen() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    let id = agent.open();
    // top draws with cursor moves on the shell's own screen, not the alternate one.
    let text = agent.send(&id, "top -d 0.2", Some(5_000));
    assert!(status(&text).contains("showing the screen"), "{text}");
    assert!(text.starts_with("top - ") && text.contains("PID USER"), "{text}");
    std::thread::sleep(std::time::Duration::from_millis(500));
    let read = agent.call("terminal_read", serde_json::json!({"session_id": id}));
    assert!(
        status(&read.text()).contains("read it with screen: true"),
        "{}",
        read.text()
    );
    let text = agent.send(&id, "q", Some(5_000));
    assert!(status(&text).contains("done, exit code 0"), "{text}");
    assert!(!status(&text).contains("showing the screen"), "{text}");
    agent.close(&id);
}

/// How vim quits, slowed down as on a busy machine: its last output, a stretch of work with no
/// output, then a short wait on the terminal before it leaves the alternate screen.
const SLOW_QUIT: &str = r#"import os, select, termios, time, tty
saved = termios.tcgetattr(0)
tty.setcbreak(0)
os.write(1, b"\x1b[?1049h\x1b[Hpress a key")
os.read(0, 64)
os.write(1, b"\x1b[Hbye")
busy_until = time.monotonic() + 0.4
while time.monotonic() < busy_until:
    pass
termios.tcflush(0, termios.TCIFLUSH)
termios.tcsetattr(0, termios.TCSANOW, saved)
select.select([0], [], [], 0.1)
os.write(1, b"\x1b[?1049l")
"#;

#[test]
fn a_full_screen_program_that_waits_briefly_while_quitting_is_not_asking() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    std::fs::write(terminal.dir.path().join("slow_quit.py"), SLOW_QUIT).unwrap();
    let id = agent.open();
    let text = agent.send(&id, "python3 slow_quit.py; echo quit", None);
    assert!(text.starts_with("press a key"), "{text}");
    // Quiet for longer than a pause of a full-screen program counts, but waiting on the terminal
    // only for a tenth of a second of it.
    let text = agent.send(&id, "q", None);
    assert!(status(&text).contains("done, exit code 0"), "{text}");
    assert!(text.contains("quit"), "{text}");
    agent.close(&id);
}

#[test]
fn what_was_printed_before_a_full_screen_program_started_is_kept_above_its_screen() {
    let terminal = TerminalWorld::new();
    let agent = terminal.agent("a");
    std::fs::write(terminal.dir.path().join("notes.txt"), "first line\n").unwrap();
    let id = agent.open();
    let text = agent.send(
        &id,
        "echo built; echo tested; vim -u NONE -i NONE -N -n notes.txt",
        None,
    );
    assert!(
        text.contains("\nbuilt\ntested\n[then a full-screen program took the screen:]\nfirst line\n"),
        "{text}"
    );
    agent.send(&id, ":q", None);
    // The shell back at its prompt, however long vim took to quit: typed while it was still
    // quitting, the next line would be echoed by the terminal as well as by the shell.
    let text = agent.send(&id, "true", Some(20_000));
    assert!(status(&text).contains("done, exit code 0"), "{text}");
    // Only the command line before it: the screen alone.
    let text = agent.send(&id, "vim -u NONE -i NONE -N -n notes.txt", None);
    assert!(text.starts_with("first line\n"), "{text}");
    agent.close(&id);
}
