//! `wc`: how many lines, words, characters and bytes a text file has. The file is read through
//! the fs seam, so the world file must grant this plugin `fs`.

use seam_guest::ToolResult;
use seam_guest::plugin::{Context, Tool, ToolError};
use serde::Deserialize;
use serde_json::json;

/// Larger files are refused (FS_TOO_LARGE) rather than read into memory whole.
const MAX_BYTES: u64 = 64 << 20;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Args {
    path: String,
}

struct Wc;

impl Tool for Wc {
    const NAME: &'static str = "wc";
    const DESCRIPTION: &'static str = "Count the lines, words, characters and bytes of a text file, like `wc`. \
        Lines are newline characters; words are runs of non-whitespace.";
    type Args = Args;

    fn schema() -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "path": {
                    "type": "string",
                    "description": "The file: absolute, `~/…` in the home directory, or relative to the session's working directory."
                }
            },
            "required": ["path"],
            "additionalProperties": false
        })
    }

    fn run(args: Args, ctx: &Context) -> Result<ToolResult, ToolError> {
        let text = ctx.read_text(&args.path, Some(MAX_BYTES))?;
        let counts = Counts::of(&text);
        Ok(ToolResult::text(format!(
            "lines {} words {} chars {} bytes {} {}",
            counts.lines, counts.words, counts.chars, counts.bytes, args.path
        )))
    }
}

#[derive(Debug, PartialEq, Eq)]
struct Counts {
    lines: usize,
    words: usize,
    chars: usize,
    bytes: usize,
}

impl Counts {
    fn of(text: &str) -> Self {
        Self {
            lines: text.matches('\n').count(),
            words: text.split_whitespace().count(),
            chars: text.chars().count(),
            bytes: text.len(),
        }
    }
}

seam_guest::export_tools!(Wc);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_like_wc() {
        let counts = Counts::of("one two\nthree  é\n\nlast");
        assert_eq!(
            counts,
            Counts {
                lines: 3,
                words: 5,
                chars: 22,
                bytes: 23
            }
        );
        assert_eq!(Counts::of("").lines, 0);
    }
}
