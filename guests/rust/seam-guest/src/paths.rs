//! Paths: those a model gives, placed in its session, and lexical normalization.

use std::borrow::Cow;

/// Where `given` points for a session whose working directory is `cwd`: an absolute path as
/// given, `~` and `~/…` under the home directory (see [`home_expanded`]), any other path under
/// `cwd`, and no path (or an empty one) `cwd` itself. Nothing is normalized or checked here:
/// the providers do that, where the files are.
pub fn in_session(given: Option<&str>, cwd: &str, home: impl FnOnce() -> Option<String>) -> String {
    let given = home_expanded(given.unwrap_or_default(), home);
    if given.is_empty() {
        cwd.to_owned()
    } else if given.starts_with('/') {
        given.into_owned()
    } else {
        format!("{}/{given}", cwd.trim_end_matches('/'))
    }
}

/// Absolute `path` lexically normalized: `.` and empty components dropped, `..` applied to what
/// precedes it (never above the root), no trailing slash. None when `path` is relative.
/// Symlinks are not followed: where that matters, the host canonicalizes.
pub fn normalized(path: &str) -> Option<String> {
    if !path.starts_with('/') {
        return None;
    }
    // Built in place (no `format!`): every fs call of a lane normalizes a path, and the
    // formatting machinery is cold code in a fresh instance.
    let mut normal = String::with_capacity(path.len());
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => normal.truncate(normal.rfind('/').unwrap_or(0)),
            name => {
                normal.push('/');
                normal.push_str(name);
            }
        }
    }
    if normal.is_empty() {
        normal.push('/');
    }
    Some(normal)
}

/// `path` is `root` or below it, component-wise (`/a/bc` is not below `/a/b`); both absolute
/// and normalized.
pub fn is_under(path: &str, root: &str) -> bool {
    root == "/" || path == root || path.strip_prefix(root).is_some_and(|rest| rest.starts_with('/'))
}

/// `given` with a leading `~` (alone, or before a `/`) replaced by the home directory, when
/// `home` names one; any other path as given. `home` is asked only for such a path.
pub fn home_expanded(given: &str, home: impl FnOnce() -> Option<String>) -> Cow<'_, str> {
    let Some(rest) = given
        .strip_prefix('~')
        .filter(|rest| rest.is_empty() || rest.starts_with('/'))
    else {
        return Cow::Borrowed(given);
    };
    match home() {
        Some(home) if rest.len() > 1 => Cow::Owned(format!("{}{rest}", home.trim_end_matches('/'))),
        Some(home) => Cow::Owned(home),
        None => Cow::Borrowed(given),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn home() -> Option<String> {
        Some("/home/ada".into())
    }

    #[test]
    fn absolute_paths_stay_and_relative_ones_join_the_cwd() {
        assert_eq!(in_session(Some("/etc/hosts"), "/work", home), "/etc/hosts");
        assert_eq!(in_session(Some("src/lib.rs"), "/work/", home), "/work/src/lib.rs");
        assert_eq!(in_session(Some("../x"), "/work", home), "/work/../x");
        assert_eq!(in_session(None, "/work", home), "/work");
        assert_eq!(in_session(Some(""), "/work", home), "/work");
    }

    #[test]
    fn a_leading_tilde_is_the_home_directory() {
        assert_eq!(in_session(Some("~"), "/work", home), "/home/ada");
        assert_eq!(in_session(Some("~/"), "/work", home), "/home/ada");
        assert_eq!(in_session(Some("~/notes/a.md"), "/work", home), "/home/ada/notes/a.md");
        assert_eq!(in_session(Some("~/x"), "/work", || Some("/".into())), "/x");
        assert_eq!(in_session(Some("~"), "/work", || Some("/".into())), "/");
    }

    #[test]
    fn normalizing_is_lexical() {
        assert_eq!(normalized("/work/./a/../b/").as_deref(), Some("/work/b"));
        assert_eq!(normalized("/etc//hosts").as_deref(), Some("/etc/hosts"));
        assert_eq!(normalized("/../../x").as_deref(), Some("/x"));
        assert_eq!(normalized("/").as_deref(), Some("/"));
        assert_eq!(normalized("relative/a"), None);
        assert_eq!(normalized(""), None);
    }

    #[test]
    fn only_a_leading_tilde_is_expanded() {
        assert_eq!(home_expanded("~/a/b", home), "/home/ada/a/b");
        assert_eq!(home_expanded("~/**/*.rs", home), "/home/ada/**/*.rs");
        assert_eq!(home_expanded("src/~", home), "src/~");
        assert_eq!(home_expanded("~", || None), "~");
    }

    #[test]
    fn other_tildes_are_names() {
        let asked = std::cell::Cell::new(false);
        let home = || {
            asked.set(true);
            home()
        };
        assert_eq!(in_session(Some("~ada/x"), "/work", home), "/work/~ada/x");
        assert_eq!(in_session(Some("a/~/b"), "/work", home), "/work/a/~/b");
        assert!(!asked.get(), "home is asked for a `~` path only");
        assert_eq!(
            in_session(Some("~/x"), "/work", || None),
            "/work/~/x",
            "no home: a name"
        );
    }
}
