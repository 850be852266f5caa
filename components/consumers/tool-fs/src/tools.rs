//! The four tools over the fs seam. Each resolves `file_path` in the session (relative to its
//! cwd, `~` in the home directory) and passes the session id, so an observation policy below
//! can judge writes by what this session read.

use std::borrow::Cow;

use seam_guest::ToolResult;

use crate::args::{EditArgs, ImageArgs, ReadArgs, WriteArgs};
use crate::bindings::seam::fs::fs;
use crate::bindings::seam::fs::types::{Edit, EditOutcome, Error, LineWindow, Target};
use crate::bindings::seam::sandbox::policy;
use crate::bindings::seam::sandbox::types::Policy;
use crate::bindings::seam::tool::context;
use crate::bindings::seam::tool::types::Session;
use crate::config::Config;
use crate::errors;
use crate::image;
use crate::line_ends;
use crate::nearby;
use crate::render::{self, BYTE_ORDER_MARK, Lines, Window};

fn resolve(file_path: &str, session: &Session) -> Result<Target, ToolResult> {
    if file_path.is_empty() {
        return Err(ToolResult::error(
            seam_guest::args::INVALID_ARGUMENTS,
            "invalid arguments: file_path is empty; give the file's path",
        ));
    }
    let path = seam_guest::paths::in_session(Some(file_path), &session.cwd, context::home);
    fs::resolve(&path, &session.cwd).map_err(errors::from_fs)
}

pub fn read(args: ReadArgs, session: &Session, config: &Config) -> Result<ToolResult, ToolResult> {
    if args.limit == Some(0) || args.offset == Some(0) {
        return Err(ToolResult::error(
            seam_guest::args::INVALID_ARGUMENTS,
            "invalid arguments: offset and limit count lines from 1",
        ));
    }
    let target = resolve(&args.file_path, session)?;
    let (offset, limit) = (args.offset.unwrap_or(1), args.limit.unwrap_or(config.default_limit));
    // Only the window crosses from the provider; the whole file is still read and checked.
    let lines = LineWindow {
        first: u64::from(offset),
        count: limit,
    };
    let file = fs::read_lines(&target, lines, Some(config.max_file_bytes), Some(&session.id))
        .map_err(|error| errors::from_fs(missing(error, &target)))?;
    let window = Window {
        offset: offset as usize,
        limit: limit as usize,
        max_line_chars: config.max_line_chars as usize,
        max_output_bytes: config.max_output_bytes as usize,
    };
    let lines = Lines {
        text: &file.content,
        more: file.more,
        line_count: file.line_count,
        size: file.size,
    };
    Ok(ToolResult::text(render::numbered(&lines, &window)))
}

/// A file that is not there, told with what is near it (see `nearby`).
fn missing(mut error: Error, target: &Target) -> Error {
    if error.code == "FS_NOT_FOUND"
        && let Some(hint) = nearby::hint(target)
    {
        error.message = format!("{}\n{hint}", error.message);
    }
    error
}

/// The session's sandbox policy from the policy service: the one owner of modes, shared with
/// the shell, so a session's standing mode fences its file writes and its commands alike.
fn session_policy(session: &Session) -> Result<Policy, ToolResult> {
    policy::resolve(&session.id, Some(&session.cwd), None)
        .map(|effective| effective.policy)
        .map_err(|e| ToolResult::error(&e.code, e.message))
}

pub fn write(args: WriteArgs, session: &Session) -> Result<ToolResult, ToolResult> {
    // Resolution drops a trailing slash: without this check `dir/` would become a file `dir`.
    if args.file_path.ends_with('/') {
        return Err(ToolResult::error(
            "FS_IS_A_DIRECTORY",
            format!(
                "{}: a path ending in / names a directory; write needs a file path",
                args.file_path
            ),
        ));
    }
    let target = resolve(&args.file_path, session)?;
    let policy = session_policy(session)?;
    // Written as the file it replaces is: its line ends and its byte order mark.
    let start = line_ends::file_start(&target);
    let with_ends = line_ends::as_file_ends(&args.content, &start);
    let ends_kept = with_ends.len() != args.content.len();
    let mark_kept = start.starts_with(BYTE_ORDER_MARK) && !with_ends.starts_with(BYTE_ORDER_MARK);
    let content = if mark_kept {
        Cow::Owned(format!("{BYTE_ORDER_MARK}{with_ends}"))
    } else {
        with_ends
    };
    let outcome =
        fs::write_text(&target, &content, None, Some(&policy), Some(&session.id)).map_err(errors::from_write)?;
    // As the file holds it (a UTF-16 file stays UTF-16), or as sent if it is gone already.
    let bytes = fs::stat(&target).map_or(content.len() as u64, |now| now.size);
    let path = &target.display_path;
    let ends = match (ends_kept, mark_kept) {
        (false, false) => "",
        (true, false) => " (its CRLF line ends kept)",
        (false, true) => " (its byte order mark kept)",
        (true, true) => " (its CRLF line ends and byte order mark kept)",
    };
    let bytes = if bytes == 1 {
        "1 byte".to_owned()
    } else {
        format!("{bytes} bytes")
    };
    Ok(ToolResult::text(if outcome.created {
        format!("Created {path} ({bytes})")
    } else {
        format!("Wrote {bytes} to {path}{ends}")
    }))
}

