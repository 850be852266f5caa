//! The bubblewrap profile: the whole filesystem bound read-only, fresh /dev and /proc, its own
//! PID namespace and session, no capabilities, and under workspace-write a private /tmp plus writable binds of
//! the workspace and the writable roots, with the protected paths (git's hooks and config, the
//! host's cache) bound read-only on top.
//! The network is not unshared: the policy governs host paths, not sockets.

use super::{Kind, Protected};
use crate::scope::{Mode, Scope, is_under};

/// Whether the command gets a session of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Session {
    /// A new session: the command cannot push keystrokes into the caller's terminal (TIOCSTI).
    New,
    /// The caller's: a shell on a PTY of its own keeps it as its controlling terminal.
    Kept,
}

/// `bwrap <profile> --chdir <cwd> -- <argv>`. Told where to start, bwrap fails when it cannot;
/// left to itself it would start the command in $HOME, or in /, when the sandbox hides the
/// caller's directory.
pub fn argv(
    bwrap: &str,
    scope: &Scope,
    protected: &[Protected],
    session: Session,
    cwd: &str,
    command: &[String],
) -> Vec<String> {
    let mut argv = vec![bwrap.to_owned()];
    argv.extend(profile(scope, protected, session));
    argv.extend(["--chdir".to_owned(), cwd.to_owned()]);
    argv.push("--".to_owned());
    argv.extend(command.iter().cloned());
    argv
}

/// bwrap applies its arguments in order, each mount over the ones before: later ones win.
pub fn profile(scope: &Scope, protected: &[Protected], session: Session) -> Vec<String> {
    let mut args = Args::default();
    args.flag(&["--ro-bind", "/", "/"]);
    args.flag(&["--dev", "/dev", "--proc", "/proc"]);
    // The kernel's knobs in the fresh /proc are writable by uid 0 without any capability
    // (core_pattern runs a program as host root): kept read-only, as every other host file.
    args.flag(&["--ro-bind", "/proc/sys", "/proc/sys"]);
    for knob in ["/proc/sysrq-trigger", "/proc/irq", "/proc/bus"] {
        args.flag(&["--ro-bind-try", knob, knob]);
    }
    // Own PID namespace: the command cannot signal or ptrace host processes. Dies with its
    // parent.
    args.flag(&["--unshare-pid"]);
    if session == Session::New {
        args.flag(&["--new-session"]);
    }
    args.flag(&["--die-with-parent"]);
    // Run by root, bwrap would leave the command every capability, enough to remount `/`
    // read-write; unprivileged, it drops them anyway.
    args.flag(&["--cap-drop", "ALL"]);
    if scope.mode == Mode::WorkspaceWrite {
        // A private /tmp first, so that a workspace or root below /tmp is bound on top of it.
        args.flag(&["--tmpfs", "/tmp"]);
        for root in binds(scope) {
            args.flag(&["--bind", root, root]);
        }
        let dot_git = format!("{}/.git", scope.workspace.trim_end_matches('/'));
        // `.git` becomes a mount point of its own: a mount point cannot be renamed or removed,
        // so the read-only hooks and config below cannot be sidestepped by swapping `.git`.
        args.flag(&["--bind-try", &dot_git, &dot_git]);
        for path in protected.iter().filter(|p| exposed(scope, &p.path)) {
            match path.kind {
                Kind::Directory | Kind::File => args.flag(&["--ro-bind", &path.path, &path.path]),
                Kind::MissingDirectory => args.flag(&["--tmpfs", &path.path, "--remount-ro", &path.path]),
            }
        }
    }
    args.0
}

/// Whether the sandbox shows absolute `cwd`, by its path: all but what lies below the host's
/// /tmp, which under workspace-write is a private one showing only the binds below it. (A
/// symlink into the hidden part is caught by bwrap itself, at `--chdir`.)
pub fn shows(scope: &Scope, cwd: &str) -> bool {
    let Some(cwd) = seam_guest::paths::normalized(cwd) else {
        return false;
    };
    scope.mode == Mode::ReadOnly
        || cwd == "/tmp"
        || !is_under(&cwd, "/tmp")
        || binds(scope).iter().any(|root| is_under(&cwd, root))
}

/// The writable binds, shallowest first so that a root inside another is bound after it.
fn binds(scope: &Scope) -> Vec<&str> {
    let mut roots: Vec<&str> = scope.writable().into_iter().filter(|r| *r != "/tmp").collect();
    roots.sort_by_key(|root| root.matches('/').count());
    roots
}

/// A protected path needs its own read-only mount only where a writable bind exposes the host
/// file; elsewhere it is read-only already, or inside the private /tmp, which the host never sees.
fn exposed(scope: &Scope, path: &str) -> bool {
    binds(scope).iter().any(|root| is_under(path, root))
}

#[derive(Default)]
struct Args(Vec<String>);

