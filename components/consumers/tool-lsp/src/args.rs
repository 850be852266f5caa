//! The lsp tool's arguments.

use serde::Deserialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Operation {
    GoToDefinition,
    FindReferences,
    GoToImplementation,
    Hover,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Args {
    pub operation: Operation,
    /// Absolute, or relative to the session's working directory (the workspace).
    pub file_path: String,
    /// 1-based.
    pub line: u32,
    /// 1-based, in UTF-16 code units.
    pub character: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_operations_and_refuses_unknown_fields() {
        let args: Args = seam_guest::args::parse(
            r#"{"operation": "find_references", "file_path": "src/lib.rs", "line": 3, "character": 7}"#,
        )
        .unwrap();
        assert_eq!(args.operation, Operation::FindReferences);
        assert!(
            seam_guest::args::parse::<Args>(r#"{"operation": "rename", "file_path": "a", "line": 1, "character": 1}"#)
                .is_err()
        );
        assert!(
            seam_guest::args::parse::<Args>(
                r#"{"operation": "hover", "file_path": "a", "line": 1, "character": 1, "x": 1}"#
            )
            .is_err()
        );
    }
}
