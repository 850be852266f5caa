//! The Landlock launcher's contract and its ruleset. The launcher binary (`src/main.rs`) is
//! run as `seam-landlock-launcher [--report] --read P... --write P... -- ARGV...`: it applies a
//! ruleset to itself, sets no_new_privs and execs ARGV, or exits with [`FATAL_EXIT`] and a
//! [`FATAL_PREFIX`] line without running ARGV. Landlock cannot be applied to another process,
//! so every confined command starts behind this small program; the host builds its argv with
//! [`launcher_args`] and checks its rule paths with [`check_path`].

use landlock::{
    ABI, Access, AccessFs, BitFlags, PathBeneath, Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus, Scope,
};
use std::ffi::OsString;
use std::fs::File;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// Every line about the launcher's own failure starts with this (the runner failure rule).
pub const FATAL_PREFIX: &str = "seam landlock launcher: fatal:";
/// The launcher's exit status when it did not run the command. 126 is "found but could not
/// run" to shells; the failure rule pairs it with the fatal line.
pub const FATAL_EXIT: u8 = 126;
/// With `--report`, the line printed once the ruleset is in force: `... full (ABI 7)`.
pub const REPORT_PREFIX: &str = "seam landlock launcher: enforced";

/// The rights the sandbox modes govern, all in the kernel since ABI 3: reading, listing and
/// executing; writing, truncating, creating and removing every kind of file; linking and
/// renaming across directories. A kernel with an older ABI enforces a subset: partial.
const TARGET_ABI: ABI = ABI::V3;
/// The first ABI that scopes signals: from it on, the command cannot signal processes outside
/// its domain (seam itself, its supervisor, the user's other programs).
const SIGNAL_SCOPE_ABI: u32 = 6;

/// `LANDLOCK_CREATE_RULESET_VERSION`: ask `landlock_create_ruleset` for the ABI version.
const CREATE_RULESET_VERSION: libc::c_uint = 1;

/// The kernel's Landlock ABI version, 0 when Landlock is not built in or not enabled at boot.
pub fn abi() -> u32 {
    // SAFETY: with a null attribute, size 0 and only the version flag, the syscall reads and
    // writes no memory; it returns the version or -1 with errno set.
    let version = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            CREATE_RULESET_VERSION,
        )
    };
    u32::try_from(version).unwrap_or(0)
}

/// Read below `read`, write (and read) below `write`; everything else is denied.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    pub read: Vec<PathBuf>,
    pub write: Vec<PathBuf>,
}

/// One launcher invocation, parsed from the arguments after the executable.
#[derive(Debug, PartialEq, Eq)]
pub struct Launch {
    pub rules: Rules,
    /// Print the [`REPORT_PREFIX`] line before exec (the functional probe reads it).
    pub report: bool,
    pub argv: Vec<OsString>,
}

/// How much of a profile a runner applies here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enforcement {
    Full,
    Partial,
}

impl Enforcement {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Full => "full",
            Self::Partial => "partial",
        }
    }
}

/// The arguments after the launcher executable: the rules, without `--`.
pub fn launcher_args(rules: &Rules, report: bool) -> Vec<String> {
    let mut args = Vec::new();
    if report {
        args.push("--report".into());
    }
    for (flag, paths) in [("--read", &rules.read), ("--write", &rules.write)] {
        for path in paths {
            args.push(flag.into());
            args.push(path.display().to_string());
        }
    }
    args
}

