//! The tools' arguments and the ripgrep command lines they become. Every value from the model
//! is one argv element after the flag it belongs to, so nothing it sends can become a flag.

use serde::Deserialize;

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

/// Flags every run gets: no user config file can change the output format.
const COMMON: [&str; 1] = ["--no-config"];

fn strings(parts: &[&str]) -> Vec<String> {
    parts.iter().map(|part| (*part).to_owned()).collect()
}

/// `rg --files`: paths separated by NUL bytes (a path may contain a newline).
pub fn glob_argv(args: &GlobArgs) -> Vec<String> {
    let mut argv = strings(&COMMON);
    argv.extend(strings(&["--files", "--null", "--glob"]));
    argv.push(args.pattern.clone());
    argv.push("--".to_owned());
    argv.extend(args.path.clone());
    argv
}

/// `rg --json`: one JSON message per line.
pub fn grep_argv(args: &GrepArgs) -> Vec<String> {
    let mut argv = strings(&COMMON);
    argv.push("--json".to_owned());
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
    if let Some(glob) = &args.glob {
        argv.push("--glob".to_owned());
        argv.push(glob.clone());
    }
    argv.push("--regexp".to_owned());
    argv.push(args.pattern.clone());
    argv.push("--".to_owned());
    argv.extend(args.path.clone());
    argv
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grep(json: &str) -> GrepArgs {
        match seam_guest::args::parse(json) {
            Ok(args) => args,
            Err(e) => panic!("{json}: {e}"),
        }
    }

    #[test]
    fn grep_values_stay_arguments() {
        let argv = grep(
            r#"{"pattern": "--files", "path": "-rf", "glob": "*.rs", "output_mode": "content", "context": 2, "ignore_case": true}"#,
        );
        assert_eq!(
            grep_argv(&argv),
            [
                "--no-config",
                "--json",
                "--ignore-case",
                "--context",
                "2",
                "--glob",
                "*.rs",
                "--regexp",
                "--files",
                "--",
                "-rf"
            ]
        );
    }

    #[test]
    fn files_mode_stops_at_the_first_match() {
        assert_eq!(
            grep_argv(&grep(r#"{"pattern": "x"}"#)),
            ["--no-config", "--json", "--max-count", "1", "--regexp", "x", "--"]
        );
    }

    #[test]
    fn glob_lists_files() {
        let args = GlobArgs {
            pattern: "**/*.rs".into(),
            path: Some("src".into()),
            limit: None,
        };
        assert_eq!(
            glob_argv(&args),
            ["--no-config", "--files", "--null", "--glob", "**/*.rs", "--", "src"]
        );
    }

    #[test]
    fn unknown_modes_and_fields_are_refused() {
        assert!(seam_guest::args::parse::<GrepArgs>(r#"{"pattern": "x", "output_mode": "lines"}"#).is_err());
        assert!(seam_guest::args::parse::<GlobArgs>(r#"{"pattern": "x", "glob": "y"}"#).is_err());
    }
}
