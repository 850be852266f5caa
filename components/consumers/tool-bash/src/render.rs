//! A shell run as the text a model reads: the output, then how the command ended.

use seam_guest::exit_marker;
use seam_guest::plain::plain;

use crate::bindings::seam::shell::shell::{Output, RunResult};

const NO_OUTPUT: &str = "(no output)";
const NOT_TEXT: &str = "[the output is not all text: bytes that are not UTF-8 are shown as \u{fffd} and \
                        control bytes are left out; pipe it through `xxd` or `od -c` to see them]";

/// Output that holds a NUL byte.
fn holds_nul(output: &Output) -> bool {
    // A byte search: a search for a char would decode every character of the output.
    [&output.head, &output.tail]
        .iter()
        .any(|part| part.as_bytes().contains(&0))
}

/// `timeout_ms` is the timeout the run actually had (after the shell's clamping).
pub fn run_result(result: &RunResult, timeout_ms: u32) -> String {
    // NUL bytes are binary data, never a program's text; a byte that is not UTF-8 (the shell
    // replaced it) can be a legacy encoding in text, which is still drawn as a terminal would.
    let binary = holds_nul(&result.output);
    let mut text = output(&result.output, binary);
    if binary || result.output.replaced {
        text.push('\n');
        text.push_str(NOT_TEXT);
    }
    if let Some(notice) = left_running_notice(result.left_running) {
        text.push('\n');
        text.push_str(&notice);
    }
    if let Some(status) = status(result, timeout_ms) {
        text.push('\n');
        text.push_str(&status);
    }
    text
}

/// Head and tail around a truncation notice when bytes were dropped, each as a terminal would
/// show it (see [`plain`]); trailing line breaks are dropped so the status line follows the
/// last line of output directly.
fn output(output: &Output, binary: bool) -> String {
    // Bytes that are not text are no terminal's drawing: a carriage return or backspace among
    // them would overwrite what precedes it. Their control bytes are only left out.
    let shown = |part: &str| {
        if binary {
            part.chars()
                .filter(|c| !c.is_control() || matches!(c, '\n' | '\t'))
                .collect()
        } else {
            plain(part)
        }
    };
    let mut text = String::new();
    if output.dropped_bytes > 0 {
        text.push_str(&shown(&output.head));
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&truncation_notice(output));
        text.push('\n');
    }
    text.push_str(&shown(&output.tail));
    let kept = text.trim_end_matches(['\n', '\r']).len();
    text.truncate(kept);
    if text.trim().is_empty() {
        NO_OUTPUT.to_owned()
    } else {
        text
    }
}

fn truncation_notice(output: &Output) -> String {
    let dropped = output.dropped_bytes;
    match output.spill_path.as_ref().filter(|_| output.spilled_bytes > 0) {
        Some(path) if output.spilled_bytes < output.total_bytes => format!(
            "... [{dropped} bytes truncated; the first {} of {} bytes of output: {path}] ...",
            output.spilled_bytes, output.total_bytes
        ),
        Some(path) => format!("... [{dropped} bytes truncated; full output: {path}] ..."),
        None => format!("... [{dropped} bytes truncated; full output was not saved] ..."),
    }
}

/// Says that processes the command put in the background did not survive it, and how to keep
/// one running; before the status, which stays the last line.
fn left_running_notice(left_running: u32) -> Option<String> {
    let processes = match left_running {
        0 => return None,
        1 => "1 process".to_owned(),
        n => format!("{n} processes"),
    };
    Some(format!(
        "[stopped {processes} the command left running; run it with run_in_background to keep it running]"
    ))
}

