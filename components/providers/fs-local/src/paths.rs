//! Path arithmetic that needs no file system: joining to a cwd, lexical normalization,
//! containment of canonical paths and `file:` URLs.

/// The absolute, lexically normalized form of `path` (relative ones joined to `cwd`): `.`
/// dropped, `..` applied to what precedes it (never above the root), no repeated or trailing
/// slashes. None when the path is relative and `cwd` is not absolute.
pub fn absolute(path: &str, cwd: &str) -> Option<String> {
    if path.starts_with('/') {
        seam_guest::paths::normalized(path)
    } else if cwd.starts_with('/') {
        seam_guest::paths::normalized(&[cwd, "/", path].concat())
    } else {
        None
    }
}

/// Whether `path` has a `..` component, which only the file system can resolve rightly.
pub fn climbs(path: &str) -> bool {
    path.split('/').any(|part| part == "..")
}

/// True when canonical `child` is `parent` or below it, compared by whole components.
pub fn contains(parent: &str, child: &str) -> bool {
    if !parent.starts_with('/') || !child.starts_with('/') {
        return false;
    }
    let parent = parent.trim_end_matches('/');
    child == parent || parent.is_empty() || child.strip_prefix(parent).is_some_and(|rest| rest.starts_with('/'))
}

/// The parent directory of an absolute path (`/` for `/` itself).
pub fn parent(path: &str) -> &str {
    match path.rfind('/') {
        Some(0) | None => "/",
        Some(slash) => &path[..slash],
    }
}

/// A `file://` URL: every byte outside the unreserved set and `/` percent-encoded (RFC 8089).
pub fn file_url(path: &str) -> String {
    let mut url = String::from("file://");
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            url.push(char::from(byte));
        } else {
            url.push_str(&format!("%{byte:02X}"));
        }
    }
    url
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_join_the_cwd() {
        assert_eq!(absolute("src/main.rs", "/work").as_deref(), Some("/work/src/main.rs"));
        assert_eq!(absolute("./a/../b", "/work/").as_deref(), Some("/work/b"));
        assert_eq!(absolute("/etc//hosts/", "/work").as_deref(), Some("/etc/hosts"));
        assert_eq!(absolute("../../../..", "/work").as_deref(), Some("/"));
        assert_eq!(absolute("a", "relative"), None);
        assert_eq!(absolute("a", ""), None);
        assert_eq!(absolute("/abs", "").as_deref(), Some("/abs"));
    }

    #[test]
    fn containment_is_by_component() {
        assert!(contains("/work", "/work"));
        assert!(contains("/work", "/work/a/b"));
        assert!(contains("/", "/anything"));
        assert!(!contains("/work", "/work-other"));
        assert!(!contains("/work/a", "/work"));
        assert!(!contains("work", "work/a"));
    }

    #[test]
    fn parents() {
        assert_eq!(parent("/a/b.txt"), "/a");
        assert_eq!(parent("/b.txt"), "/");
        assert_eq!(parent("/"), "/");
    }

    #[test]
    fn urls_escape_what_is_not_unreserved() {
        assert_eq!(file_url("/work/a b/ü#1.rs"), "file:///work/a%20b/%C3%BC%231.rs");
    }
}
