//! What a search found, bounded: records are taken until one more than the limit arrives (so
//! "more" is known, not guessed), then rendered sorted by path.

use std::borrow::Cow;
use std::collections::BinaryHeap;

use seam_guest::text::{cut_line, push_decimal};

use crate::args::OutputMode;
use crate::path_glob::PathGlob;
use crate::rg_json::{self, Event};
use crate::run::Flow;

pub struct Found {
    mode: Mode,
    limit: usize,
    max_line_chars: usize,
    /// Files in the order they were reported. ripgrep reports a file's records together, so a
    /// record joins the last file or starts the next one: no lookup among paths that share long
    /// prefixes. Sorted (a file reported apart merged) when rendered.
    files: Vec<(String, Entry)>,
    /// Paths mode, and grep's files mode: the smallest paths seen, at most `limit`. Every path
    /// is looked at, so the ones shown do not depend on the order of ripgrep's parallel walk.
    smallest: BinaryHeap<String>,
    /// Files mode: the file of the last match (ripgrep reports a file's matches together).
    last_matched: String,
    /// Content mode with context: groups of lines apart are set apart with `--`.
    separated: bool,
    /// Put before each path ripgrep reports (see `scope`).
    shown_prefix: String,
    taken: usize,
    pub more: bool,
    /// Bytes of lines kept (content mode), and whether they reached [`MAX_SHOWN_BYTES`].
    shown_bytes: usize,
    full: bool,
    /// A larger limit may be asked for (the limit is below the configured maximum).
    raisable: bool,
    /// Only paths this glob admits count, with the path ripgrep was given (see `path_glob`).
    narrowed: Option<(PathGlob, Option<String>)>,
}

/// What was found in one file.
#[derive(Default)]
struct Entry {
    /// Its lines as rendered, each ending in a newline (content, count); empty for paths. One
    /// buffer per file rather than a string per line: a search takes thousands of lines, and
    /// each allocation in the component costs more than the copy.
    lines: String,
    /// A result of this file was counted (a file with only context lines has none).
    counted: bool,
    /// Content mode: the number of the last line in `lines`.
    last_shown: Option<u64>,
    /// Content mode: context lines that do not follow a shown line, rendered, waiting for the
    /// match they lead up to; dropped if it never comes (past the limit).
    leading: String,
    /// The number of the first line in `leading`.
    leading_from: Option<u64>,
}

/// Content shown at most, whatever the limit: context lines are not counted against it, and a
/// model's context is not the place for megabytes of matches.
const MAX_SHOWN_BYTES: usize = 256 * 1024;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Paths,
    Grep(OutputMode),
}

impl Found {
    pub fn paths(limit: usize, shown_prefix: &str) -> Self {
        Self::new(Mode::Paths, limit, 0, shown_prefix)
    }

    pub fn grep(mode: OutputMode, limit: usize, max_line_chars: usize, shown_prefix: &str) -> Self {
        Self::new(Mode::Grep(mode), limit, max_line_chars, shown_prefix)
    }

    fn new(mode: Mode, limit: usize, max_line_chars: usize, shown_prefix: &str) -> Self {
        Self {
            mode,
            limit,
            max_line_chars,
            files: Vec::new(),
            smallest: BinaryHeap::new(),
            last_matched: String::new(),
            separated: false,
            shown_prefix: shown_prefix.to_owned(),
            taken: 0,
            more: false,
            shown_bytes: 0,
            full: false,
            narrowed: None,
            raisable: true,
        }
    }

    /// Whether groups of lines apart are set apart with `--`, as ripgrep does with context.
    pub fn separated(mut self, separated: bool) -> Self {
        self.separated = separated;
        self
    }

    /// Whether the footer may suggest a larger limit.
    pub fn raisable(mut self, raisable: bool) -> Self {
        self.raisable = raisable;
        self
    }

    /// Take only the paths `glob` admits below `searched`, the path ripgrep was given.
    pub fn narrowed(mut self, glob: Option<PathGlob>, searched: Option<&str>) -> Self {
        self.narrowed = glob.map(|glob| (glob, searched.map(str::to_owned)));
        self
    }

    fn admits(&self, path: &str) -> bool {
        self.narrowed
            .as_ref()
            .is_none_or(|(glob, searched)| glob.admits(path, searched.as_deref()))
    }

