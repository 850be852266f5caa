//! `tool-fs-search`: the `glob` and `grep` tools. They run ripgrep through the subprocess seam
//! (not the fs seam: whole-tree search is no file system primitive, and this way it runs
//! wherever the world's processes run), parse its output and bound what they return.

mod args;
mod config;
mod describe;
mod found;
mod named_file;
mod path_glob;
mod rg_json;
mod run;
mod scope;

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:tool-fs-search;

            world tool-fs-search {
                import seam:subprocess/subprocess@0.1.0;
                import seam:tool/context@0.1.0;
                export seam:tool/tool@0.1.0;
                export seam:host/config-check@0.1.0;
            }
        "#,
        // Dependencies first: the subprocess package's own world refers to seam:host.
        path: ["../../../wit/host", "../../../wit/subprocess", "../../../wit/tool"],
        generate_all,
    });
}

seam_guest::wit_tool_result!(bindings::seam::tool::types);

use bindings::exports::seam::tool::tool::{Call, Guest, ToolResult, ToolSpec};
use bindings::seam::tool::context;

use crate::args::{GlobArgs, GrepArgs};
use crate::config::Config;
use crate::found::Found;
use crate::path_glob::PathGlob;
use crate::run::{Finished, Flow};
use crate::scope::Scope;

/// ripgrep's exit code for "an error happened" (1 only means nothing matched).
const RG_ERROR: i32 = 2;

struct ToolFsSearch;

impl Guest for ToolFsSearch {
    fn describe() -> Vec<ToolSpec> {
        describe::all()
    }

    fn invoke(call: Call) -> ToolResult {
        let result = match dispatch(&call) {
            Ok(result) | Err(result) => result,
        };
        result.into()
    }
}

fn dispatch(call: &Call) -> Result<seam_guest::ToolResult, seam_guest::ToolResult> {
    let config = Config::parse(&context::config())
        .map_err(|message| seam_guest::ToolResult::error("TOOL_CONFIG_INVALID", message))?;
    let cwd = &call.session.cwd;
    match call.name.as_str() {
        describe::GLOB => {
            let args: GlobArgs = seam_guest::args::parse(&call.arguments)?;
            if args.pattern.is_empty() {
                return Err(seam_guest::ToolResult::error(
                    seam_guest::args::INVALID_ARGUMENTS,
                    "invalid arguments: pattern is empty; `*` matches every file",
                ));
            }
            let (found, finished) = searched(&args.scope(cwd, context::home), |scope| {
                let glob = narrowing(scope)?;
                let argv = args::glob_argv(scope, glob.as_ref());
                let mut found = Found::paths(config.limit(args.limit), &scope.shown_prefix)
                    .narrowed(glob, scope.path.as_deref())
                    .raisable(config.raisable(args.limit));
                // ripgrep prints a path it was given as given, and a directory's entries below
                // it: a record equal to the path is the path, a file (see `named_file`).
                let named = scope.path.as_deref();
                let mut named_listed = false;
                let finished = run::rg(argv, &scope.cwd, b'\0', &config, |r| {
                    if Some(r) == named {
                        named_listed = true;
                        return Ok(Flow::More);
                    }
                    found.take(r)
                })?;
                if let Some(named) = named.filter(|_| named_listed)
                    && named_file::matches_glob(scope, named, &config)?
                {
                    found
                        .take(named)
                        .map_err(|e| seam_guest::ToolResult::error("SEARCH_FAILED", e))?;
                }
                Ok((found, finished))
            })?;
            report(&found, &finished, "No files matched")
        }
        describe::GREP => {
            let args: GrepArgs = seam_guest::args::parse(&call.arguments)?;
            let (found, finished) = searched(&args.scope(cwd, context::home), |scope| {
                let glob = narrowing(scope)?;
                let argv = args::grep_argv(&args, scope, glob.as_ref());
                let mut found = Found::grep(
                    args.output_mode,
                    config.limit(args.limit),
                    config.max_line_chars as usize,
                    &scope.shown_prefix,
                )
                .narrowed(glob, scope.path.as_deref())
                .raisable(config.raisable(args.limit))
                .separated(args.context.is_some_and(|lines| lines > 0));
                let finished = run::rg(argv, &scope.cwd, b'\n', &config, |r| found.take(r))?;
                Ok((found, finished))
            })?;
            report(&found, &finished, "No matches found")
        }
        other => Err(seam_guest::ToolResult::error(
            "UNKNOWN_TOOL",
            format!("tool-fs-search has no tool named {other:?}"),
        )),
    }
}

