//! A call's policy, checked and reduced to the plain values every profile is built from.

/// The confinable modes (danger-full-access is never confined: the caller spawns the raw argv).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    ReadOnly,
    WorkspaceWrite,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scope {
    pub mode: Mode,
    pub workspace: String,
    /// Writable besides the workspace under workspace-write; empty under read-only.
    pub writable_roots: Vec<String>,
}

impl Scope {
    /// Roots must be absolute and canonical: profiles name them to the kernel as they are, and
    /// a `..` or a doubled slash would make the profile say something other than the policy.
    pub fn new(mode: Mode, workspace: &str, writable_roots: &[String]) -> Result<Self, String> {
        check_root(workspace, "workspace root")?;
        let mut roots: Vec<String> = Vec::new();
        if mode == Mode::WorkspaceWrite {
            for root in writable_roots {
                check_root(root, "writable root")?;
                if root != workspace && !roots.contains(root) {
                    roots.push(root.clone());
                }
            }
        }
        Ok(Self {
            mode,
            workspace: workspace.to_owned(),
            writable_roots: roots,
        })
    }

    /// Every root written to under this scope: the workspace, then the writable roots.
    pub fn writable(&self) -> Vec<&str> {
        match self.mode {
            Mode::ReadOnly => Vec::new(),
            Mode::WorkspaceWrite => std::iter::once(self.workspace.as_str())
                .chain(self.writable_roots.iter().map(String::as_str))
                .collect(),
        }
    }
}

fn check_root(path: &str, what: &str) -> Result<(), String> {
    if is_canonical_absolute(path) {
        Ok(())
    } else {
        Err(format!(
            "the {what} {path:?} is not an absolute canonical path (no `.`, `..`, `//` or trailing `/`)"
        ))
    }
}

pub fn is_canonical_absolute(path: &str) -> bool {
    if path == "/" {
        return true;
    }
    path.starts_with('/') && !path.contains('\0') && path[1..].split('/').all(|part| !matches!(part, "" | "." | ".."))
}

pub use seam_guest::paths::is_under;

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn canonical_paths_only() {
        for good in ["/", "/tmp", "/a/b.c/d"] {
            assert!(is_canonical_absolute(good), "{good}");
        }
        for bad in [
            "", "tmp", "/tmp/", "//tmp", "/a/./b", "/a/../b", "/a//b", "/..", "/a\0b",
        ] {
            assert!(!is_canonical_absolute(bad), "{bad:?}");
        }
    }

    #[test]
    fn read_only_writes_nowhere() {
        let scope = Scope::new(Mode::ReadOnly, "/ws", &strings(&["/tmp"])).unwrap();
        assert!(scope.writable().is_empty());
    }

    #[test]
    fn workspace_write_lists_the_workspace_then_distinct_roots() {
        let scope = Scope::new(Mode::WorkspaceWrite, "/ws", &strings(&["/tmp", "/ws", "/tmp"])).unwrap();
        assert_eq!(scope.writable(), ["/ws", "/tmp"]);
    }

    #[test]
    fn non_canonical_roots_are_refused() {
        assert!(Scope::new(Mode::ReadOnly, "ws", &[]).is_err());
        assert!(Scope::new(Mode::WorkspaceWrite, "/ws", &strings(&["/tmp/../etc"])).is_err());
    }

    #[test]
    fn under_is_component_wise() {
        assert!(is_under("/a/b/c", "/a/b"));
        assert!(is_under("/a/b", "/a/b"));
        assert!(is_under("/x", "/"));
        assert!(!is_under("/a/bc", "/a/b"));
    }
}