    /// One record of ripgrep's output: a path (`--files`) or a JSON message (`--json`).
    pub fn take(&mut self, record: &str) -> Result<Flow, String> {
        match self.mode {
            Mode::Paths if !self.admits(record) => Ok(Flow::More),
            Mode::Paths => {
                let path = shown(&self.shown_prefix, Cow::Borrowed(record));
                self.keep_if_smallest(path);
                Ok(Flow::More)
            }
            Mode::Grep(mode) => match rg_json::parse(record)? {
                Some(event) if self.admits(event.path()) => {
                    Ok(self.take_event(mode, event.map_path(|path| shown(&self.shown_prefix, path))))
                }
                _ => Ok(Flow::More),
            },
        }
    }

    fn take_event(&mut self, mode: OutputMode, event: Event<'_>) -> Flow {
        match (mode, event) {
            (
                OutputMode::FilesWithMatches,
                Event::Line {
                    path, is_match: true, ..
                },
            ) => {
                // Every matching file is looked at, as in paths mode, so the files shown are the
                // first in path order whatever the order of ripgrep's parallel walk.
                if !same(&self.last_matched, &path) {
                    self.last_matched.clear();
                    self.last_matched.push_str(&path);
                    self.keep_if_smallest(path);
                }
                Flow::More
            }
            (OutputMode::Count, Event::FileEnd { path, matched_lines }) if matched_lines > 0 => {
                let flow = self.count();
                if flow == Flow::More {
                    let entry = self.entry(&path);
                    entry.counted = true;
                    push_count(&mut entry.lines, &path, matched_lines);
                }
                flow
            }
            (
                OutputMode::Content,
                Event::Line {
                    path,
                    number,
                    text,
                    is_match,
                    first_match,
                },
            ) => {
                let text = around(&text, first_match, self.max_line_chars);
                let entry = self.entry(&path);
                let follows = |line: Option<u64>| line.zip(number).is_some_and(|(line, number)| line + 1 == number);
                if !is_match && (!entry.leading.is_empty() || !follows(entry.last_shown)) {
                    // Context before a match to come: shown with it, or not at all.
                    if entry.leading.is_empty() {
                        entry.leading_from = number;
                    }
                    push_line(&mut entry.leading, &path, '-', number, &text);
                    return Flow::More;
                }
                // Context belongs to the matches around it and is not counted.
                let flow = if is_match { self.count() } else { Flow::More };
                if flow == Flow::Enough {
                    return flow;
                }
                let separated = self.separated;
                let entry = self.entry(&path);
                let before = entry.lines.len();
                let first = if entry.leading.is_empty() {
                    number
                } else {
                    entry.leading_from
                };
                // Groups of lines apart from each other are set apart, as ripgrep does.
                if separated
                    && entry.last_shown.is_some()
                    && first
                        .zip(entry.last_shown)
                        .is_none_or(|(first, last)| last + 1 != first)
                {
                    entry.lines.push_str("--\n");
                }
                entry.lines.push_str(&entry.leading);
                entry.leading.clear();
                entry.counted |= is_match;
                entry.last_shown = number;
                push_line(&mut entry.lines, &path, if is_match { ':' } else { '-' }, number, &text);
                self.shown_bytes += entry.lines.len() - before;
                if self.shown_bytes >= MAX_SHOWN_BYTES {
                    (self.more, self.full) = (true, true);
                    return Flow::Enough;
                }
                flow
            }
            _ => Flow::More,
        }
    }

    /// Paths mode: keep `path` while it is among the `limit` smallest.
    fn keep_if_smallest(&mut self, path: Cow<'_, str>) {
        if self.taken < self.limit {
            self.taken += 1;
            self.smallest.push(path.into_owned());
            return;
        }
        self.more = true;
        if self
            .smallest
            .peek()
            .is_some_and(|largest| path.as_ref() < largest.as_str())
        {
            self.smallest.pop();
            self.smallest.push(path.into_owned());
        }
    }

    /// Count one result; the one past the limit only proves there are more.
    fn count(&mut self) -> Flow {
        if self.taken == self.limit {
            self.more = true;
            return Flow::Enough;
        }
        self.taken += 1;
        Flow::More
    }

    /// The entry of `path`: the last file's, or a new one.
    fn entry(&mut self, path: &str) -> &mut Entry {
        if self.files.last().is_none_or(|(last, _)| !same(last, path)) {
            self.files.push((path.to_owned(), Entry::default()));
        }
        &mut self.files.last_mut().expect("a file was just ensured").1
    }

