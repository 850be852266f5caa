//! The tools' arguments and the ripgrep command lines they become. Every value from the model
//! is one argv element after the flag it belongs to, so nothing it sends can become a flag.

use serde::Deserialize;

use seam_guest::paths::home_expanded;

use crate::path_glob::PathGlob;
use crate::scope::{self, Scope};

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct GlobArgs {
    pub pattern: String,
    pub path: Option<String>,
    pub limit: Option<u32>,
}

#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum OutputMode {
    #[default]
    FilesWithMatches,
    Content,
    Count,
}

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct GrepArgs {
    pub pattern: String,
    pub path: Option<String>,
    pub glob: Option<String>,
    #[serde(default)]
    pub ignore_case: bool,
    #[serde(default)]
    pub output_mode: OutputMode,
    /// Lines of context around each match (content mode).
    pub context: Option<u32>,
    pub limit: Option<u32>,
}

impl GlobArgs {
    /// Where the search runs, its pattern being the glob; `home` is what a leading `~` means.
    pub fn scope(&self, cwd: &str, home: impl Fn() -> Option<String>) -> Scope {
        let path = self.path.as_deref().map(|path| home_expanded(path, &home));
        scope::of(cwd, path.as_deref(), Some(&home_expanded(&self.pattern, &home)))
    }
}

impl GrepArgs {
    pub fn scope(&self, cwd: &str, home: impl Fn() -> Option<String>) -> Scope {
        let path = self.path.as_deref().map(|path| home_expanded(path, &home));
        let glob = self.glob.as_deref().map(|glob| home_expanded(glob, &home));
        scope::of(cwd, path.as_deref(), glob.as_deref())
    }
}

/// Flags every run gets: no user config file can change the output format, and `.gitignore`
/// files count outside a git repository too, as the tools' descriptions say they do.
const COMMON: [&str; 2] = ["--no-config", "--no-require-git"];

fn strings(parts: &[&str]) -> Vec<String> {
    parts.iter().map(|part| (*part).to_owned()).collect()
}

/// `rg --files`: paths separated by NUL bytes (a path may contain a newline), in the scope's
/// path (see `scope`), narrowed by its glob (see `path_glob`).
pub fn glob_argv(scope: &Scope, glob: Option<&PathGlob>) -> Vec<String> {
    let mut argv = strings(&COMMON);
    argv.extend(strings(&["--files", "--null"]));
    push_scope(&mut argv, scope, glob);
    argv
}

/// `rg --files` of the working directory's own entries matching `glob`, hidden, ignored and
/// symlinked ones included (see `named_file`).
pub fn directory_entries_argv(glob: &str) -> Vec<String> {
    let mut argv = strings(&COMMON);
    argv.extend(strings(&[
        "--files",
        "--null",
        "--max-depth",
        "1",
        "--hidden",
        "--no-ignore",
        "--follow",
        "--glob",
    ]));
    argv.push(glob.to_owned());
    argv
}

/// The flags that narrow the walk to the glob, then the scope's path after the end of the flags.
fn push_scope(argv: &mut Vec<String>, scope: &Scope, glob: Option<&PathGlob>) {
    argv.extend(glob.map(PathGlob::rg_flags).unwrap_or_default());
    argv.push("--".to_owned());
    argv.extend(scope.path.clone());
}

