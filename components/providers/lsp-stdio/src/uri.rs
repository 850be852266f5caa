//! `file:` URIs the server answers with, back into paths relative to the workspace.

/// The path of a `file:` URI, percent-decoded; None for other schemes.
pub fn file_path(uri: &str) -> Option<String> {
    let rest = uri.strip_prefix("file://")?;
    // An authority (`file://host/...`) other than empty or localhost is not a local path.
    let path = match rest.find('/') {
        Some(0) => rest,
        Some(at) if &rest[..at] == "localhost" => &rest[at..],
        _ => return None,
    };
    Some(percent_decode(path))
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(Some(hi)), Some(Some(lo))) =
                (bytes.get(i + 1).map(|&b| hex(b)), bytes.get(i + 2).map(|&b| hex(b)))
        {
            out.push((hi * 16 + lo) as u8);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `path` relative to `root` when inside it, else unchanged.
pub fn relative_to(path: &str, root: &str) -> String {
    let root = root.trim_end_matches('/');
    match path.strip_prefix(root) {
        Some("") => ".".to_owned(),
        Some(rest) if rest.starts_with('/') => rest[1..].to_owned(),
        _ => path.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_file_uris() {
        assert_eq!(file_path("file:///w/a%20b/%C3%A9.rs").as_deref(), Some("/w/a b/é.rs"));
        assert_eq!(file_path("file://localhost/w/x").as_deref(), Some("/w/x"));
        assert_eq!(file_path("file://host/w/x"), None);
        assert_eq!(file_path("untitled:1"), None);
        assert_eq!(file_path("file:///w/100%").as_deref(), Some("/w/100%"));
    }

    #[test]
    fn paths_inside_the_root_become_relative() {
        assert_eq!(relative_to("/w/src/a.rs", "/w"), "src/a.rs");
        assert_eq!(relative_to("/w/src/a.rs", "/w/"), "src/a.rs");
        assert_eq!(relative_to("/wx/a.rs", "/w"), "/wx/a.rs");
        assert_eq!(relative_to("/w", "/w"), ".");
    }
}
