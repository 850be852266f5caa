//! What is there instead of a file that is not: names in its directory a case, an extension
//! or a typo away from the one asked for, or else the deepest directory on its path that
//! exists. A model that got a path slightly wrong fixes it without listing directories first.

use crate::bindings::seam::fs::fs;
use crate::bindings::seam::fs::types::{FileKind, Target};

/// Names offered at most.
const OFFERED: usize = 3;
/// Entries of a directory compared at most: in a huge one a guess is no help.
const COMPARED: usize = 10_000;

/// One line for the model, or None when nothing near was found.
pub fn hint(target: &Target) -> Option<String> {
    let path = target.display_path.as_str();
    let (found, missing) = deepest_directory(path)?;
    let near = similar(found, missing).join(", ");
    let gone = join(found, missing);
    match (gone == path, near.is_empty()) {
        (true, true) => None,
        (true, false) => Some(format!("Similar names there: {near}")),
        (false, true) => Some(format!(
            "There is no directory {gone}; the deepest directory on that path is {found}"
        )),
        (false, false) => Some(format!(
            "There is no directory {gone}; similar names in {found}: {near}"
        )),
    }
}

/// The paths in `dir` whose names are nearest `name` (a directory's with a trailing `/`).
fn similar(dir: &str, name: &str) -> Vec<String> {
    let Ok(entries) = fs::resolve(dir, "/").and_then(|at| fs::list_dir(&at)) else {
        return Vec::new();
    };
    let names = entries.into_iter().take(COMPARED).map(|entry| match entry.kind {
        FileKind::Dir => format!("{}/", entry.name),
        _ => entry.name,
    });
    closest(name, names).iter().map(|near| join(dir, near)).collect()
}

/// The deepest directory among the ancestors of the absolute `path`, with the name on the
/// path that follows it.
fn deepest_directory(path: &str) -> Option<(&str, &str)> {
    let mut rest = path;
    while let Some((parent, name)) = rest.rsplit_once('/') {
        let parent = if parent.is_empty() { "/" } else { parent };
        let is_dir = fs::resolve(parent, "/")
            .and_then(|at| fs::stat(&at))
            .is_ok_and(|meta| meta.kind == FileKind::Dir);
        if is_dir {
            return Some((parent, name));
        }
        if parent == "/" {
            return None;
        }
        rest = parent;
    }
    None
}

fn join(dir: &str, name: &str) -> String {
    format!("{}/{name}", dir.trim_end_matches('/'))
}

/// The names nearest `asked`, nearest first: the same but for case, then the same stem with
/// another extension, then within a typo or two (one for short names).
fn closest(asked: &str, names: impl Iterator<Item = String>) -> Vec<String> {
    let asked_lower = asked.to_lowercase();
    let mut scored: Vec<(usize, String)> = names
        .filter_map(|name| {
            let lower = name.trim_end_matches('/').to_lowercase();
            let score = if lower == asked_lower {
                0
            } else if !stem(&lower).is_empty() && stem(&lower) == stem(&asked_lower) {
                1
            } else {
                let bound = if asked_lower.chars().count() < 5 { 1 } else { 2 };
                1 + typos(&asked_lower, &lower, bound)?
            };
            Some((score, name))
        })
        .collect();
    scored.sort();
    scored.into_iter().take(OFFERED).map(|(_, name)| name).collect()
}

/// A name without its last extension.
fn stem(name: &str) -> &str {
    name.rsplit_once('.').map_or(name, |(stem, _)| stem)
}

/// The edit distance between `a` and `b` in characters, when it is at most `bound`.
fn typos(a: &str, b: &str, bound: usize) -> Option<usize> {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > bound {
        return None;
    }
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substituted = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substituted.min(row[j] + 1).min(diagonal + 1);
        }
    }
    let distance = row[b.len()];
    (distance <= bound).then_some(distance)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn near(asked: &str, names: &[&str]) -> Vec<String> {
        closest(asked, names.iter().map(|n| (*n).to_owned()))
    }

    #[test]
    fn case_then_extension_then_typos() {
        let names = [
            "readme.md",
            "README.txt",
            "lib.rs",
            "src/",
            "Cargo.toml",
            "READMEE.md",
            "other",
        ];
        assert_eq!(near("README.md", &names), ["readme.md", "README.txt", "READMEE.md"]);
        assert_eq!(near("lib.ts", &names), ["lib.rs"]);
        assert_eq!(near("cargo.tml", &names), ["Cargo.toml"]);
        assert_eq!(near("srcs", &names), ["src/"]);
        assert!(near("main.rs", &names).is_empty());
    }

    #[test]
    fn short_names_allow_one_typo() {
        assert_eq!(near("ab", &["ac", "xy"]), ["ac"]);
        assert!(near("ab.c", &["xy.c"]).is_empty());
    }

    #[test]
    fn typos_count_characters() {
        assert_eq!(typos("kitten", "sitting", 3), Some(3));
        assert_eq!(typos("kitten", "sitting", 2), None);
        assert_eq!(typos("héllo", "hello", 1), Some(1));
        assert_eq!(typos("", "ab", 2), Some(2));
    }
}