/// How the command ended, unless it exited with 0. A timeout is reported alone: the exit
/// status or signal that follows it comes from the termination, not from the command.
fn status(result: &RunResult, timeout_ms: u32) -> Option<String> {
    if result.timed_out {
        return Some(format!("[timed out after {timeout_ms} ms]"));
    }
    match (result.exit_code, result.signal) {
        (Some(code), _) if code != 0 => Some(exit_marker::render(code)),
        (_, Some(signal)) => Some(format!("[terminated by signal {signal}]")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn output(head: &str, tail: &str, dropped_bytes: u64, spill_path: Option<&str>) -> Output {
        let total_bytes = (head.len() + tail.len()) as u64 + dropped_bytes;
        Output {
            head: head.into(),
            tail: tail.into(),
            total_bytes,
            dropped_bytes,
            spilled_bytes: if spill_path.is_some() { total_bytes } else { 0 },
            spill_path: spill_path.map(Into::into),
            replaced: false,
        }
    }

    fn result(output: Output, exit_code: Option<i32>, signal: Option<i32>, timed_out: bool) -> RunResult {
        RunResult {
            exit_code,
            signal,
            timed_out,
            aborted: false,
            denied: false,
            output,
            duration_ms: 1,
            left_running: 0,
        }
    }

    fn exited(text: &str, code: i32) -> RunResult {
        result(output("", text, 0, None), Some(code), None, false)
    }

    #[test]
    fn success_is_just_the_output() {
        assert_eq!(run_result(&exited("hello\nworld\n", 0), 1000), "hello\nworld");
    }

    #[test]
    fn empty_output_says_so() {
        assert_eq!(run_result(&exited("", 0), 1000), "(no output)");
        assert_eq!(run_result(&exited("\n\n", 0), 1000), "(no output)");
    }

    #[test]
    fn non_zero_exit_ends_with_the_marker() {
        let text = run_result(&exited("boom\n", 2), 1000);
        assert_eq!(text, "boom\n[exit code: 2]");
        assert_eq!(exit_marker::parse(&text), Some(2));
        assert_eq!(run_result(&exited("", 1), 1000), "(no output)\n[exit code: 1]");
    }

    #[test]
    fn processes_left_running_are_named_before_the_status() {
        let mut server = exited("listening\n", 3);
        server.left_running = 2;
        let text = run_result(&server, 1000);
        assert_eq!(
            text,
            "listening\n[stopped 2 processes the command left running; run it with run_in_background \
             to keep it running]\n[exit code: 3]"
        );
        assert_eq!(exit_marker::parse(&text), Some(3));
        server.left_running = 1;
        server.exit_code = Some(0);
        assert!(run_result(&server, 1000).ends_with(
            "[stopped 1 process the command left running; run it with run_in_background to keep it running]"
        ));
    }

    #[test]
    fn output_is_shown_as_a_terminal_leaves_it() {
        let drawn = exited("\u{1b}[31mred\u{1b}[0m\r\n10%\r55%\r100%\ndone\n", 0);
        assert_eq!(run_result(&drawn, 1000), "red\n100%\ndone");
    }

    #[test]
    fn output_that_is_not_text_says_so() {
        let binary = exited("\u{7f}ELF\u{2}\u{1}\0\0\u{fffd}\r\u{8}\u{fffd}@\n", 0);
        assert_eq!(run_result(&binary, 1000), format!("ELF\u{fffd}\u{fffd}@\n{NOT_TEXT}"));
        assert_eq!(run_result(&exited("plain\ttext\n", 0), 1000), "plain\ttext");
    }

    #[test]
    fn text_with_a_byte_that_is_not_utf8_is_still_drawn() {
        let mut latin1 = exited("caf\u{fffd} \u{1b}[31mred\u{1b}[0m\n50%\r100%\n", 0);
        latin1.output.replaced = true;
        assert_eq!(run_result(&latin1, 1000), format!("caf\u{fffd} red\n100%\n{NOT_TEXT}"));
    }

    #[test]
    fn a_replacement_character_the_command_printed_is_text() {
        assert_eq!(run_result(&exited("caf\u{fffd}\n", 0), 1000), "caf\u{fffd}");
    }

    #[test]
    fn signals_and_timeouts_are_reported() {
        let killed = result(output("", "partial", 0, None), None, Some(9), false);
        assert_eq!(run_result(&killed, 1000), "partial\n[terminated by signal 9]");
        let slow = result(output("", "tick\n", 0, None), None, Some(15), true);
        assert_eq!(run_result(&slow, 5000), "tick\n[timed out after 5000 ms]");
        assert_eq!(exit_marker::parse(&run_result(&slow, 5000)), None);
    }

    #[test]
    fn truncated_output_points_at_the_spill_file() {
        let long = result(
            output("first\nfir", "st\nlast\n", 1234, Some("/tmp/out.log")),
            Some(0),
            None,
            false,
        );
        assert_eq!(
            run_result(&long, 1000),
            "first\nfir\n... [1234 bytes truncated; full output: /tmp/out.log] ...\nst\nlast"
        );
    }

    #[test]
    fn a_spill_file_that_holds_only_the_first_bytes_says_so() {
        let mut past_the_cap = output("a\n", "z\n", 96, Some("/tmp/out.log"));
        past_the_cap.spilled_bytes = 64;
        assert_eq!(
            run_result(&result(past_the_cap, Some(0), None, false), 1000),
            "a\n... [96 bytes truncated; the first 64 of 100 bytes of output: /tmp/out.log] ...\nz"
        );
    }

    #[test]
    fn a_spill_file_that_could_not_be_written_is_not_offered() {
        let mut empty_file = output("a\n", "z\n", 96, Some("/tmp/out.log"));
        empty_file.spilled_bytes = 0;
        assert_eq!(
            run_result(&result(empty_file, Some(0), None, false), 1000),
            "a\n... [96 bytes truncated; full output was not saved] ...\nz"
        );
    }

    #[test]
    fn truncated_output_without_spill_says_it_is_gone() {
        let long = result(output("a\n", "z\n", 10, None), Some(3), None, false);
        assert_eq!(
            run_result(&long, 1000),
            "a\n... [10 bytes truncated; full output was not saved] ...\nz\n[exit code: 3]"
        );
    }
}