/// `rg --json`: one JSON message per line. The pattern comes from `args`, the path from the
/// scope, narrowed by its glob.
pub fn grep_argv(args: &GrepArgs, scope: &Scope, glob: Option<&PathGlob>) -> Vec<String> {
    let mut argv = strings(&COMMON);
    // `--crlf`: `$` matches before a CRLF line ending too, which no reader of the lines sees.
    argv.extend(strings(&["--json", "--crlf"]));
    if args.ignore_case {
        argv.push("--ignore-case".to_owned());
    }
    match args.output_mode {
        // The first match proves a file matches; reading on would only cost time.
        OutputMode::FilesWithMatches => argv.extend(strings(&["--max-count", "1"])),
        OutputMode::Content => {
            if let Some(lines) = args.context.filter(|&lines| lines > 0) {
                argv.push("--context".to_owned());
                argv.push(lines.to_string());
            }
        }
        OutputMode::Count => {}
    }
    // Content and count stop reading at the limit, so the files they show are those ripgrep
    // reports first: walked in path order (on one thread), the same files every time.
    if args.output_mode != OutputMode::FilesWithMatches {
        argv.extend(strings(&["--sort", "path"]));
    }
    argv.push("--regexp".to_owned());
    argv.push(args.pattern.clone());
    push_scope(&mut argv, scope, glob);
    argv
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_home() -> Option<String> {
        None
    }

    fn grep(json: &str) -> GrepArgs {
        match seam_guest::args::parse(json) {
            Ok(args) => args,
            Err(e) => panic!("{json}: {e}"),
        }
    }

    #[test]
    fn grep_values_stay_arguments() {
        let args = grep(
            r#"{"pattern": "--files", "path": "-rf", "glob": "*.rs", "output_mode": "content", "context": 2, "ignore_case": true}"#,
        );
        assert_eq!(
            grep_argv(&args, &args.scope("/ws", no_home), PathGlob::new("*.rs").ok().as_ref()),
            [
                "--no-config",
                "--no-require-git",
                "--json",
                "--crlf",
                "--ignore-case",
                "--context",
                "2",
                "--sort",
                "path",
                "--regexp",
                "--files",
                "--type-add",
                "seamglob:*.rs",
                "--type",
                "seamglob",
                "--",
                "-rf"
            ]
        );
    }

    #[test]
    fn files_mode_stops_at_the_first_match() {
        let args = grep(r#"{"pattern": "x"}"#);
        assert_eq!(
            grep_argv(&args, &args.scope("/ws", no_home), None),
            [
                "--no-config",
                "--no-require-git",
                "--json",
                "--crlf",
                "--max-count",
                "1",
                "--regexp",
                "x",
                "--"
            ]
        );
    }

    #[test]
    fn glob_lists_files() {
        let args = GlobArgs {
            pattern: "*.rs".into(),
            path: Some("src".into()),
            limit: None,
        };
        let scope = args.scope("/ws", no_home);
        assert_eq!(scope.glob.as_deref(), Some("*.rs"));
        assert_eq!(
            glob_argv(&scope, None),
            ["--no-config", "--no-require-git", "--files", "--null", "--", "src"]
        );
        // A glob with a slash is matched in the directory searched.
        let below = GlobArgs {
            pattern: "deep/*.rs".into(),
            ..args
        };
        let scope = below.scope("/ws", no_home);
        assert_eq!((scope.glob.as_deref(), scope.path), (Some("deep/*.rs"), None));
    }

    #[test]
    fn a_leading_tilde_is_the_home_directory() {
        let home = || Some("/home/ada".to_owned());
        let args = GlobArgs {
            pattern: "~/src/**/*.rs".into(),
            path: None,
            limit: None,
        };
        assert_eq!(args.scope("/ws", home).glob.as_deref(), Some("/**/*.rs"));
        assert_eq!(args.scope("/ws", home).cwd, "/home/ada/src");
        let args = grep(r#"{"pattern": "x", "path": "~/notes"}"#);
        assert_eq!(
            grep_argv(&args, &args.scope("/ws", home), None)
                .last()
                .map(String::as_str),
            Some("/home/ada/notes")
        );
    }

    #[test]
    fn unknown_modes_and_fields_are_refused() {
        assert!(seam_guest::args::parse::<GrepArgs>(r#"{"pattern": "x", "output_mode": "lines"}"#).is_err());
        assert!(seam_guest::args::parse::<GlobArgs>(r#"{"pattern": "x", "glob": "y"}"#).is_err());
    }
}
