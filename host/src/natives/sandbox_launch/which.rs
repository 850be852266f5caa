//! Executable lookup on a PATH value, the way a shell finds a bare command name.

use std::path::{Path, PathBuf};

/// The first executable regular file `name` in the absolute directories of `path_var`.
/// Relative and empty entries are skipped: they would depend on the working directory.
pub fn which(name: &str, path_var: Option<&str>) -> Option<PathBuf> {
    if name.is_empty() || name.contains('/') {
        return None;
    }
    path_var?
        .split(':')
        .filter(|dir| dir.starts_with('/'))
        .map(|dir| Path::new(dir).join(name))
        .find(|candidate| is_executable_file(candidate))
}

/// A regular file this process may execute.
pub fn is_executable_file(path: &Path) -> bool {
    nix::unistd::access(path, nix::unistd::AccessFlags::X_OK).is_ok()
        && std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// `PATH` of an environment given as pairs.
pub fn path_of(environment: &[(String, String)]) -> Option<&str> {
    environment
        .iter()
        .find(|(name, _)| name == "PATH")
        .map(|(_, value)| value.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn finds_the_first_match_in_path_order() {
        let dir = tempfile::tempdir().unwrap();
        let (first, second) = (dir.path().join("a"), dir.path().join("b"));
        for d in [&first, &second] {
            std::fs::create_dir(d).unwrap();
            let tool = d.join("tool");
            std::fs::write(&tool, "#!/bin/sh\n").unwrap();
            std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let path = format!("relative:{}:{}", first.display(), second.display());
        assert_eq!(which("tool", Some(&path)), Some(first.join("tool")));
    }

    #[test]
    fn skips_non_executables_directories_and_slashes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("plain"), "").unwrap();
        std::fs::create_dir(dir.path().join("folder")).unwrap();
        let path = dir.path().display().to_string();
        assert_eq!(which("plain", Some(&path)), None);
        assert_eq!(which("folder", Some(&path)), None);
        assert_eq!(which("bin/sh", Some("/usr")), None);
        assert_eq!(which("", Some("/bin")), None);
        assert_eq!(which("sh", None), None);
    }
}