impl Launch {
    /// Parse `[--report] (--read P | --write P)... -- ARGV...` (the arguments after the
    /// executable). Anything else is refused: a launcher must never guess.
    pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Self, String> {
        let mut args = args.into_iter();
        let (mut rules, mut report) = (Rules::default(), false);
        loop {
            let Some(arg) = args.next() else {
                return Err("no `--` before the command".into());
            };
            match arg.to_str() {
                Some("--") => break,
                Some("--report") => report = true,
                Some(flag @ ("--read" | "--write")) => {
                    let path = PathBuf::from(args.next().ok_or_else(|| format!("{flag} needs a path"))?);
                    let list = if flag == "--read" {
                        &mut rules.read
                    } else {
                        &mut rules.write
                    };
                    list.push(path);
                }
                _ => return Err(format!("unknown argument {arg:?}")),
            }
        }
        let argv: Vec<OsString> = args.collect();
        if argv.is_empty() {
            return Err("no command after `--`".into());
        }
        Ok(Self { rules, report, argv })
    }
}

/// A rule path must be absolute, exist, and be canonical: the sandbox provider was given
/// canonical roots, so a symlink found here was swapped in since, and is refused, not followed.
pub fn check_path(path: &Path) -> Result<(), String> {
    open_exact(path).map(drop)
}

/// Open `path` itself (O_PATH, not following a final symlink) and check through the open
/// descriptor that it is the canonical path, so the check and the rule see the same inode.
fn open_exact(path: &Path) -> Result<OwnedFd, String> {
    if !path.is_absolute() {
        return Err(format!("{} is not an absolute path", path.display()));
    }
    let file = File::options()
        .read(true)
        .custom_flags(libc::O_PATH | libc::O_NOFOLLOW)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let kind = file
        .metadata()
        .map_err(|e| format!("{}: {e}", path.display()))?
        .file_type();
    if kind.is_symlink() {
        return Err(format!("{} is a symlink", path.display()));
    }
    if !(kind.is_dir() || kind.is_file() || kind.is_char_device()) {
        return Err(format!("{} is not a directory, a file or a device", path.display()));
    }
    let opened = std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd()))
        .map_err(|e| format!("cannot tell where {} leads (is /proc mounted?): {e}", path.display()))?;
    if opened != path {
        return Err(format!(
            "{} is not canonical (it is {})",
            path.display(),
            opened.display()
        ));
    }
    Ok(file.into())
}

/// Apply `rules` to the calling thread (and, through exec, to the command), with
/// no_new_privs. Errors when the kernel enforces none of it: the caller must not run the
/// command then.
pub fn restrict_self(rules: &Rules) -> Result<Enforcement, String> {
    let handled = AccessFs::from_all(TARGET_ABI);
    let mut ruleset = Ruleset::default().handle_access(handled);
    // Only where the kernel has it: asked for elsewhere, it would make the ruleset partial.
    if abi() >= SIGNAL_SCOPE_ABI {
        ruleset = ruleset.and_then(|ruleset| ruleset.scope(Scope::Signal));
    }
    let mut ruleset = ruleset
        .and_then(Ruleset::create)
        .map_err(|e| format!("cannot create the ruleset: {e}"))?;
    // Device nodes are never a workspace's: one made there would reach whatever it names.
    let writes = handled & !(AccessFs::MakeBlock | AccessFs::MakeChar);
    let grants = [(&rules.read, AccessFs::from_read(TARGET_ABI)), (&rules.write, writes)];
    for (paths, access) in grants {
        for path in paths {
            let fd = open_exact(path)?;
            let access = applicable(&fd, access, path)?;
            ruleset = ruleset
                .add_rule(PathBeneath::new(fd, access))
                .map_err(|e| format!("cannot add the rule for {}: {e}", path.display()))?;
        }
    }
    let status = ruleset
        .restrict_self()
        .map_err(|e| format!("cannot restrict itself: {e}"))?;
    if !status.no_new_privs {
        return Err("no_new_privs could not be set".into());
    }
    match status.ruleset {
        RulesetStatus::FullyEnforced => Ok(Enforcement::Full),
        RulesetStatus::PartiallyEnforced => Ok(Enforcement::Partial),
        RulesetStatus::NotEnforced => Err(format!("Landlock is not enforced by this kernel (ABI {})", abi())),
    }
}

