//! seam:host/sandbox-launch over the sandbox_launch module: facts and launchers for the sandbox
//! provider's runners, answered from the host's own PATH and the launcher it carries.

use super::bindings::natives::seam::host::sandbox_launch as wit;
use super::sandbox_launch::{Enforcement, landlock, probe, protected, which};
use crate::lane::Lane;
use std::path::{Path, PathBuf};
use std::time::Duration;
use wasmtime::Result;

fn enforcement(e: Enforcement) -> wit::Enforcement {
    match e {
        Enforcement::Full => wit::Enforcement::Full,
        Enforcement::Partial => wit::Enforcement::Partial,
    }
}

fn error(code: &str, message: impl Into<String>) -> wit::Error {
    wit::Error {
        code: code.into(),
        message: message.into(),
    }
}

impl Lane {
    fn host_path_var(&self) -> Option<&str> {
        which::path_of(&self.linked.host.environment)
    }
}

impl wit::Host for Lane {
    fn probe(&mut self, runner: wit::Runner, timeout_ms: u32) -> Result<wit::ProbeResult> {
        let timeout = Duration::from_millis(timeout_ms.into());
        let path_var = self.host_path_var().map(str::to_owned);
        let host = self.linked.host.clone();
        let verdict = self.blocking(|| match runner {
            wit::Runner::Bwrap => probe::bwrap(path_var.as_deref(), timeout),
            wit::Runner::Landlock => probe::landlock(host.launcher.path().as_deref().map_err(String::as_str), timeout),
        });
        Ok(wit::ProbeResult {
            usable: verdict.usable,
            enforcement: enforcement(verdict.enforcement),
            detail: verdict.detail,
        })
    }

    fn launcher_argv(&mut self, rules: wit::LandlockRules) -> Result<Result<Vec<String>, wit::Error>> {
        if landlock::abi() == 0 {
            return Ok(Err(error(
                "SANDBOX_LAUNCH_UNSUPPORTED",
                "Landlock is not enabled in this kernel",
            )));
        }
        let rules = landlock::Rules {
            read: rules.read.into_iter().map(PathBuf::from).collect(),
            write: rules.write.into_iter().map(PathBuf::from).collect(),
        };
        if let Some(problem) = rules
            .read
            .iter()
            .chain(&rules.write)
            .find_map(|path| landlock::check_path(path).err())
        {
            return Ok(Err(error("SANDBOX_LAUNCH_INVALID", problem)));
        }
        let launcher = match self.linked.host.launcher.path() {
            Ok(launcher) => launcher.display().to_string(),
            Err(why) => return Ok(Err(error("SANDBOX_LAUNCH_UNSUPPORTED", why))),
        };
        let mut argv = vec![launcher];
        argv.extend(landlock::launcher_args(&rules, false));
        Ok(Ok(argv))
    }

    fn landlock_abi(&mut self) -> Result<u32> {
        Ok(landlock::abi())
    }

    fn which(&mut self, name: String) -> Result<Option<String>> {
        Ok(which::which(&name, self.host_path_var()).map(|p| p.display().to_string()))
    }

    fn protected_paths(&mut self, root: String) -> Result<Vec<wit::ProtectedPath>> {
        let cache = self.linked.host.cache_dir.clone();
        let found = self.blocking(|| protected::paths(Path::new(&root), cache.as_deref()));
        Ok(found
            .into_iter()
            .map(|p| wit::ProtectedPath {
                path: p.path.display().to_string(),
                kind: match p.kind {
                    protected::Kind::Directory => wit::PathKind::Directory,
                    protected::Kind::File => wit::PathKind::File,
                    protected::Kind::MissingDirectory => wit::PathKind::MissingDirectory,
                },
                why: p.why.to_owned(),
            })
            .collect())
    }
}
