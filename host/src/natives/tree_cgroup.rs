//! A cgroup (v2) holding one process tree, where the host may create one.
//!
//! Killing a cgroup reaches every process in it at once, including processes that fork, call
//! setsid or get reparented to init while the kill runs, which no walk of /proc can promise.
//! Without a writable cgroup2 hierarchy (no delegation) there is none, and callers keep their
//! own teardown (session and parent links, a subreaper) as the only one.

use std::fs;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How often an emptying cgroup is looked at again.
const EMPTY_POLL: Duration = Duration::from_millis(1);

pub struct TreeCgroup {
    dir: PathBuf,
    /// Held open so a child can move itself in between fork and exec without allocating.
    procs: OwnedFd,
}

/// What a forked child needs to enter the cgroup: a descriptor, copied into the closure.
#[derive(Clone, Copy)]
pub struct CgroupEntry(RawFd);

impl CgroupEntry {
    /// Moves the calling process into the cgroup. Async-signal-safe: for a child between fork
    /// and exec, whose descendants then start inside it.
    pub fn enter(self) -> std::io::Result<()> {
        // SAFETY: a write of two bytes from a static buffer to a descriptor we own.
        if unsafe { libc::write(self.0, b"0\n".as_ptr().cast(), 2) } < 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(())
    }
}

impl TreeCgroup {
    /// A new, empty cgroup below the host's own, named after the host and `name`; None where
    /// the host cannot create one.
    pub fn create(name: &str) -> Option<Self> {
        let dir = own_cgroup()?.join(format!("seam-{}-{name}", std::process::id()));
        // A directory left by an earlier host with the same pid is empty by now or still busy.
        let _ = fs::remove_dir(&dir);
        fs::create_dir(&dir).ok()?;
        match open_write(&dir.join("cgroup.procs")) {
            Some(procs) => Some(Self { dir, procs }),
            None => {
                let _ = fs::remove_dir(&dir);
                None
            }
        }
    }

    pub fn entry(&self) -> CgroupEntry {
        CgroupEntry(self.procs.as_raw_fd())
    }

    /// SIGKILL to every process in the cgroup; waits up to `timeout` until none is left and
    /// says whether that happened.
    pub fn kill_all(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let killed_at_once = fs::write(self.dir.join("cgroup.kill"), "1").is_ok();
        loop {
            if !killed_at_once {
                // Kernels before 5.14 have no cgroup.kill: signal each member until none is left.
                for pid in self.members() {
                    // SAFETY: kill has no memory effects; a pid of the cgroup is one of the tree.
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                }
            }
            if !self.populated() {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(EMPTY_POLL);
        }
    }

    fn members(&self) -> Vec<i32> {
        let procs = fs::read_to_string(self.dir.join("cgroup.procs")).unwrap_or_default();
        procs.lines().filter_map(|line| line.trim().parse().ok()).collect()
    }

    /// Whether a live process is left; exited ones leave the cgroup before they are reaped.
    fn populated(&self) -> bool {
        match fs::read_to_string(self.dir.join("cgroup.events")) {
            Ok(events) => events.lines().any(|line| line.trim() == "populated 1"),
            Err(_) => !self.members().is_empty(),
        }
    }
}

impl Drop for TreeCgroup {
    fn drop(&mut self) {
        let _ = fs::remove_dir(&self.dir);
    }
}

fn open_write(path: &Path) -> Option<OwnedFd> {
    let file = fs::OpenOptions::new().write(true).open(path).ok()?;
    Some(OwnedFd::from(file))
}

/// The directory of this process's own cgroup in the cgroup2 hierarchy, if it is mounted.
fn own_cgroup() -> Option<&'static Path> {
    static OWN: OnceLock<Option<PathBuf>> = OnceLock::new();
    OWN.get_or_init(|| {
        let mountinfo = fs::read_to_string("/proc/self/mountinfo").ok()?;
        let mount = cgroup2_mount(&mountinfo)?;
        let cgroups = fs::read_to_string("/proc/self/cgroup").ok()?;
        let own = cgroups.lines().find_map(|line| line.strip_prefix("0::"))?;
        let dir = Path::new(mount).join(own.trim_start_matches('/'));
        if !dir.is_dir() {
            return None;
        }
        remove_abandoned(&dir);
        Some(dir)
    })
    .as_deref()
}

/// Removes the cgroups hosts that are gone left behind (a host killed before closing its
/// sessions); a cgroup still holding a process stays.
fn remove_abandoned(parent: &Path) {
    for entry in fs::read_dir(parent).into_iter().flatten().flatten() {
        let name = entry.file_name();
        let Some(host) = name.to_str().and_then(|n| n.strip_prefix("seam-")?.split('-').next()) else {
            continue;
        };
        if host.parse::<u32>().is_ok() && !Path::new("/proc").join(host).exists() {
            let _ = fs::remove_dir(entry.path());
        }
    }
}

/// The mount point of the cgroup2 filesystem in a /proc/self/mountinfo text.
fn cgroup2_mount(mountinfo: &str) -> Option<&str> {
    mountinfo.lines().find_map(|line| {
        let (fields, after) = line.split_once(" - ")?;
        (after.split(' ').next() == Some("cgroup2")).then(|| fields.split(' ').nth(4))?
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cgroup2_mount_is_found_among_others() {
        let mountinfo = "25 30 0:23 / /sys rw,nosuid - sysfs sysfs rw\n\
                         41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
        assert_eq!(cgroup2_mount(mountinfo), Some("/sys/fs/cgroup/unified"));
        assert_eq!(cgroup2_mount("25 30 0:23 / /sys rw - sysfs sysfs rw\n"), None);
    }
}
