//! Mode names, as the world file and the model write them.

use crate::bindings::seam::sandbox::types::Mode;

pub const ALL: [Mode; 3] = [Mode::ReadOnly, Mode::WorkspaceWrite, Mode::DangerFullAccess];

pub fn name(mode: Mode) -> &'static str {
    match mode {
        Mode::ReadOnly => "read-only",
        Mode::WorkspaceWrite => "workspace-write",
        Mode::DangerFullAccess => "danger-full-access",
    }
}

pub fn parse(text: &str) -> Option<Mode> {
    ALL.into_iter().find(|m| name(*m) == text)
}

/// Position on the strictly ordered ladder.
pub fn rank(mode: Mode) -> usize {
    ALL.iter().position(|m| *m == mode).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_rank_orders() {
        for mode in ALL {
            assert_eq!(parse(name(mode)), Some(mode));
        }
        assert!(rank(Mode::ReadOnly) < rank(Mode::WorkspaceWrite));
        assert!(rank(Mode::WorkspaceWrite) < rank(Mode::DangerFullAccess));
        assert_eq!(parse("open"), None);
    }
}
