//! The Windows restricted-token profile: the command runs with a write-restricted token whose
//! restricting SIDs include one capability per writable root, and each root grants write to
//! its capability; git's hooks and config inside a root are denied to it. The workspace's
//! capability is derived from its canonical path (stable, so its ACE is written once per
//! workspace). Untested on this platform: the seam host runs on Linux.

use super::Protected;
use crate::scope::{Scope, is_under};

/// Token restrictions: no admin privileges, a LUA token, writes only where a restricting SID
/// is granted.
pub const TOKEN_FLAGS: [&str; 3] = ["DISABLE_MAX_PRIVILEGE", "LUA_TOKEN", "WRITE_RESTRICTED"];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grant {
    pub path: String,
    /// The capability name the runner derives the SID from.
    pub capability: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AclProfile {
    pub grants: Vec<Grant>,
    /// Inside a granted root, denied to every capability.
    pub denied: Vec<String>,
}

pub fn profile(scope: &Scope, protected: &[Protected]) -> AclProfile {
    let writable = scope.writable();
    AclProfile {
        grants: writable
            .iter()
            .map(|root| Grant {
                path: (*root).to_owned(),
                capability: capability(root),
            })
            .collect(),
        denied: protected
            .iter()
            .filter(|p| writable.iter().any(|root| is_under(&p.path, root)))
            .map(|p| p.path.clone())
            .collect(),
    }
}

/// `<runner> --flag F... --grant CAP=PATH... --deny PATH... -- <argv>`.
pub fn argv(runner: &str, profile: &AclProfile, command: &[String]) -> Vec<String> {
    let mut argv = vec![runner.to_owned()];
    for flag in TOKEN_FLAGS {
        argv.extend(["--flag".to_owned(), flag.to_owned()]);
    }
    for grant in &profile.grants {
        argv.extend(["--grant".to_owned(), format!("{}={}", grant.capability, grant.path)]);
    }
    for path in &profile.denied {
        argv.extend(["--deny".to_owned(), path.clone()]);
    }
    argv.push("--".to_owned());
    argv.extend(command.iter().cloned());
    argv
}

/// `seam-write-<FNV-1a 64 of the case-folded path>`: NTFS paths compare case-insensitively, so
/// two spellings of one root get one capability.
fn capability(path: &str) -> String {
    let hash = path
        .to_lowercase()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        });
    format!("seam-write-{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::Kind;
    use crate::scope::Mode;

    #[test]
    fn read_only_grants_nothing() {
        let scope = Scope::new(Mode::ReadOnly, "/ws", &[]).unwrap();
        assert_eq!(
            profile(&scope, &[]),
            AclProfile {
                grants: vec![],
                denied: vec![]
            }
        );
    }

    #[test]
    fn workspace_write_grants_each_root_its_capability_and_denies_protected_paths() {
        let scope = Scope::new(Mode::WorkspaceWrite, "/Work/Repo", &["/tmp".into()]).unwrap();
        let protected = [Protected {
            path: "/Work/Repo/.git/hooks".into(),
            kind: Kind::Directory,
        }];
        let acl = profile(&scope, &protected);
        assert_eq!(acl.grants.len(), 2);
        assert_eq!(acl.grants[0].capability, capability("/work/repo"));
        assert_ne!(acl.grants[0].capability, acl.grants[1].capability);
        assert_eq!(acl.denied, ["/Work/Repo/.git/hooks"]);
        let argv = argv("runner.exe", &acl, &["cmd".into()]);
        assert_eq!(&argv[..3], ["runner.exe", "--flag", "DISABLE_MAX_PRIVILEGE"]);
        assert!(argv.contains(&format!("{}=/Work/Repo", acl.grants[0].capability)));
        assert_eq!(argv[argv.len() - 2..], ["--", "cmd"]);
    }

    #[test]
    fn the_capability_is_a_stable_function_of_the_path() {
        // FNV-1a 64 of the empty input is its offset basis.
        assert_eq!(capability(""), "seam-write-cbf29ce484222325");
        assert_eq!(capability("/A"), capability("/a"));
    }
}
