//! The glob a search is narrowed to, matched here rather than by ripgrep's `--glob`: a
//! `--glob` overrides every ignore rule, so `*.rs` would list git-ignored and hidden files (and
//! `*` the whole of `.git`). ripgrep still walks the tree with its ignore rules, narrowed by a
//! file type made of the glob's last part when it can be one (types never override ignore
//! files), and each path it reports is matched against the whole glob here.
//!
//! The syntax is gitignore's, as `--glob`'s was: a glob without a slash matches a file's name
//! at any depth; one with a slash matches the path below the searched directory, `*` never
//! crossing a `/`; a leading `!` leaves out the files the rest matches. Hidden files and directories are skipped unless the glob names one (a part
//! starting with `.`, as in `.github/**/*.yml`).

use globset::{GlobBuilder, GlobMatcher};

pub struct PathGlob {
    matcher: GlobMatcher,
    /// `!glob`: the files it matches are the ones left out.
    negated: bool,
    /// Matched against the whole path below the searched directory, not the file's name.
    anchored: bool,
    /// The glob names a hidden part: ripgrep walks hidden entries too.
    hidden: bool,
    /// ripgrep's type filter: the glob's last part, when a type can say it.
    name_filter: Option<String>,
}

impl PathGlob {
    /// SEARCH_INVALID_PATTERN-worthy message when `glob` does not parse.
    pub fn new(glob: &str) -> Result<Self, String> {
        let (negated, positive) = match glob.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, glob),
        };
        let relative = positive.strip_prefix('/').unwrap_or(positive);
        // Leading `..`s were taken into the directory searched (`scope`); one after a wildcard
        // would have to match a name, and no name found in a walk is `..`.
        if relative.split('/').any(|part| part == "..") {
            return Err(format!(
                "`..` in glob {glob:?} comes after a wildcard, where it matches nothing: name the directory \
                 without it (`src/*/../lib.rs` is `src/lib.rs`), or search that directory with `path`"
            ));
        }
        let anchored = relative.len() != positive.len() || relative.trim_end_matches('/').contains('/');
        let matcher = GlobBuilder::new(relative)
            .literal_separator(true)
            .backslash_escape(true)
            .build()
            .map_err(|e| format!("error parsing glob {glob:?}: {}", e.kind()))?
            .compile_matcher();
        let last = relative.rsplit('/').next().unwrap_or(relative);
        Ok(Self {
            matcher,
            negated,
            anchored,
            hidden: !negated && relative.split('/').any(|part| part.starts_with('.')),
            // A type can only say which files to keep.
            name_filter: (!negated && usable_as_type(last)).then(|| last.to_owned()),
        })
    }

    /// ripgrep flags that narrow its walk without overriding its ignore rules.
    pub fn rg_flags(&self) -> Vec<String> {
        let mut flags = Vec::new();
        if self.hidden {
            flags.push("--hidden".to_owned());
        }
        if let Some(name) = &self.name_filter {
            flags.extend(["--type-add".to_owned(), format!("seamglob:{name}")]);
            flags.extend(["--type".to_owned(), "seamglob".to_owned()]);
        }
        flags
    }

    /// Whether `reported`, a path as ripgrep printed it, matches. `searched` is the path ripgrep
    /// was given (none: its working directory): its own parts are not judged, and a file given
    /// as the path is searched whatever the glob, as ripgrep searches it.
    pub fn admits(&self, reported: &str, searched: Option<&str>) -> bool {
        if searched == Some(reported) {
            return true;
        }
        let below = searched
            .and_then(|dir| reported.strip_prefix(dir.trim_end_matches('/')))
            .and_then(|rest| rest.strip_prefix('/'))
            .unwrap_or(reported);
        let below = below.strip_prefix("./").unwrap_or(below);
        // A file type whitelists hidden files in the directories walked: judge them here.
        if !self.hidden && below.split('/').any(|part| part.starts_with('.')) {
            return false;
        }
        let matched = if self.anchored {
            self.matcher.is_match(below)
        } else {
            self.matcher.is_match(below.rsplit('/').next().unwrap_or(below))
        };
        matched != self.negated
    }
}

