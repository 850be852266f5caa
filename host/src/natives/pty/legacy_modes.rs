//! xterm's older screen modes, which the emulator lacks, fed to it as the ones it has: `?1047`
//! (the alternate screen, cleared when it is left) and `?1048` (save and restore the cursor).
//! terminfo says `?1049` for the terminal's `TERM`, but a program that writes the older ones
//! itself would otherwise be seen drawing over the shell's screen.

#[derive(Debug, Clone, Copy)]
enum Legacy {
    EnterAlternate,
    LeaveAlternate,
    SaveCursor,
    RestoreCursor,
}

const SEQUENCES: [(&[u8], Legacy); 4] = [
    (b"\x1b[?1047h", Legacy::EnterAlternate),
    (b"\x1b[?1047l", Legacy::LeaveAlternate),
    (b"\x1b[?1048h", Legacy::SaveCursor),
    (b"\x1b[?1048l", Legacy::RestoreCursor),
];

/// The longest tail a chunk can end with that may still become one of [`SEQUENCES`].
const LONGEST_PREFIX: usize = 7;

/// Bytes held from the end of the last chunk: the start of what may be a legacy sequence.
#[derive(Default)]
pub(super) struct LegacyModes {
    held: Vec<u8>,
}

impl LegacyModes {
    /// Feeds `bytes` to `parser` with the legacy sequences in the emulator's own terms.
    pub(super) fn feed<CB: vt100::Callbacks>(&mut self, parser: &mut vt100::Parser<CB>, bytes: &[u8]) {
        let joined;
        let mut rest = if self.held.is_empty() {
            bytes
        } else {
            self.held.extend_from_slice(bytes);
            joined = std::mem::take(&mut self.held);
            &joined[..]
        };
        while let Some((at, length, legacy)) = next_legacy(rest) {
            parser.process(&rest[..at]);
            apply(parser, legacy);
            rest = &rest[at + length..];
        }
        let keep = partial_tail(rest);
        parser.process(&rest[..rest.len() - keep]);
        self.held.extend_from_slice(&rest[rest.len() - keep..]);
    }
}

fn apply<CB: vt100::Callbacks>(parser: &mut vt100::Parser<CB>, legacy: Legacy) {
    match legacy {
        Legacy::EnterAlternate => parser.process(b"\x1b[?47h"),
        // Leaving clears the alternate screen first; outside it, the mode does nothing.
        Legacy::LeaveAlternate if parser.screen().alternate_screen() => parser.process(b"\x1b[2J\x1b[?47l"),
        Legacy::LeaveAlternate => {}
        Legacy::SaveCursor => parser.process(b"\x1b7"),
        Legacy::RestoreCursor => parser.process(b"\x1b8"),
    }
}

/// Where the first legacy sequence in `bytes` starts, its length and what it asks.
fn next_legacy(bytes: &[u8]) -> Option<(usize, usize, Legacy)> {
    let mut escapes = bytes.iter().enumerate().filter(|(_, b)| **b == 0x1b);
    escapes.find_map(|(at, _)| {
        SEQUENCES
            .iter()
            .find(|(sequence, _)| bytes[at..].starts_with(sequence))
            .map(|(sequence, legacy)| (at, sequence.len(), *legacy))
    })
}

/// How many bytes at the end of `bytes` begin a legacy sequence without completing it.
fn partial_tail(bytes: &[u8]) -> usize {
    (1..=LONGEST_PREFIX.min(bytes.len()))
        .rev()
        .find(|&length| {
            let tail = &bytes[bytes.len() - length..];
            SEQUENCES.iter().any(|(sequence, _)| sequence.starts_with(tail))
        })
        .unwrap_or(0)
}