/// The scope's glob, compiled.
fn narrowing(scope: &Scope) -> Result<Option<PathGlob>, seam_guest::ToolResult> {
    scope
        .glob
        .as_deref()
        .map(PathGlob::new)
        .transpose()
        .map_err(|message| seam_guest::ToolResult::error("SEARCH_INVALID_PATTERN", message))
}

/// Run `search` in `scope`. A search run in the path it searches (see `scope`) cannot start
/// when that is no directory: a file is searched as given instead; anything else is said of
/// the path the model gave, as ripgrep says it of a path it cannot search.
fn searched<T>(
    scope: &Scope,
    search: impl Fn(&Scope) -> Result<T, seam_guest::ToolResult>,
) -> Result<T, seam_guest::ToolResult> {
    match search(scope) {
        Err(error) if error.code.as_deref() == Some("SUBPROCESS_CWD_INVALID") && !scope.shown_prefix.is_empty() => {
            match &scope.if_a_file {
                Some(given) => search(given),
                None => {
                    let path = scope.shown_prefix.trim_end_matches('/');
                    Err(seam_guest::ToolResult::error(
                        "SEARCH_PATH_NOT_FOUND",
                        format!("{path}: not an existing directory"),
                    ))
                }
            }
        }
        outcome => outcome,
    }
}

/// The results, with what a reader must know about how the search ended. ripgrep failing
/// outright (a bad pattern, a missing path) is an error; failing on some files is a note.
fn report(found: &Found, finished: &Finished, nothing: &str) -> Result<seam_guest::ToolResult, seam_guest::ToolResult> {
    // A filter that left no file to search is a search that found nothing.
    let nothing_searched = finished.stderr.starts_with("No files were searched");
    let failed = !finished.stopped && finished.outcome.exit_code == Some(RG_ERROR) && !nothing_searched;
    // Files that could not be read (permissions, a dangling link) leave the rest searched.
    let some_files_only = finished.stderr.lines().all(|line| line.contains("(os error"))
        && failure_code(&finished.stderr) == "SEARCH_FAILED";
    if failed && found.is_empty() && !some_files_only {
        return Err(refusal(&finished.stderr));
    }
    let mut text = if found.is_empty() {
        nothing.to_owned()
    } else {
        found.render()
    };
    if found.shows_names_not_utf8() {
        text.push_str(NAMES_NOT_UTF8);
    }
    if finished.timed_out {
        text.push_str("\n[search timed out: results are incomplete]");
    }
    if finished.cancelled {
        text.push_str("\n[search cancelled: results are incomplete]");
    }
    if failed && let Some(first) = finished.stderr.lines().next() {
        text.push_str(&format!("\n[some paths could not be searched: {first}]"));
    }
    Ok(seam_guest::ToolResult::text(text))
}

const NAMES_NOT_UTF8: &str = "\n[a path shown with \u{fffd} has a name that is not UTF-8: the file tools cannot \
                              open it by that name; bash can, with `*` in place of \u{fffd}]";

/// A search ripgrep refused as a whole. Its advice on a pattern that matches a line break
/// names a flag this tool does not have, and its missing path reads as a system error, so
/// those are said in the tool's words.
fn refusal(stderr: &str) -> seam_guest::ToolResult {
    if stderr.contains("is not allowed in a regex") {
        return seam_guest::ToolResult::error(
            "SEARCH_INVALID_PATTERN",
            "the pattern matches a line break, but grep matches one line at a time: search for text within a line",
        );
    }
    let message = stderr.replace(RG_NOT_FOUND, "no such file or directory");
    seam_guest::ToolResult::error(failure_code(stderr), message)
}

/// How ripgrep says a path it was given does not exist.
const RG_NOT_FOUND: &str = "No such file or directory (os error 2)";

/// What a caller can do about a search ripgrep refused tells the codes apart: fix the pattern,
/// fix the path, or neither (SEARCH_FAILED). ripgrep says which in its message only.
fn failure_code(stderr: &str) -> &'static str {
    if stderr.contains("regex parse error") || stderr.contains("error parsing glob") {
        "SEARCH_INVALID_PATTERN"
    } else if stderr.contains(RG_NOT_FOUND) {
        "SEARCH_PATH_NOT_FOUND"
    } else {
        "SEARCH_FAILED"
    }
}

/// Asked when a world that configures this component loads.
impl bindings::exports::seam::host::config_check::Guest for ToolFsSearch {
    fn check() -> Result<(), String> {
        Config::parse(&context::config()).map(drop)
    }
}

bindings::export!(ToolFsSearch with_types_in bindings);
