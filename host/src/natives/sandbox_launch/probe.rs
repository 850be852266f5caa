//! Bounded functional probes: run `true` under a runner's read-only profile and require a
//! clean exit within the timeout. A runner that is installed but cannot work here (no user
//! namespaces, Landlock disabled, a seccomp policy in a container) fails its probe instead of
//! failing the first real command.

use super::landlock::{self, Rules};
use super::{Enforcement, which};
use std::ffi::OsString;
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// The read-only profile bwrap is probed with (the provider builds the real profiles).
const BWRAP_READ_ONLY: [&str; 12] = [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--unshare-pid",
    "--new-session",
    "--die-with-parent",
    "--cap-drop",
    "ALL",
];

/// How much of a failed probe's stderr is kept in the verdict.
const DETAIL_BYTES: usize = 2048;
const POLL: Duration = Duration::from_millis(1);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub usable: bool,
    pub enforcement: Enforcement,
    /// The binary and ABI found, or why the runner is unusable.
    pub detail: String,
}

impl Verdict {
    fn unusable(detail: impl Into<String>) -> Self {
        Self {
            usable: false,
            enforcement: Enforcement::Partial,
            detail: detail.into(),
        }
    }
}

/// bwrap from the host's PATH (`path_var`), running `true` with its read-only profile.
pub fn bwrap(path_var: Option<&str>, timeout: Duration) -> Verdict {
    let Some(bwrap) = which::which("bwrap", path_var) else {
        return Verdict::unusable(format!(
            "bwrap is not on the host PATH ({})",
            path_var.unwrap_or("unset")
        ));
    };
    let mut argv: Vec<OsString> = vec![bwrap.clone().into()];
    argv.extend(BWRAP_READ_ONLY.iter().map(OsString::from));
    argv.extend(["--".into(), "true".into()]);
    match run(&argv, timeout) {
        Ok((status, _)) if status.success() => Verdict {
            usable: true,
            enforcement: Enforcement::Full,
            detail: bwrap.display().to_string(),
        },
        Ok((status, stderr)) => Verdict::unusable(format!("{} {}: {stderr}", bwrap.display(), describe(status))),
        Err(e) => Verdict::unusable(format!("{}: {e}", bwrap.display())),
    }
}

/// The Landlock launcher (`launcher --report ... -- true`), which must report the ruleset it
/// put in force; `launcher` is its path or why there is none.
pub fn landlock(launcher: Result<&Path, &str>, timeout: Duration) -> Verdict {
    let abi = landlock::abi();
    if abi == 0 {
        return Verdict::unusable("Landlock is not enabled in this kernel (ABI 0)");
    }
    let launcher = match launcher {
        Ok(launcher) => launcher,
        Err(why) => return Verdict::unusable(why),
    };
    let rules = Rules {
        read: vec!["/".into()],
        write: vec!["/dev/null".into()],
    };
    let mut argv: Vec<OsString> = vec![launcher.into()];
    argv.extend(landlock::launcher_args(&rules, true).into_iter().map(OsString::from));
    argv.extend(["--".into(), "true".into()]);
    let (status, stderr) = match run(&argv, timeout) {
        Ok(finished) => finished,
        Err(e) => return Verdict::unusable(format!("{}: {e}", launcher.display())),
    };
    let reported = stderr
        .lines()
        .find_map(|line| line.strip_prefix(landlock::REPORT_PREFIX))
        .map(str::trim);
    let enforcement = match reported {
        Some(r) if r.starts_with("full") => Enforcement::Full,
        Some(r) if r.starts_with("partial") => Enforcement::Partial,
        _ if status.success() => {
            return Verdict::unusable(format!(
                "{} ran the probe but reported no ruleset: it is not a seam launcher",
                launcher.display()
            ));
        }
        _ => {
            return Verdict::unusable(format!("{} {}: {stderr}", launcher.display(), describe(status)));
        }
    };
    if !status.success() {
        return Verdict::unusable(format!("{} {}: {stderr}", launcher.display(), describe(status)));
    }
    Verdict {
        usable: true,
        enforcement,
        detail: format!("Landlock ABI {abi} through {}", launcher.display()),
    }
}

