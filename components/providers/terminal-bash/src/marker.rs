//! The controlled prompt marker: an OSC sequence carrying a per-session nonce and the finished
//! command's status, printed by a hook at the end of bash's PROMPT_COMMAND array.
//!
//! Why it survives what users do: the marker is not in PS1 (`PS1=x`, a virtualenv's prompt
//! prefix change nothing); the hook sits at index 99 of the PROMPT_COMMAND array, so a user
//! assigning or extending PROMPT_COMMAND (`PROMPT_COMMAND=hook`, `PROMPT_COMMAND+="; x"`) replaces
//! or extends index 0 only; the status is captured at index 0 and reported only when that capture
//! survived, never guessed. The typed init line holds `\033` as text, so the terminal's echo of it
//! can never look like a marker, and nothing a program prints carries the nonce by accident.

const PREFIX: &[u8] = b"\x1b]777;seam;";
const END: u8 = 0x07;

/// The line that installs the hooks (ends with a newline), then clears the screen it was echoed on.
pub fn init_line(nonce: &str) -> String {
    format!(
        "__seam_n={nonce}; __seam_ready() {{ local s=\"${{__seam_st-}}\"; unset __seam_st; \
         printf '\\033]777;seam;%s;%s\\007' \"$__seam_n\" \"$s\"; }}; \
         PROMPT_COMMAND=('__seam_st=$?'); PROMPT_COMMAND[99]='__seam_ready'; PS1='$ '; PS2='> '; \
         printf '\\033[H\\033[2J'\n"
    )
}

/// A marker found in output: where it starts and ends, and the status it carries.
#[derive(Debug, PartialEq, Eq)]
pub struct Found {
    pub start: usize,
    pub end: usize,
    pub status: Option<i32>,
}

/// The first complete marker of `nonce` in `data`.
pub fn find(data: &[u8], nonce: &str) -> Option<Found> {
    let mut from = 0;
    while let Some(at) = find_bytes(&data[from..], PREFIX).map(|i| i + from) {
        let body_start = at + PREFIX.len();
        let end = data[body_start..]
            .iter()
            .position(|&b| b == END)
            .map(|i| i + body_start)?;
        let body = String::from_utf8_lossy(&data[body_start..end]);
        if let Some((n, status)) = body.split_once(';')
            && n == nonce
        {
            return Some(Found {
                start: at,
                end: end + 1,
                status: status.parse().ok(),
            });
        }
        from = body_start;
    }
    None
}

/// The last complete marker of `nonce` in `data`.
pub fn find_last(data: &[u8], nonce: &str) -> Option<Found> {
    let mut last = None;
    let mut from = 0;
    while let Some(found) = find(&data[from..], nonce) {
        let found = Found {
            start: found.start + from,
            end: found.end + from,
            status: found.status,
        };
        from = found.end;
        last = Some(found);
    }
    last
}

/// `data` without any marker of `nonce`.
pub fn strip(data: &[u8], nonce: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    let mut rest = data;
    while let Some(found) = find(rest, nonce) {
        out.extend_from_slice(&rest[..found.start]);
        rest = &rest[found.end..];
    }
    out.extend_from_slice(rest);
    out
}

fn find_bytes(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_are_found_by_nonce_with_their_status() {
        let data = b"out\x1b]777;seam;other;1\x07more\x1b]777;seam;abc;130\x07$ ";
        let found = find(data, "abc").unwrap();
        assert_eq!(found.status, Some(130));
        assert_eq!(&data[found.end..], b"$ ");
        assert_eq!(strip(data, "abc"), b"out\x1b]777;seam;other;1\x07more$ ");
        assert_eq!(
            find(b"\x1b]777;seam;abc;", "abc"),
            None,
            "an incomplete marker is not one"
        );
        assert_eq!(find(b"\x1b]777;seam;abc;\x07", "abc").unwrap().status, None);
        let two = b"\x1b]777;seam;abc;1\x07x\x1b]777;seam;abc;2\x07y";
        assert_eq!(
            find_last(two, "abc").map(|f| (f.status, f.end)),
            Some((Some(2), two.len() - 1))
        );
    }

    #[test]
    fn the_echoed_init_line_is_not_a_marker() {
        assert_eq!(find(init_line("abc").as_bytes(), "abc"), None);
    }
}