/// A type definition is `name:glob`, split at commas outside braces: a glob part with a colon
/// or such a comma, or one that can match across directories, is matched here alone.
fn usable_as_type(part: &str) -> bool {
    let mut depth = 0u32;
    for c in part.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => return false,
            ':' | '\\' => return false,
            _ => {}
        }
    }
    !part.is_empty() && !part.contains("**")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glob(g: &str) -> PathGlob {
        PathGlob::new(g).expect("a valid glob")
    }

    #[test]
    fn a_parent_after_a_wildcard_is_refused_not_left_to_match_nothing() {
        for g in ["src/*/../lib.rs", "**/../*.rs", "!a/*/../b"] {
            let refused = PathGlob::new(g).err().unwrap_or_default();
            assert!(refused.contains("comes after a wildcard"), "{g}: {refused}");
        }
        assert!(
            PathGlob::new("src/..x/*.rs").is_ok(),
            "a name starting with dots is a name"
        );
    }

    #[test]
    fn a_negated_glob_leaves_out_what_it_matches() {
        let not_rs = glob("!*.rs");
        assert!(!not_rs.admits("src/lib.rs", None));
        assert!(not_rs.admits("src/app.ts", None));
        assert!(not_rs.rg_flags().is_empty(), "no type filter keeps only .rs files");
        let not_tests = glob("!tests/**");
        assert!(!not_tests.admits("tests/a.rs", None));
        assert!(not_tests.admits("src/a.rs", None));
    }

    #[test]
    fn a_glob_without_a_slash_matches_names_at_any_depth() {
        let rs = glob("*.rs");
        assert!(rs.admits("main.rs", None));
        assert!(rs.admits("src/deep/lib.rs", None));
        assert!(rs.admits("src/lib.rs", Some("src")));
        assert!(!rs.admits("src/lib.rsx", None));
        assert_eq!(rs.rg_flags(), ["--type-add", "seamglob:*.rs", "--type", "seamglob"]);
    }

    #[test]
    fn a_glob_with_a_slash_matches_the_path_below_the_searched_directory() {
        let nested = glob("src/**/*.ts");
        assert!(nested.admits("src/a.ts", None));
        assert!(nested.admits("src/x/y/a.ts", None));
        assert!(!nested.admits("lib/src/a.ts", None));
        let one_level = glob("src/*.ts");
        assert!(one_level.admits("./src/a.ts", None));
        assert!(!one_level.admits("src/x/a.ts", None), "* does not cross a slash");
        let rooted = glob("/**/*.rs");
        assert!(rooted.admits("a/b.rs", None));
        assert!(glob("**").name_filter.is_none());
    }

    #[test]
    fn hidden_parts_are_skipped_unless_the_glob_names_one() {
        let all = glob("*");
        assert!(!all.admits(".env", None));
        assert!(!all.admits(".git/HEAD", None));
        assert!(!all.admits("src/.cache/x", None));
        // The searched directory itself may be hidden.
        assert!(all.admits(".config/app/settings", Some(".config")));
        let workflows = glob(".github/**/*.yml");
        assert!(workflows.admits(".github/workflows/ci.yml", None));
        assert!(workflows.rg_flags().contains(&"--hidden".to_owned()));
        assert!(glob(".env*").admits("app/.env.local", None));
    }

    #[test]
    fn a_file_given_as_the_path_is_searched_whatever_the_glob() {
        assert!(glob("*.py").admits("src/main.rs", Some("src/main.rs")));
    }

    #[test]
    fn only_globs_a_type_can_say_become_one() {
        assert_eq!(
            glob("*.{ts,tsx}").rg_flags(),
            ["--type-add", "seamglob:*.{ts,tsx}", "--type", "seamglob"]
        );
        for whole in ["a:b.rs", "*.rs,*.ts", "src/**", "x\\*"] {
            assert!(glob(whole).name_filter.is_none(), "{whole}");
        }
    }

    #[test]
    fn a_bad_glob_is_refused() {
        assert!(PathGlob::new("src/[a").is_err());
    }
}