    pub fn is_empty(&self) -> bool {
        self.taken == 0
    }

    /// Whether a path shown holds U+FFFD: ripgrep's name that was not UTF-8, shown lossily (a
    /// name with a real U+FFFD in it is left to this too: nobody names files so).
    pub fn shows_names_not_utf8(&self) -> bool {
        let replaced = |path: &String| path.contains('\u{fffd}');
        match self.mode {
            Mode::Paths | Mode::Grep(OutputMode::FilesWithMatches) => self.smallest.iter().any(replaced),
            Mode::Grep(_) => self.files.iter().any(|(path, entry)| entry.counted && replaced(path)),
        }
    }

    /// The results as text, sorted by path.
    pub fn render(&self) -> String {
        if matches!(self.mode, Mode::Paths | Mode::Grep(OutputMode::FilesWithMatches)) {
            let mut paths: Vec<&str> = self.smallest.iter().map(String::as_str).collect();
            paths.sort_unstable();
            let mut out = paths.join("\n");
            if self.more {
                let unit = match (self.mode, self.limit) {
                    (Mode::Paths, 1) => "path",
                    (Mode::Paths, _) => "paths",
                    (_, 1) => "file",
                    _ => "files",
                };
                out.push_str(&format!(
                    "\n[more results: the first {} {unit} in path order are shown; {}]",
                    self.limit,
                    self.narrow_hint()
                ));
            }
            return out;
        }
        let mut files: Vec<&(String, Entry)> = self.files.iter().collect();
        // Stable: the parts of a file reported apart keep their order.
        files.sort_by(|(a, _), (b, _)| a.cmp(b));
        let size: usize = files
            .iter()
            .map(|(path, entry)| path.len() + entry.lines.len() + 1)
            .sum();
        let mut out = String::with_capacity(size + 128);
        for parts in files.chunk_by(|(a, _), (b, _)| a == b) {
            // A file with context lines only (its match came past the limit) is left out.
            if !parts.iter().any(|(_, entry)| entry.counted) {
                continue;
            }
            match self.mode {
                Mode::Paths | Mode::Grep(OutputMode::FilesWithMatches) => {
                    out.push_str(&parts[0].0);
                    out.push('\n');
                }
                Mode::Grep(mode) => {
                    // ripgrep sets files apart too, once lines come with context.
                    if mode == OutputMode::Content && self.separated && !out.is_empty() {
                        out.push_str("--\n");
                    }
                    parts.iter().for_each(|(_, entry)| out.push_str(&entry.lines));
                }
            }
        }
        if self.full {
            out.push_str(&format!(
                "[more results: stopped at {} KB of output; narrow the pattern, path or glob, or ask for less context]",
                MAX_SHOWN_BYTES / 1024
            ));
        } else if self.more {
            let unit = match (self.mode, self.limit) {
                (Mode::Grep(OutputMode::Content), 1) => "matching line",
                (Mode::Grep(OutputMode::Content), _) => "matching lines",
                (_, 1) => "file",
                _ => "files",
            };
            out.push_str(&format!(
                "[more results: stopped after {} {unit}; {}]",
                self.limit,
                self.narrow_hint()
            ));
        } else {
            out.pop();
        }
        out
    }

    fn narrow_hint(&self) -> String {
        if self.raisable {
            "narrow the pattern, path or glob, or raise limit".to_owned()
        } else {
            format!("narrow the pattern, path or glob ({} is the largest limit)", self.limit)
        }
    }
}

/// `a == b`, eight bytes at a time: every record is compared with the last file's path, and
/// the component's `memcmp` goes a byte at a time.
fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let word = |chunk: &[u8]| u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
    let (a_words, b_words) = (a.chunks_exact(8), b.chunks_exact(8));
    let tails_equal = a_words.remainder() == b_words.remainder();
    tails_equal && a_words.zip(b_words).all(|(x, y)| word(x) == word(y))
}

/// A line of content: `src/a.rs:12:fn main() {` for a match, `src/a.rs-11-` for context.
fn push_line(lines: &mut String, path: &str, separator: char, number: Option<u64>, text: &str) {
    lines.push_str(path);
    lines.push(separator);
    if let Some(number) = number {
        push_decimal(lines, number, 0);
        lines.push(separator);
    }
    lines.push_str(text);
    lines.push('\n');
}

