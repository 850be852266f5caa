//! Query results as text: one `path:line:character-line:character` range per line, or the
//! hover markdown.

use crate::args::Operation;
use crate::bindings::seam::lsp::lsp::QueryResult;

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
    let mut text = format!("{count} {}:", if count == 1 { one } else { many });
    for l in &result.locations {
        text.push_str(&format!(
            "\n{}:{}:{}-{}:{}",
            l.path, l.start_line, l.start_character, l.end_line, l.end_character
        ));
    }
    text
}
