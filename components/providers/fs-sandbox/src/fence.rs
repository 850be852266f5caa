//! The fence: which mutations a policy allows, judged on the target as it resolves right now.
//! It narrows, but cannot close, the window in which an ancestor could be swapped for a
//! symlink between this check and the write; the host's publish refuses a parent that is no
//! longer canonical, which covers the rest for fs-local. Threat model: trusted code writing to
//! model-chosen paths, not a kernel boundary.

use crate::bindings::seam::fs::fs as inner;
use crate::bindings::seam::fs::types::{Error, Target};
use crate::bindings::seam::host::sandbox_launch as launch;
use crate::bindings::seam::sandbox::types::{Mode, Policy};
use crate::policy::mode_name;
use seam_guest::paths::is_under;

pub const SANDBOX_DENIED: &str = "FS_SANDBOX_DENIED";

/// The target to mutate (re-resolved under workspace-write), or FS_SANDBOX_DENIED.
pub fn check(target: &Target, policy: &Policy) -> Result<Target, Error> {
    match policy.mode {
        Mode::DangerFullAccess => Ok(target.clone()),
        Mode::ReadOnly => Err(denied(target, policy, "nothing may be written")),
        Mode::WorkspaceWrite => {
            // Re-canonicalized now: a symlink swapped in since the caller resolved is seen.
            let fresh = inner::resolve(&target.display_path, "/")?;
            let roots = std::iter::once(&policy.workspace_root).chain(&policy.writable_roots);
            for root in roots {
                if let Ok(root) = inner::resolve(root, "/")
                    && inner::contains(&root, &fresh)
                {
                    if let Some(why) = protected(&fresh.key, &policy.workspace_root) {
                        return Err(denied(&fresh, policy, &why));
                    }
                    return Ok(fresh);
                }
            }
            Err(denied(
                &fresh,
                policy,
                &format!(
                    "only the workspace {} and {} are writable",
                    policy.workspace_root,
                    if policy.writable_roots.is_empty() {
                        "no other root".to_owned()
                    } else {
                        policy.writable_roots.join(", ")
                    }
                ),
            ))
        }
    }
}

/// Why `key` (a canonical path) stays read-only, when it does: writing there could make
/// something run later, outside the sandbox. Anything in any repository's `.git` (hooks and config, but also `commondir`,
/// `config.worktree`, a submodule's hooks, `info/attributes`, object alternates all steer git;
/// the file tools have no business there, git itself writes it), a `.git` file (it points git
/// at another directory), or what the host names: what the workspace's git runs from
/// (`core.hooksPath`, a worktree's repository) and the host's own cache.
fn protected(key: &str, workspace_root: &str) -> Option<String> {
    if key.split('/').any(|part| part == ".git") {
        return Some(
            "git's own files (hooks, config, everything in .git) stay read-only: git runs what \
             they name later, outside any sandbox"
                .to_owned(),
        );
    }
    launch::protected_paths(workspace_root)
        .into_iter()
        .find(|protected| is_under(key, &protected.path))
        .map(|protected| protected.why)
}

fn denied(target: &Target, policy: &Policy, why: &str) -> Error {
    // Through a symlink the path shown is not the one judged: say where it leads.
    let leads = if target.key != target.display_path && target.key.starts_with('/') {
        format!(" (it leads to {})", target.key)
    } else {
        String::new()
    };
    Error {
        code: SANDBOX_DENIED.to_owned(),
        message: format!(
            "writing {}{leads} is denied under the {} sandbox: {why}",
            target.display_path,
            mode_name(policy.mode)
        ),
    }
}