/// A file's count: `src/a.rs:3`.
fn push_count(lines: &mut String, path: &str, count: u64) {
    lines.push_str(path);
    lines.push(':');
    push_decimal(lines, count, 0);
    lines.push('\n');
}

/// A line as shown: without its line end, cut after `max_chars` characters.
fn cut(text: &str, max_chars: usize) -> Cow<'_, str> {
    cut_line(text.trim_end_matches(['\n', '\r']), max_chars)
}

/// A matching line as shown: [`cut`], unless its match starts past what that keeps (a
/// minified file's one long line); then the `max_chars` characters from a little before the
/// match, so the match is what is shown.
fn around(text: &str, first_match: Option<usize>, max_chars: usize) -> Cow<'_, str> {
    let line = text.trim_end_matches(['\n', '\r']);
    let Some(at) = first_match.filter(|&at| at < line.len() && line.is_char_boundary(at)) else {
        return cut(line, max_chars);
    };
    let before = line[..at].chars().count();
    if before < max_chars - max_chars / 4 {
        return cut(line, max_chars);
    }
    // A quarter of the window shows what leads up to the match.
    let lead = max_chars / 4;
    let start = line[..at]
        .char_indices()
        .nth(before - lead)
        .map_or(at, |(index, _)| index);
    let hidden = before - lead;
    format!("[{hidden} characters before] …{}", cut_line(&line[start..], max_chars)).into()
}