fn describe(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited {code}"),
        (_, Some(signal)) => format!("was killed by signal {signal}"),
        _ => "ended".into(),
    }
}

/// Run `argv` (stdin and stdout null, stderr kept) in its own process group; kill the group at
/// `timeout`. Returns the status and the start of stderr.
fn run(argv: &[OsString], timeout: Duration) -> Result<(ExitStatus, String), String> {
    let (program, args) = argv.split_first().ok_or("empty argv")?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot start: {e}"))?;
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(POLL),
            Ok(None) => {
                let group = nix::unistd::Pid::from_raw(child.id() as i32);
                let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL);
                let _ = child.wait();
                return Err(format!("the probe did not finish within {} ms", timeout.as_millis()));
            }
            Err(e) => return Err(format!("cannot wait for the probe: {e}")),
        }
    };
    // The probe has exited; what it wrote is in the pipe unless a descendant still holds it,
    // which the process group kill above would not reach after exit: read only what is there.
    let mut stderr = Vec::new();
    if let Some(pipe) = child.stderr.take() {
        let _ = nix::fcntl::fcntl(&pipe, nix::fcntl::FcntlArg::F_SETFL(nix::fcntl::OFlag::O_NONBLOCK));
        let _ = pipe.take(DETAIL_BYTES as u64).read_to_end(&mut stderr);
    }
    Ok((status, String::from_utf8_lossy(&stderr).trim().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_bwrap_is_unusable_without_running_anything() {
        let empty = tempfile::tempdir().unwrap();
        let path = empty.path().display().to_string();
        let verdict = bwrap(Some(&path), Duration::from_secs(1));
        assert!(!verdict.usable);
        assert!(verdict.detail.contains("not on the host PATH"), "{}", verdict.detail);
    }

    #[test]
    fn a_bwrap_that_fails_its_probe_is_unusable_with_its_own_words() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let fake = dir.path().join("bwrap");
        std::fs::write(
            &fake,
            "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n",
        )
        .unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let verdict = bwrap(Some(&dir.path().display().to_string()), Duration::from_secs(5));
        assert!(!verdict.usable);
        assert!(
            verdict
                .detail
                .ends_with("exited 1: bwrap: No permissions to create new namespace"),
            "{}",
            verdict.detail
        );
    }

    #[test]
    fn the_installed_bwrap_passes_its_probe() {
        let path = std::env::var("PATH").ok();
        assert!(
            which::which("bwrap", path.as_deref()).is_some(),
            "bubblewrap is not installed (scripts/setup installs it)"
        );
        let verdict = bwrap(path.as_deref(), Duration::from_secs(5));
        if !verdict.usable && verdict.detail.contains("namespace") {
            return eprintln!("skipped: this kernel gives bwrap no namespaces: {}", verdict.detail);
        }
        assert_eq!(
            (verdict.usable, verdict.enforcement),
            (true, Enforcement::Full),
            "{}",
            verdict.detail
        );
    }

    #[test]
    fn a_hanging_probe_is_killed_at_the_timeout() {
        let argv: Vec<OsString> = ["sleep", "30"].iter().map(OsString::from).collect();
        let started = Instant::now();
        let result = run(&argv, Duration::from_millis(100));
        assert!(result.is_err_and(|e| e.contains("within 100 ms")));
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn a_launcher_that_reports_nothing_is_not_a_launcher() {
        if landlock::abi() == 0 {
            eprintln!("skipped: Landlock is not enabled in this kernel");
            return;
        }
        // `true` accepts any arguments and prints nothing: it runs the probe but is no launcher.
        let verdict = landlock(Ok(Path::new("/bin/true")), Duration::from_secs(5));
        assert!(!verdict.usable);
        assert!(verdict.detail.contains("not a seam launcher"), "{}", verdict.detail);
    }
}