impl Args {
    fn flag(&mut self, items: &[&str]) {
        self.0.extend(items.iter().map(|s| (*s).to_owned()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "--ro-bind / / --dev /dev --proc /proc --ro-bind /proc/sys /proc/sys \
        --ro-bind-try /proc/sysrq-trigger /proc/sysrq-trigger --ro-bind-try /proc/irq /proc/irq \
        --ro-bind-try /proc/bus /proc/bus --unshare-pid --new-session --die-with-parent --cap-drop ALL";

    fn scope(mode: Mode, workspace: &str, roots: &[&str]) -> Scope {
        let roots: Vec<String> = roots.iter().map(|r| r.to_string()).collect();
        Scope::new(mode, workspace, &roots).unwrap()
    }

    fn line(scope: &Scope, protected: &[Protected]) -> String {
        profile(scope, protected, Session::New).join(" ")
    }

    fn at(path: &str, kind: Kind) -> Protected {
        Protected {
            path: path.to_owned(),
            kind,
        }
    }

    #[test]
    fn read_only_binds_everything_read_only_and_nothing_writable() {
        let hooks = [at("/ws/.git/hooks", Kind::Directory)];
        assert_eq!(line(&scope(Mode::ReadOnly, "/ws", &["/tmp"]), &hooks), BASE);
    }

    #[test]
    fn workspace_write_binds_tmpfs_then_workspace_then_protections() {
        let protected = [at("/ws/.git/hooks", Kind::Directory), at("/ws/.git/config", Kind::File)];
        assert_eq!(
            line(&scope(Mode::WorkspaceWrite, "/ws", &["/tmp"]), &protected),
            format!(
                "{BASE} --tmpfs /tmp --bind /ws /ws --bind-try /ws/.git /ws/.git \
                 --ro-bind /ws/.git/hooks /ws/.git/hooks --ro-bind /ws/.git/config /ws/.git/config"
            )
        );
    }

    #[test]
    fn a_workspace_under_tmp_is_bound_after_the_private_tmp() {
        let args = profile(&scope(Mode::WorkspaceWrite, "/tmp/ws", &["/tmp"]), &[], Session::New);
        let tmpfs = args.iter().position(|a| a == "--tmpfs").unwrap();
        let bind = args.iter().position(|a| a == "--bind").unwrap();
        assert!(tmpfs < bind);
        assert_eq!(args[bind + 1], "/tmp/ws");
    }

    #[test]
    fn nested_roots_are_bound_outermost_first() {
        let args = line(
            &scope(Mode::WorkspaceWrite, "/data/ws", &["/data", "/data/ws/cache"]),
            &[],
        );
        assert!(
            args.contains("--bind /data /data --bind /data/ws /data/ws --bind /data/ws/cache /data/ws/cache"),
            "{args}"
        );
    }

    #[test]
    fn missing_hooks_get_an_empty_read_only_mount() {
        let args = line(
            &scope(Mode::WorkspaceWrite, "/ws", &[]),
            &[at("/ws/.git/hooks", Kind::MissingDirectory)],
        );
        assert!(
            args.ends_with("--tmpfs /ws/.git/hooks --remount-ro /ws/.git/hooks"),
            "{args}"
        );
    }

    #[test]
    fn a_worktree_protects_its_git_file_and_the_hooks_it_points_to_when_writable() {
        let protected = [
            at("/wt/.git", Kind::File),
            at("/repo/.git/hooks", Kind::Directory),
            at("/repo/.git/config", Kind::File),
        ];
        // The main repository is writable here, so its hooks and config need read-only mounts.
        let writable = line(&scope(Mode::WorkspaceWrite, "/wt", &["/repo"]), &protected);
        assert!(writable.contains("--ro-bind /wt/.git /wt/.git"), "{writable}");
        assert!(
            writable.contains("--ro-bind /repo/.git/hooks /repo/.git/hooks"),
            "{writable}"
        );
        // Not writable: read-only already, no mount needed.
        let elsewhere = line(&scope(Mode::WorkspaceWrite, "/wt", &[]), &protected);
        assert!(!elsewhere.contains("/repo"), "{elsewhere}");
    }

    #[test]
    fn protected_paths_inside_the_private_tmp_need_no_mount() {
        let args = line(
            &scope(Mode::WorkspaceWrite, "/ws", &["/tmp"]),
            &[at("/tmp/repo/.git/hooks", Kind::Directory)],
        );
        assert!(!args.contains("/tmp/repo"), "{args}");
    }

    #[test]
    fn the_command_follows_the_separator_unchanged() {
        let command = ["bash".to_owned(), "-c".to_owned(), "echo 'a -- b'".to_owned()];
        let argv = argv(
            "/usr/bin/bwrap",
            &scope(Mode::ReadOnly, "/ws", &[]),
            &[],
            Session::New,
            "/ws/src",
            &command,
        );
        assert_eq!(argv[0], "/usr/bin/bwrap");
        let separator = argv.iter().position(|a| a == "--").unwrap();
        assert_eq!(argv[separator - 2..separator], ["--chdir", "/ws/src"]);
        assert_eq!(argv[separator + 1..], command);
    }

    #[test]
    fn only_what_the_private_tmp_hides_is_not_shown() {
        let writable = scope(Mode::WorkspaceWrite, "/tmp/ws", &["/tmp", "/tmp/cache"]);
        for shown in [
            "/",
            "/home/ada",
            "/tmp",
            "/tmp/ws",
            "/tmp/ws/src",
            "/tmp/cache/x",
            "/tmpfoo",
        ] {
            assert!(shows(&writable, shown), "{shown}");
        }
        for hidden in ["/tmp/other", "/tmp/wsx", "/tmp/ws/../other", "relative"] {
            assert!(!shows(&writable, hidden), "{hidden}");
        }
        assert!(shows(&scope(Mode::ReadOnly, "/tmp/ws", &[]), "/tmp/other"));
    }

    #[test]
    fn a_terminal_keeps_its_session_and_nothing_else_changes() {
        let scope = scope(Mode::WorkspaceWrite, "/ws", &["/tmp"]);
        let terminal = profile(&scope, &[], Session::Kept).join(" ");
        assert_eq!(terminal, line(&scope, &[]).replace(" --new-session", ""));
        assert!(!terminal.contains("--new-session"));
    }
}
