//! xterm's older screen modes, which the emulator lacks, fed to it as the ones it has: `?1047`
//! (the alternate screen, cleared when it is left) and `?1048` (save and restore the cursor).
//! terminfo says `?1049` for the terminal's `TERM`, but a program that writes the older ones
//! itself would otherwise be seen drawing over the shell's screen. They may come alone or
//! among other modes in one sequence (`ESC [ ? 1047 ; 25 h`), and a read may cut a sequence.

/// The start of a private mode set (`h`) or reset (`l`): `ESC [ ?`, parameters, the final.
const PRIVATE_MODE: &[u8] = b"\x1b[?";

/// A private mode sequence longer than this is no plausible one: passed through, not held.
const LONGEST_HELD: usize = 64;

/// Bytes held from the end of the last chunk: the start of what may be a legacy sequence.
#[derive(Default)]
pub(super) struct LegacyModes {
    held: Vec<u8>,
}

impl LegacyModes {
    /// Feeds `bytes` to `parser` with the legacy modes in the emulator's own terms.
    pub(super) fn feed<CB: vt100::Callbacks>(&mut self, parser: &mut vt100::Parser<CB>, bytes: &[u8]) {
        let joined;
        let rest = if self.held.is_empty() {
            bytes
        } else {
            self.held.extend_from_slice(bytes);
            joined = std::mem::take(&mut self.held);
            &joined[..]
        };
        let mut passed = 0;
        let mut at = 0;
        while let Some(offset) = rest[at..].iter().position(|&b| b == 0x1b) {
            at += offset;
            match private_mode(&rest[at..]) {
                Scan::Legacy { length, set } => {
                    parser.process(&rest[passed..at]);
                    let sequence = &rest[at..at + length];
                    apply(parser, &sequence[PRIVATE_MODE.len()..length - 1], set);
                    at += length;
                    passed = at;
                }
                Scan::Unfinished if rest.len() - at <= LONGEST_HELD => {
                    parser.process(&rest[passed..at]);
                    self.held.extend_from_slice(&rest[at..]);
                    return;
                }
                Scan::Other | Scan::Unfinished => at += 1,
            }
        }
        parser.process(&rest[passed..]);
    }
}

/// What the bytes from an escape hold.
enum Scan {
    /// A private mode set or reset naming an older mode, `length` bytes long.
    Legacy { length: usize, set: bool },
    /// Anything else, passed through as it is.
    Other,
    /// The start of a private mode sequence that the next read may finish.
    Unfinished,
}

fn private_mode(bytes: &[u8]) -> Scan {
    let prefix = PRIVATE_MODE.len().min(bytes.len());
    if bytes[..prefix] != PRIVATE_MODE[..prefix] {
        return Scan::Other;
    }
    if bytes.len() < PRIVATE_MODE.len() {
        return Scan::Unfinished;
    }
    let parameters = bytes[PRIVATE_MODE.len()..]
        .iter()
        .take_while(|b| b.is_ascii_digit() || **b == b';')
        .count();
    let end = PRIVATE_MODE.len() + parameters;
    let set = match bytes.get(end) {
        None => return Scan::Unfinished,
        Some(b'h') => true,
        Some(b'l') => false,
        Some(_) => return Scan::Other,
    };
    let legacy = modes(&bytes[PRIVATE_MODE.len()..end]).any(|mode| matches!(mode, "1047" | "1048"));
    if legacy {
        Scan::Legacy { length: end + 1, set }
    } else {
        Scan::Other
    }
}

/// The modes a parameter list names, in order (empty parameters name none).
fn modes(parameters: &[u8]) -> impl Iterator<Item = &str> {
    parameters
        .split(|b| *b == b';')
        .filter(|mode| !mode.is_empty())
        // Only ASCII digits reach here.
        .map(|mode| std::str::from_utf8(mode).unwrap_or_default())
}

/// Each mode of the sequence in turn, the older ones in the emulator's terms.
fn apply<CB: vt100::Callbacks>(parser: &mut vt100::Parser<CB>, parameters: &[u8], set: bool) {
    for mode in modes(parameters) {
        match (mode, set) {
            ("1047", true) => parser.process(b"\x1b[?47h"),
            // Leaving clears the alternate screen first; outside it, the mode does nothing.
            ("1047", false) if parser.screen().alternate_screen() => parser.process(b"\x1b[2J\x1b[?47l"),
            ("1047", false) => {}
            ("1048", true) => parser.process(b"\x1b7"),
            ("1048", false) => parser.process(b"\x1b8"),
            (other, set) => parser.process(format!("\x1b[?{other}{}", if set { 'h' } else { 'l' }).as_bytes()),
        }
    }
}
