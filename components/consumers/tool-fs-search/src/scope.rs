//! Where ripgrep runs. A model means a glob with a slash (`src/**/*.rs`) relative to the
//! directory it searches, but ripgrep matches such a glob relative to its working directory;
//! so a search with one runs in the searched directory, and its paths are shown as if searched
//! from the session's. An absolute glob (`/repo/src/*.rs`) searches from its leading
//! directories. A path that turns out to be a file is searched as given (ripgrep searches a
//! file it is given whatever the glob; `glob` then matches the glob itself, see `named_file`).

/// How one search is run.
#[derive(Debug, PartialEq, Eq)]
pub struct Scope {
    /// ripgrep's working directory.
    pub cwd: String,
    /// The path to search, given to ripgrep as is; none for its working directory.
    pub path: Option<String>,
    pub glob: Option<String>,
    /// Put before every path ripgrep prints.
    pub shown_prefix: String,
    /// How to run it instead when the path it runs in turns out to be a file: as given, in the
    /// session's directory, where ripgrep searches the file it is given.
    pub if_a_file: Option<Box<Scope>>,
}

/// The scope of a search of `path` (none: the session's `cwd`) for files matching `glob`.
pub fn of(cwd: &str, path: Option<&str>, glob: Option<&str>) -> Scope {
    // `./src/*.rs` means `src/*.rs`: ripgrep matches globs against paths that never start with
    // `./`, so it would match nothing.
    let glob = glob.map(|glob| glob.trim_start_matches("./"));
    let split = glob.and_then(|glob| split_absolute(glob).or_else(|| split_parent(glob, path)));
    let (path, glob, given) = match split {
        Some((dir, rest)) => (Some(dir), Some(rest), None),
        None => {
            let given = as_given(cwd, path.map(str::to_owned), glob.map(str::to_owned));
            (path.map(str::to_owned), glob.map(str::to_owned), Some(Box::new(given)))
        }
    };
    match path {
        Some(dir) if glob.as_deref().is_some_and(|g| g.contains('/')) => Scope {
            cwd: if dir.starts_with('/') {
                dir.clone()
            } else {
                format!("{}/{dir}", cwd.trim_end_matches('/'))
            },
            path: None,
            glob,
            shown_prefix: format!("{}/", dir.trim_end_matches('/')),
            if_a_file: given,
        },
        path => as_given(cwd, path, glob),
    }
}

fn as_given(cwd: &str, path: Option<String>, glob: Option<String>) -> Scope {
    Scope {
        cwd: cwd.to_owned(),
        path,
        glob,
        shown_prefix: String::new(),
        if_a_file: None,
    }
}

/// An absolute glob as the directory of its leading literal components and the rest, anchored
/// to it: `/repo/src/**/*.rs` is `/repo/src` and `/**/*.rs`.
fn split_absolute(glob: &str) -> Option<(String, String)> {
    let parts: Vec<&str> = glob.strip_prefix('/')?.split('/').collect();
    let literal = literal_components(&parts);
    Some((
        format!("/{}", parts[..literal].join("/")),
        format!("/{}", parts[literal..].join("/")),
    ))
}

/// A glob that climbs (`../lib/**/*.rs`, `src/../tests/*.rs`) split as an absolute one is, its
/// directory taken from `path` (the session's directory when none): ripgrep matches a glob
/// against the paths below where it runs, and none of those holds a `..`.
fn split_parent(glob: &str, path: Option<&str>) -> Option<(String, String)> {
    let parts: Vec<&str> = glob.split('/').collect();
    let literal = literal_components(&parts);
    if !parts[..literal].contains(&"..") {
        return None;
    }
    let leading = parts[..literal].join("/");
    let dir = match path {
        Some(path) => format!("{}/{leading}", path.trim_end_matches('/')),
        None => leading,
    };
    Some((dir, format!("/{}", parts[literal..].join("/"))))
}

/// How many leading components of a glob are literal (the last one always counts as a pattern).
fn literal_components(parts: &[&str]) -> usize {
    parts
        .iter()
        .position(|part| part.contains(['*', '?', '[', '{']))
        .unwrap_or(parts.len() - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search run in `cwd` with no path argument, its paths shown after `prefix`.
    fn run_in(cwd: &str, glob: &str, prefix: &str) -> Scope {
        Scope {
            cwd: cwd.into(),
            path: None,
            glob: Some(glob.into()),
            shown_prefix: prefix.into(),
            if_a_file: None,
        }
    }

    /// A search run as the model gave it.
    fn given(cwd: &str, path: Option<&str>, glob: Option<&str>) -> Scope {
        as_given(cwd, path.map(Into::into), glob.map(Into::into))
    }

    #[test]
    fn a_glob_with_a_slash_runs_in_the_directory_searched() {
        let in_sub = of("/ws", Some("sub"), Some("deep/*.rs"));
        assert_eq!(
            in_sub,
            Scope {
                if_a_file: Some(Box::new(given("/ws", Some("sub"), Some("deep/*.rs")))),
                ..run_in("/ws/sub", "deep/*.rs", "sub/")
            }
        );
        let in_abs = of("/ws/", Some("/abs/dir/"), Some("src/**/*.rs"));
        assert_eq!(
            in_abs,
            Scope {
                if_a_file: Some(Box::new(given("/ws/", Some("/abs/dir/"), Some("src/**/*.rs")))),
                ..run_in("/abs/dir/", "src/**/*.rs", "/abs/dir/")
            }
        );
    }

    #[test]
    fn a_glob_from_dot_or_dot_dot_runs_where_it_starts() {
        assert_eq!(of("/ws", None, Some("./src/*.rs")), of("/ws", None, Some("src/*.rs")));
        assert_eq!(
            of("/ws", Some("sub"), Some("./*.md")),
            of("/ws", Some("sub"), Some("*.md"))
        );
        assert_eq!(
            of("/ws/a", None, Some("../b/**/*.rs")),
            run_in("/ws/a/../b", "/**/*.rs", "../b/")
        );
        assert_eq!(
            of("/ws", Some("sub"), Some("../*.md")),
            run_in("/ws/sub/..", "/*.md", "sub/../")
        );
        assert_eq!(
            of("/ws", None, Some("src/../tests/*.rs")),
            run_in("/ws/src/../tests", "/*.rs", "src/../tests/")
        );
        assert_eq!(
            of("/ws", None, Some("a..b/*.rs")),
            given("/ws", None, Some("a..b/*.rs"))
        );
    }

    #[test]
    fn other_searches_run_as_given_in_the_session_directory() {
        assert_eq!(
            of("/ws", Some("sub"), Some("*.rs")),
            given("/ws", Some("sub"), Some("*.rs"))
        );
        assert_eq!(of("/ws", None, Some("src/*.rs")), given("/ws", None, Some("src/*.rs")));
        assert_eq!(of("/ws", Some("a.rs"), None), given("/ws", Some("a.rs"), None));
    }

    #[test]
    fn an_absolute_glob_searches_from_its_leading_directories() {
        assert_eq!(
            of("/ws", None, Some("/repo/src/**/*.rs")),
            run_in("/repo/src", "/**/*.rs", "/repo/src/")
        );
        assert_eq!(
            of("/ws", Some("other"), Some("/etc/*.conf")),
            run_in("/etc", "/*.conf", "/etc/")
        );
        assert_eq!(of("/ws", None, Some("/*.conf")), run_in("/", "/*.conf", "/"));
        assert_eq!(
            of("/ws", None, Some("/repo/README.md")),
            run_in("/repo", "/README.md", "/repo/")
        );
    }
}
