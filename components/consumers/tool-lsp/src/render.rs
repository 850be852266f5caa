//! Query results as text: one `path:line:character-line:character` range per line, or the
//! hover markdown. Locations in the workspace (relative paths) come first, in the server's
//! order, then those outside it (a toolchain's or a dependency's sources), and at most
//! [`MAX_SHOWN`] are listed: `String` in a Rust crate has hundreds of references in the
//! standard library, and the one the model looks for is in its own code.

use crate::args::Operation;
use crate::bindings::seam::lsp::lsp::QueryResult;

/// Locations listed at most; a last line counts the rest.
const MAX_SHOWN: usize = 100;

pub fn result(operation: Operation, at: &str, result: &QueryResult) -> String {
    if operation == Operation::Hover {
        return match &result.hover {
            Some(markdown) => markdown.clone(),
            None => format!("No hover information at {at}."),
        };
    }
    let (one, many) = match operation {
        Operation::GoToDefinition => ("definition", "definitions"),
        Operation::GoToImplementation => ("implementation", "implementations"),
        _ => ("reference", "references"),
    };
    if result.locations.is_empty() {
        return format!("No {many} found at {at}.");
    }
    let count = result.locations.len();
    let mut locations: Vec<_> = result.locations.iter().collect();
    // Stable: the server's order within each group.
    locations.sort_by_key(|l| l.path.starts_with('/'));
    let inside = locations.iter().filter(|l| !l.path.starts_with('/')).count();
    let mut text = format!("{count} {}", if count == 1 { one } else { many });
    if inside < count {
        text.push_str(&format!(" ({inside} in the workspace, listed first)"));
    }
    text.push(':');
    for l in locations.iter().take(MAX_SHOWN) {
        text.push_str(&format!(
            "\n{}:{}:{}-{}:{}",
            l.path, l.start_line, l.start_character, l.end_line, l.end_character
        ));
    }
    if count > MAX_SHOWN {
        let hidden_inside = inside.saturating_sub(MAX_SHOWN);
        text.push_str(&format!("\n... and {} more not listed", count - MAX_SHOWN));
        if hidden_inside > 0 {
            text.push_str(&format!(" ({hidden_inside} of them in the workspace)"));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::seam::lsp::lsp::Location;

    fn at(path: &str, line: u32) -> Location {
        Location {
            path: path.into(),
            start_line: line,
            start_character: 1,
            end_line: line,
            end_character: 4,
        }
    }

    fn references(locations: Vec<Location>) -> String {
        result(Operation::FindReferences, "x", &QueryResult { locations, hover: None })
    }

    #[test]
    fn the_workspace_comes_first() {
        let text = references(vec![
            at("/rustup/lib.rs", 9),
            at("src/main.rs", 3),
            at("/cargo/dep.rs", 2),
        ]);
        assert_eq!(
            text,
            "3 references (1 in the workspace, listed first):\nsrc/main.rs:3:1-3:4\n\
             /rustup/lib.rs:9:1-9:4\n/cargo/dep.rs:2:1-2:4"
        );
        assert_eq!(references(vec![at("a.rs", 1)]), "1 reference:\na.rs:1:1-1:4");
    }

    #[test]
    fn a_long_list_is_cut_and_counted() {
        let mut many: Vec<Location> = (0..150).map(|n| at("/std/lib.rs", n)).collect();
        many.extend((0..120).map(|n| at("src/a.rs", n)));
        let text = references(many);
        assert!(text.starts_with("270 references (120 in the workspace, listed first):\nsrc/a.rs:0:"));
        assert_eq!(text.lines().count(), 1 + MAX_SHOWN + 1);
        assert!(
            text.ends_with("\n... and 170 more not listed (20 of them in the workspace)"),
            "{text}"
        );
    }
}
