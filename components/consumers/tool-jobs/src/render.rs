//! Jobs as text: one line per job, and output with a bracketed status line.

use crate::bindings::seam::jobs::jobs::{Chunk, JobInfo};
use crate::notices::state;
use seam_guest::plain::plain;

pub fn job(info: &JobInfo) -> String {
    format!("{} {} {}: {}", info.id, state(info), info.kind, one_line(&info.label))
}

/// Characters of a label shown in a listing.
const LABEL_CHARS: usize = 100;

/// A label on one line of a listing: a multi-line command shows its first line and how many
/// follow, a long one its start. Control characters show in caret notation (`^[`, `^M`), as
/// `cat -v` shows them: raw, an escape or a carriage return would garble the listing.
fn one_line(label: &str) -> String {
    let mut lines = label.trim().lines();
    let first = lines.next().unwrap_or_default();
    let mut shown = String::new();
    for c in first.chars().take(LABEL_CHARS) {
        match c {
            '\t' => shown.push(' '),
            '\u{7f}' => shown.push_str("^?"),
            c if c < ' ' => {
                shown.push('^');
                shown.push(char::from(c as u8 + 0x40));
            }
            c if c.is_control() => shown.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => shown.push(c),
        }
    }
    if first.chars().nth(LABEL_CHARS).is_some() {
        shown.push('…');
    }
    match lines.count() {
        0 => {}
        1 => shown.push_str(" (+1 more line)"),
        more => shown.push_str(&format!(" (+{more} more lines)")),
    }
    shown
}

/// The chunk as a terminal would show it (byte offsets count the raw stream), then where it
/// sits and whether more can come.
pub fn output(info: &JobInfo, chunk: &Chunk, asked: u64) -> String {
    let mut notes = vec![state(info), format!("bytes {}..{}", chunk.start, chunk.next)];
    if chunk.lossy {
        let dropped = format!("bytes {asked}..{} were dropped from the retained output", chunk.start);
        // A spill file that took nothing is not offered; one cut at its limit says how much it has.
        notes.push(match chunk.spill_path.as_ref().filter(|_| chunk.spilled_bytes > 0) {
            Some(path) if chunk.spilled_bytes >= chunk.next => format!("{dropped}; the output is saved in {path}"),
            Some(path) => format!(
                "{dropped}; only the first {} bytes of the output are saved, in {path}",
                chunk.spilled_bytes
            ),
            None => dropped,
        });
    }
    notes.push(if chunk.eof {
        "end of output".to_owned()
    } else {
        format!("next offset {}", chunk.next)
    });
    let data = plain(&chunk.data);
    let data = data.trim_end_matches(['\n', '\r']);
    let data = if data.is_empty() { "(no new output)" } else { data };
    format!("{data}\n[{}: {}]", info.id, notes.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::seam::jobs::jobs::State;
    use crate::notices::tests::info;

    fn chunk(data: &str, start: u64, next: u64, eof: bool, lossy: bool) -> Chunk {
        Chunk {
            data: data.into(),
            start,
            next,
            eof,
            lossy,
            spill_path: None,
            spilled_bytes: 0,
        }
    }

    #[test]
    fn jobs_read_as_one_line_with_their_state() {
        assert_eq!(job(&info(State::Running, None)), "job-3 running bash: make");
        assert_eq!(
            job(&info(State::Failed, Some(2))),
            "job-3 failed (exit code 2) bash: make"
        );
    }

    #[test]
    fn a_label_keeps_to_its_line() {
        let mut multi = info(State::Running, None);
        multi.label = "echo one\necho two\nsleep 5".into();
        assert_eq!(job(&multi), "job-3 running bash: echo one (+2 more lines)");
        let mut long = info(State::Running, None);
        long.label = "é".repeat(150);
        assert_eq!(job(&long), format!("job-3 running bash: {}…", "é".repeat(100)));
        let mut raw = info(State::Running, None);
        raw.label = "printf '\u{1b}[31m'\tred\rover\u{7f}\u{9b}".into();
        assert_eq!(job(&raw), "job-3 running bash: printf '^[[31m' red^Mover^?\\u{9b}");
    }

    #[test]
    fn output_ends_with_where_to_read_next() {
        let running = output(&info(State::Running, None), &chunk("1\n2\n", 0, 4, false, false), 0);
        assert_eq!(running, "1\n2\n[job-3: running; bytes 0..4; next offset 4]");
        let done = output(&info(State::Done, Some(0)), &chunk("", 4, 4, true, false), 4);
        assert_eq!(done, "(no new output)\n[job-3: done; bytes 4..4; end of output]");
        let slid = output(&info(State::Running, None), &chunk("z", 90, 91, false, true), 10);
        assert!(slid.contains("bytes 10..90 were dropped"), "{slid}");
        assert!(!slid.contains("saved in"), "{slid}");
        let spilled = |spilled_bytes| Chunk {
            spill_path: Some("/s/stdout.log".into()),
            spilled_bytes,
            ..chunk("z", 90, 91, false, true)
        };
        let slid = output(&info(State::Running, None), &spilled(91), 10);
        assert!(
            slid.contains("bytes 10..90 were dropped from the retained output; the output is saved in /s/stdout.log;"),
            "{slid}"
        );
    }

    #[test]
    fn a_spill_file_cut_short_says_how_much_it_holds() {
        let spilled = |spilled_bytes| Chunk {
            spill_path: Some("/s/stdout.log".into()),
            spilled_bytes,
            ..chunk("z", 90, 91, false, true)
        };
        let capped = output(&info(State::Running, None), &spilled(50), 10);
        assert!(
            capped.contains("bytes 10..90 were dropped from the retained output; only the first 50 bytes of the output are saved, in /s/stdout.log;"),
            "{capped}"
        );
        let empty = output(&info(State::Running, None), &spilled(0), 10);
        assert!(
            empty.contains("bytes 10..90 were dropped from the retained output; next offset 91"),
            "{empty}"
        );
        assert!(!empty.contains("/s/stdout.log"), "{empty}");
    }
}