/// Leaves the calling process, and what it execs, without capabilities: Landlock confines
/// paths only, and a command run by root would keep the rest (loading a kernel module, raw
/// devices, other users' files). The bounding set is emptied so that exec grants uid 0 none.
/// Unprivileged, there is nothing to drop, and the bounding set cannot be changed: not an error.
pub fn drop_capabilities() -> Result<(), String> {
    // SAFETY: prctl with integer arguments only.
    unsafe { libc::prctl(libc::PR_CAP_AMBIENT, libc::PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) };
    for capability in 0.. {
        // SAFETY: prctl with integer arguments only.
        if unsafe { libc::prctl(libc::PR_CAPBSET_DROP, capability, 0, 0, 0) } != 0 {
            match std::io::Error::last_os_error().raw_os_error() {
                // Past the last capability this kernel knows.
                Some(libc::EINVAL) => break,
                // Not allowed to change it: then it holds no capability to drop either.
                Some(libc::EPERM) => break,
                _ => {
                    return Err(format!(
                        "cannot drop capability {capability}: {}",
                        std::io::Error::last_os_error()
                    ));
                }
            }
        }
    }
    #[repr(C)]
    struct Header {
        version: u32,
        pid: i32,
    }
    #[repr(C)]
    #[derive(Clone, Copy)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    const VERSION_3: u32 = 0x2008_0522;
    let header = Header {
        version: VERSION_3,
        pid: 0,
    };
    let none = [Data {
        effective: 0,
        permitted: 0,
        inheritable: 0,
    }; 2];
    // SAFETY: a version 3 header and the two data words it expects, both valid for the call.
    if unsafe { libc::syscall(libc::SYS_capset, &header, none.as_ptr()) } != 0 {
        return Err(format!("cannot drop capabilities: {}", std::io::Error::last_os_error()));
    }
    Ok(())
}

/// Directory-only rights (listing, creating, removing, Refer) do not apply to a file: the
/// kernel refuses a rule that names them on one.
fn applicable(fd: &OwnedFd, access: BitFlags<AccessFs>, path: &Path) -> Result<BitFlags<AccessFs>, String> {
    let metadata = File::from(fd.try_clone().map_err(|e| format!("{}: {e}", path.display()))?)
        .metadata()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(if metadata.is_dir() {
        access
    } else {
        access & AccessFs::from_file(TARGET_ABI)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &[&str]) -> Vec<OsString> {
        text.iter().map(OsString::from).collect()
    }

    #[test]
    fn arguments_round_trip() {
        let rules = Rules {
            read: vec!["/".into()],
            write: vec!["/dev/null".into(), "/tmp".into()],
        };
        let mut line = launcher_args(&rules, true);
        line.extend(["--".into(), "bash".into(), "-c".into(), "true".into()]);
        let launch = Launch::parse(line.into_iter().map(OsString::from)).unwrap();
        assert_eq!(
            launch,
            Launch {
                rules,
                report: true,
                argv: args(&["bash", "-c", "true"]),
            }
        );
    }

    #[test]
    fn malformed_arguments_are_refused() {
        for bad in [
            &["--read", "/"][..],
            &["--read", "/", "--"],
            &["--write"],
            &["--exec", "x", "--", "true"],
            &["bash", "--", "true"],
        ] {
            assert!(Launch::parse(args(bad)).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn rule_paths_must_be_canonical_existing_and_absolute() {
        let dir = tempfile::tempdir().unwrap();
        let real = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir(real.join("inner")).unwrap();
        std::os::unix::fs::symlink(real.join("inner"), real.join("link")).unwrap();
        assert_eq!(check_path(&real.join("inner")), Ok(()));
        assert_eq!(check_path(Path::new("/dev/null")), Ok(()));
        for bad in [
            real.join("link"),
            real.join("link/.."),
            real.join("inner/../inner"),
            real.join("missing"),
            PathBuf::from("relative"),
        ] {
            assert!(check_path(&bad).is_err(), "{}", bad.display());
        }
    }
}
