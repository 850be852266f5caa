//! The git metadata of a checkout that runs code when git later runs outside the sandbox:
//! hooks, and the config that can point git at other hooks (`core.hooksPath`) or commands. A
//! command confined to a writable workspace must not be able to plant either.

use super::protected::{Kind, Protected};
use std::path::{Component, Path, PathBuf};

const WHY: &str = "git's own files (hooks, config) stay read-only: git runs what they name later, outside any sandbox";

fn protected(path: PathBuf, kind: Kind) -> Protected {
    Protected { path, kind, why: WHY }
}

/// What to keep read-only for the checkout at `root` (empty when `root/.git` does not exist).
/// An absent config file is left out: it cannot be kept from being created without creating it.
/// In a worktree, `root/.git` is a file naming the worktree's git dir; its hooks and config
/// live in the common dir of the main repository, which `commondir` names.
pub fn protected_paths(root: &Path) -> Vec<Protected> {
    let mut found = Vec::new();
    // A relative root would be read against the host's working directory.
    if !root.is_absolute() {
        return found;
    }
    let dot_git = root.join(".git");
    let common = match kind(&dot_git) {
        None => return found,
        Some(Kind::Directory) => dot_git,
        Some(_) => {
            found.push(protected(dot_git.clone(), Kind::File));
            let Some(git_dir) = gitdir_of(&dot_git, root) else {
                return found;
            };
            common_dir(&git_dir)
        }
    };
    let config = common.join("config");
    let hooks = hooks_path(&config, root).unwrap_or_else(|| common.join("hooks"));
    found.push(protected(hooks.clone(), kind(&hooks).unwrap_or(Kind::MissingDirectory)));
    if let Some(kind) = kind(&config) {
        found.push(protected(config, kind));
    }
    found
}

/// Without following a final symlink: a symlinked hooks dir is protected as the link itself.
fn kind(path: &Path) -> Option<Kind> {
    let metadata = std::fs::symlink_metadata(path).ok()?;
    Some(if metadata.is_dir() { Kind::Directory } else { Kind::File })
}

/// The `gitdir: <path>` line of a `.git` file, relative paths taken from the checkout root.
fn gitdir_of(dot_git: &Path, root: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(dot_git).ok()?;
    let line = text.lines().find_map(|l| l.strip_prefix("gitdir:"))?.trim();
    (!line.is_empty()).then(|| normalize(&root.join(line)))
}

/// A worktree's git dir names the main repository's in `commondir` (usually `../..`).
fn common_dir(git_dir: &Path) -> PathBuf {
    match std::fs::read_to_string(git_dir.join("commondir")) {
        Ok(text) if !text.trim().is_empty() => normalize(&git_dir.join(text.trim())),
        _ => git_dir.to_path_buf(),
    }
}

/// `core.hooksPath` from a config file: a hooks dir of the user's choice (husky puts it in
/// the working tree). Relative values are taken from the checkout root, as git does for a
/// non-bare repository. Includes and `~` are not followed.
fn hooks_path(config: &Path, root: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(config).ok()?;
    let mut in_core = false;
    let mut found = None;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            let section = line.trim_start_matches('[').split([']', ' ', '"']).next().unwrap_or("");
            in_core = section.eq_ignore_ascii_case("core") && !line.contains('"');
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        if in_core && key.trim().eq_ignore_ascii_case("hookspath") {
            let value = value.split(['#', ';']).next().unwrap_or("").trim().trim_matches('"');
            // The last setting wins, as in git.
            found = (!value.is_empty() && !value.starts_with('~')).then(|| normalize(&root.join(value)));
        }
    }
    found
}

/// Lexical normalization (`.` and `..` folded) of an absolute path.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::from("/");
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(part) => out.push(part),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canonical_tempdir() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = std::fs::canonicalize(dir.path()).unwrap();
        (dir, path)
    }

    fn entry(path: PathBuf, kind: Kind) -> Protected {
        protected(path, kind)
    }

    #[test]
    fn a_plain_directory_has_nothing_to_protect() {
        let (_dir, root) = canonical_tempdir();
        assert_eq!(protected_paths(&root), vec![]);
    }

    #[test]
    fn a_repository_protects_hooks_and_config_even_when_hooks_is_missing() {
        let (_dir, root) = canonical_tempdir();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::write(root.join(".git/config"), "[core]\n\tbare = false\n").unwrap();
        assert_eq!(
            protected_paths(&root),
            vec![
                entry(root.join(".git/hooks"), Kind::MissingDirectory),
                entry(root.join(".git/config"), Kind::File),
            ]
        );
    }

    #[test]
    fn a_worktree_protects_its_git_file_and_the_main_repositorys_metadata() {
        let (_dir, base) = canonical_tempdir();
        let main = base.join("main");
        let git_dir = main.join(".git/worktrees/wt");
        std::fs::create_dir_all(&git_dir).unwrap();
        std::fs::create_dir_all(main.join(".git/hooks")).unwrap();
        std::fs::write(main.join(".git/config"), "").unwrap();
        std::fs::write(git_dir.join("commondir"), "../..\n").unwrap();
        let worktree = base.join("wt");
        std::fs::create_dir(&worktree).unwrap();
        std::fs::write(worktree.join(".git"), "gitdir: ../main/.git/worktrees/wt\n").unwrap();
        assert_eq!(
            protected_paths(&worktree),
            vec![
                entry(worktree.join(".git"), Kind::File),
                entry(main.join(".git/hooks"), Kind::Directory),
                entry(main.join(".git/config"), Kind::File),
            ]
        );
    }

    #[test]
    fn core_hooks_path_replaces_the_default_hooks_dir() {
        let (_dir, root) = canonical_tempdir();
        std::fs::create_dir_all(root.join(".husky")).unwrap();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        let config = "[core]\n\tbare = false\n[remote \"core\"]\n\thooksPath = /elsewhere\n\
                      [Core]\n\tHooksPath = \".husky\" # set by husky\n";
        std::fs::write(root.join(".git/config"), config).unwrap();
        assert_eq!(protected_paths(&root)[0], entry(root.join(".husky"), Kind::Directory));
    }
}
