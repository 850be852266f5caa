//! Signal names a caller may send to the foreground process group.

use crate::bindings::exports::seam::terminal::terminal::Error;
use crate::errors;

const SIGNALS: &[(&str, i32)] = &[
    ("HUP", 1),
    ("INT", 2),
    ("QUIT", 3),
    ("KILL", 9),
    ("TERM", 15),
    ("CONT", 18),
    ("TSTP", 20),
];

/// `INT`, `SIGINT`, `int`: the Linux signal number.
pub fn parse(name: &str) -> Result<i32, Error> {
    let upper = name.trim().to_ascii_uppercase();
    let bare = upper.strip_prefix("SIG").unwrap_or(&upper);
    SIGNALS
        .iter()
        .find(|(n, _)| *n == bare)
        .map(|(_, number)| *number)
        .ok_or_else(|| {
            let names: Vec<&str> = SIGNALS.iter().map(|(n, _)| *n).collect();
            errors::error(
                errors::INVALID_REQUEST,
                format!("unknown signal {name:?}; one of {}", names.join(", ")),
            )
        })
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_with_or_without_the_prefix() {
        assert_eq!(super::parse("INT").ok(), Some(2));
        assert_eq!(super::parse("sigterm").ok(), Some(15));
        assert_eq!(
            super::parse("SIGWINCH").err().map(|e| e.code).as_deref(),
            Some("TERMINAL_INVALID_REQUEST")
        );
    }
}