/// `path` as the model sees it: after the scope's prefix.
fn shown<'a>(prefix: &str, path: Cow<'a, str>) -> Cow<'a, str> {
    if prefix.is_empty() {
        path
    } else {
        Cow::Owned(format!("{prefix}{path}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(path: &str, number: u64, text: &str, is_match: bool) -> String {
        let kind = if is_match { "match" } else { "context" };
        format!(
            r#"{{"type":"{kind}","data":{{"path":{{"text":"{path}"}},"lines":{{"text":"{text}\n"}},"line_number":{number}}}}}"#
        )
    }

    #[test]
    fn a_limit_of_one_is_one_file() {
        let mut found = Found::paths(1, "");
        assert_eq!(found.take("b.rs"), Ok(Flow::More));
        assert_eq!(found.take("a.rs"), Ok(Flow::More));
        assert_eq!(
            found.render(),
            "a.rs\n[more results: the first 1 path in path order are shown; narrow the pattern, path or glob, or raise limit]"
        );
    }

    #[test]
    fn paths_are_sorted_and_bounded() {
        // Whatever order the walk reports them in, the smallest are kept.
        let mut found = Found::paths(2, "").raisable(false);
        for path in ["c.rs", "b.rs", "d.rs", "a.rs"] {
            assert_eq!(found.take(path), Ok(Flow::More));
        }
        assert_eq!(
            found.render(),
            "a.rs\nb.rs\n[more results: the first 2 paths in path order are shown; narrow the pattern, path or glob (2 is the largest limit)]"
        );
    }

    #[test]
    fn files_with_matches_are_the_first_in_path_order() {
        let mut found = Found::grep(OutputMode::FilesWithMatches, 2, 100, "");
        for path in ["d/f.txt", "b.txt", "b.txt", "c.txt", "a.txt"] {
            assert_eq!(found.take(&line(path, 1, "hit", true)), Ok(Flow::More));
        }
        assert_eq!(
            found.render(),
            "a.txt\nb.txt\n[more results: the first 2 files in path order are shown; narrow the pattern, path or glob, or raise limit]"
        );
    }

    #[test]
    fn content_counts_matches_and_keeps_context() {
        let mut found = Found::grep(OutputMode::Content, 10, 100, "");
        for record in [
            line("b.rs", 1, "before", false),
            line("b.rs", 2, "hit", true),
            line("a.rs", 7, "hit too", true),
        ] {
            assert_eq!(found.take(&record), Ok(Flow::More));
        }
        assert_eq!(found.render(), "a.rs:7:hit too\nb.rs-1-before\nb.rs:2:hit");
        assert!(!found.more);
    }

    #[test]
    fn context_comes_with_its_match_and_groups_are_set_apart() {
        let records = [
            (2, "x 2", false),
            (3, "M 3", true),
            (4, "M 4", true),
            (5, "x 5", false),
            (19, "x 19", false),
            (20, "M 20", true),
            (21, "x 21", false),
        ];
        let run = |limit| {
            let mut found = Found::grep(OutputMode::Content, limit, 100, "").separated(true);
            for (number, text, is_match) in records {
                if found.take(&line("a.txt", number, text, is_match)) == Ok(Flow::Enough) {
                    break;
                }
            }
            found.render()
        };
        let all = "a.txt-2-x 2\na.txt:3:M 3\na.txt:4:M 4\na.txt-5-x 5\n--\na.txt-19-x 19\na.txt:20:M 20\na.txt-21-x 21";
        assert_eq!(run(10), all);
        // The match at line 20 is past the limit: the line before it goes with it.
        let two = run(2);
        assert!(
            two.starts_with("a.txt-2-x 2\na.txt:3:M 3\na.txt:4:M 4\na.txt-5-x 5\n[more"),
            "{two}"
        );
        // Files are set apart as well.
        let mut found = Found::grep(OutputMode::Content, 10, 100, "").separated(true);
        for (path, number, is_match) in [("b.txt", 1, true), ("b.txt", 2, false), ("a.txt", 7, true)] {
            assert_eq!(found.take(&line(path, number, "t", is_match)), Ok(Flow::More));
        }
        assert_eq!(found.render(), "a.txt:7:t\n--\nb.txt:1:t\nb.txt-2-t");
    }

    #[test]
    fn content_stops_at_its_byte_bound_whatever_the_context() {
        let mut found = Found::grep(OutputMode::Content, 2000, 500, "");
        let context = "c".repeat(200);
        let mut taken = 0;
        while found.take(&line("big.txt", taken + 1, &context, taken % 100 == 0)) == Ok(Flow::More) {
            taken += 1;
        }
        let shown = found.render();
        assert!(shown.len() < MAX_SHOWN_BYTES + 1024, "{}", shown.len());
        assert!(shown.ends_with(
            "[more results: stopped at 256 KB of output; narrow the pattern, path or glob, or ask for less context]"
        ));
    }

    #[test]
    fn records_of_a_file_that_come_apart_are_merged() {
        let mut found = Found::grep(OutputMode::Content, 10, 100, "");
        for record in [
            line("b.rs", 1, "one", true),
            line("a.rs", 1, "two", true),
            line("b.rs", 5, "three", true),
            line("c.rs", 2, "four", true),
        ] {
            assert_eq!(found.take(&record), Ok(Flow::More));
        }
        assert_eq!(found.render(), "a.rs:1:two\nb.rs:1:one\nb.rs:5:three\nc.rs:2:four");
    }

    #[test]
    fn files_and_counts() {
        let mut files = Found::grep(OutputMode::FilesWithMatches, 10, 100, "");
        files.take(&line("x.rs", 1, "a", true)).ok();
        files.take(&line("x.rs", 2, "a", true)).ok();
        assert_eq!(files.render(), "x.rs");
        let mut counts = Found::grep(OutputMode::Count, 10, 100, "");
        let end = r#"{"type":"end","data":{"path":{"text":"x.rs"},"stats":{"matched_lines":3}}}"#;
        counts.take(end).ok();
        assert_eq!(counts.render(), "x.rs:3");
    }

    #[test]
    fn a_match_far_along_a_long_line_is_shown() {
        let line = format!("{}NEEDLE{}\n", "a".repeat(1000), "b".repeat(1000));
        let shown = around(&line, Some(1000), 100);
        assert!(
            shown.starts_with(&format!("[975 characters before] …{}NEEDLE", "a".repeat(25))),
            "{shown}"
        );
        assert!(shown.ends_with("… [line truncated]"), "{shown}");
        assert_eq!(around("short match\n", Some(6), 100), "short match");
        assert_eq!(around(&line, Some(10), 100), cut(&line, 100));
    }

    #[test]
    fn long_lines_are_cut() {
        assert_eq!(cut("abcdef\n", 3), "abc… [line truncated]");
        assert_eq!(cut("abc\r\n", 3), "abc");
    }

    #[test]
    fn same_paths() {
        let long = "src/some/deeply/nested/module/file.rs";
        assert!(same(long, &long.to_owned()));
        assert!(same("", ""));
        assert!(!same(long, "src/some/deeply/nested/module/file.rx"));
        assert!(!same("x/abcdefgh", "y/abcdefgh"));
        assert!(!same("abc", "abcd"));
    }
}