pub fn edit(args: EditArgs, session: &Session, config: &Config) -> Result<ToolResult, ToolResult> {
    let target = resolve(&args.file_path, session)?;
    let change = Edit {
        old: args.old_string,
        new: args.new_string,
        replace_all: args.replace_all,
    };
    let policy = session_policy(session)?;
    let edit = |change: &Edit| fs::edit_text(&target, change, None, Some(&policy), Some(&session.id));
    // Only strings that span lines depend on the file's line ends.
    let spans_lines = change.old.contains('\n') || change.new.contains('\n');
    let no_match = |outcome: &Result<EditOutcome, Error>| matches!(outcome, Err(e) if e.code == errors::EDIT_NO_MATCH);
    let crlf = spans_lines && line_ends::file_uses_crlf(&target);
    let mut outcome = if crlf {
        edit(&line_ends::with_crlf(&change))
    } else {
        edit(&change)
    };
    if crlf && no_match(&outcome) {
        outcome = edit(&change);
    }
    // Mixed line ends: the text as the file holds it, each line break as it is there.
    if spans_lines && no_match(&outcome) {
        outcome = edit_as_found(&target, &change, edit).unwrap_or(outcome);
    }
    let outcome = outcome.map_err(|error| {
        let file = || fs::read_text(&target, None, None).ok().map(|file| file.content);
        errors::from_edit(missing(error, &target), &change, config.max_line_chars as usize, file)
    })?;
    let occurrences = match outcome.replacements {
        1 => "1 occurrence".to_owned(),
        n => format!("{n} occurrences"),
    };
    Ok(ToolResult::text(format!(
        "Edited {}: replaced {occurrences}",
        target.display_path
    )))
}

/// `change` applied to each text in the file it stands for with its line breaks either way
/// (see `line_ends::as_found`); None when there is none. Two such texts are as ambiguous as two
/// equal ones; with replace-all, each is replaced by its own edit.
fn edit_as_found(
    target: &Target,
    change: &Edit,
    edit: impl Fn(&Edit) -> Result<EditOutcome, Error>,
) -> Option<Result<EditOutcome, Error>> {
    let file = fs::read_text(target, None, None).ok()?;
    let found = line_ends::as_found(&file.content, &change.old);
    if found.len() > 1 && !change.replace_all {
        return Some(Err(Error {
            code: errors::EDIT_AMBIGUOUS.to_owned(),
            message: format!("old_string matches {} places in {}", found.len(), target.display_path),
        }));
    }
    let mut total: Option<EditOutcome> = None;
    for text in found {
        let exact = Edit {
            old: text.to_owned(),
            new: line_ends::new_as_found(&change.new, text),
            replace_all: change.replace_all,
        };
        let done = match edit(&exact) {
            Ok(done) => done,
            Err(e) => return Some(Err(e)),
        };
        let replacements = total.as_ref().map_or(0, |t| t.replacements) + done.replacements;
        total = Some(EditOutcome { replacements, ..done });
    }
    total.map(Ok)
}

pub fn read_image(args: ImageArgs, session: &Session, config: &Config) -> Result<ToolResult, ToolResult> {
    let target = resolve(&args.file_path, session)?;
    let file = fs::read_bytes(&target, config.max_image_bytes)
        .map_err(|error| errors::from_image_read(missing(error, &target)))?;
    let data = seam_guest::base64::decode(&file.base64).ok_or_else(|| {
        let message = format!(
            "{}: the fs provider sent bytes that are not base64",
            target.display_path
        );
        ToolResult::error(errors::IO, message)
    })?;
    let Some(mime_type) = image::mime_type(&data) else {
        return Err(ToolResult::error(
            errors::IMAGE_UNSUPPORTED,
            format!(
                "{} is not a PNG, JPEG, GIF or WebP image; read text files with read",
                target.display_path
            ),
        ));
    };
    if let Some(why) = image::damage(mime_type, &data) {
        return Err(ToolResult::error(
            errors::IMAGE_DAMAGED,
            format!("{} is a damaged {mime_type} image: {why}", target.display_path),
        ));
    }
    Ok(ToolResult {
        content: vec![seam_guest::Content::Image {
            data: file.base64,
            mime_type: mime_type.to_owned(),
        }],
        is_error: false,
        code: None,
    })
}
