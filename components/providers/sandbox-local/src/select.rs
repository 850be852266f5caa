//! Choosing the runner: the configured chain in preference order, each candidate first checked
//! for what it needs (a bwrap binary, a Landlock ABI and launcher), then, when more than one
//! is left, arbitrated by a bounded functional probe whose verdict is cached against the facts
//! it was made for. A lone candidate is not probed: its own refusal at run time is the
//! fail-closed end. Nothing usable means no runner, never the raw argv.

use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::runners::Runner;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Enforcement {
    Full,
    Partial,
}

/// A probe's verdict, as the host reports it and as the cache keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    pub usable: bool,
    pub enforcement: Enforcement,
    pub detail: String,
}

/// What the selection needs from the machine (the host natives and the state store).
pub trait Machine {
    fn which(&self, name: &str) -> Option<String>;
    fn landlock_abi(&self) -> u32;
    /// The seam executable the Landlock launcher runs as, or why there is none.
    fn landlock_launcher(&self) -> Result<String, String>;
    fn probe(&self, runner: Runner, timeout_ms: u32) -> Verdict;
    fn load(&self, key: &str) -> Option<Vec<u8>>;
    fn store(&self, key: &str, value: Vec<u8>);
}

/// One chain entry as judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub name: String,
    pub usable: bool,
    pub enforcement: Option<Enforcement>,
    pub detail: String,
    pub selected: bool,
}

/// The runner `confine` uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chosen {
    pub runner: Runner,
    /// The bwrap binary, or the seam executable for Landlock.
    pub program: String,
    /// What the runner's mechanism enforces here (for Landlock: the kernel ABI's share of the
    /// ruleset), before what the profile itself cannot say.
    pub mechanism: Enforcement,
}

#[derive(Serialize, Deserialize)]
struct Cached {
    /// The facts the verdict was made for: a different binary or ABI means a new probe.
    fact: String,
    verdict: Verdict,
}

/// The first usable runner, or every candidate's reason in one message.
pub fn choose(config: &Config, machine: &impl Machine) -> Result<Chosen, String> {
    let (reports, chosen) = judge(config, machine, false);
    chosen.ok_or_else(|| {
        let reasons: Vec<String> = reports.iter().map(|r| format!("{}: {}", r.name, r.detail)).collect();
        if reasons.is_empty() {
            "the runner chain is empty".to_owned()
        } else {
            format!("no sandbox runner is usable here ({})", reasons.join("; "))
        }
    })
}

/// Every chain entry with its verdict (all candidates probed, for the report).
pub fn report(config: &Config, machine: &impl Machine) -> Vec<Report> {
    judge(config, machine, true).0
}

struct Found {
    runner: Runner,
    program: String,
    fact: String,
    /// What the mechanism enforces as far as the static facts tell (unprobed lone candidates).
    expected: Enforcement,
}

fn judge(config: &Config, machine: &impl Machine, probe_all: bool) -> (Vec<Report>, Option<Chosen>) {
    let mut reports = Vec::new();
    let mut found = Vec::new();
    for name in &config.chain {
        match prerequisites(name, config, machine) {
            Ok(f) => {
                found.push((reports.len(), f));
                reports.push(Report {
                    name: name.clone(),
                    usable: false,
                    enforcement: None,
                    detail: String::new(),
                    selected: false,
                });
            }
            Err(detail) => reports.push(Report {
                name: name.clone(),
                usable: false,
                enforcement: None,
                detail,
                selected: false,
            }),
        }
    }
    let lone = found.len() == 1;
    let mut chosen = None;
    for (index, f) in found {
        let report = &mut reports[index];
        if chosen.is_some() && !probe_all {
            report.detail = format!("{}; not probed: an earlier runner was chosen", f.fact);
            continue;
        }
        let verdict = if lone {
            Verdict {
                usable: true,
                enforcement: f.expected,
                detail: format!("{}; the only candidate, not probed", f.fact),
            }
        } else {
            probed(&f, config.probe_timeout_ms, machine)
        };
        report.usable = verdict.usable;
        report.detail = verdict.detail;
        if verdict.usable {
            let enforcement = enforcement(f.runner, verdict.enforcement);
            report.enforcement = Some(enforcement);
            if enforcement == Enforcement::Partial && f.runner == Runner::Landlock {
                report.detail.push_str("; partial: ");
                report.detail.push_str(LANDLOCK_SHORTFALL);
            }
            if chosen.is_none() {
                report.selected = true;
                chosen = Some(Chosen {
                    runner: f.runner,
                    program: f.program,
                    mechanism: verdict.enforcement,
                });
            }
        }
    }
    (reports, chosen)
}

/// The launcher's ruleset needs ABI 3 (Refer since 2, Truncate since 3) to be enforced whole.
const LANDLOCK_FULL_ABI: u32 = 3;

const LANDLOCK_SHORTFALL: &str = "Landlock governs no metadata changes (chmod, chown, utimes, xattrs) and cannot keep \
     git hooks and config read-only inside a writable workspace";

/// What a runner enforces of a mode at best: bwrap what its probe found; Landlock never the
/// whole of a mode (see profiles::landlock), whatever the kernel's ABI.
fn enforcement(runner: Runner, probed: Enforcement) -> Enforcement {
    match runner {
        Runner::Bwrap => probed,
        Runner::Landlock | Runner::Seatbelt | Runner::WindowsAcl => Enforcement::Partial,
    }
}

/// The static check of one chain entry: what it needs is there.
fn prerequisites(name: &str, config: &Config, machine: &impl Machine) -> Result<Found, String> {
    let runner = Runner::parse(name).ok_or_else(|| "unknown runner".to_owned())?;
    match runner {
        Runner::Bwrap => {
            let program = machine
                .which("bwrap")
                .ok_or_else(|| "bwrap is not on the host PATH".to_owned())?;
            Ok(Found {
                runner,
                fact: program.clone(),
                program,
                expected: Enforcement::Full,
            })
        }
        Runner::Landlock => {
            if !config.landlock {
                return Err("disabled by config (landlock = false)".to_owned());
            }
            let abi = machine.landlock_abi();
            if abi == 0 {
                return Err("Landlock is not enabled in this kernel".to_owned());
            }
            let program = machine.landlock_launcher()?;
            Ok(Found {
                runner,
                fact: format!("Landlock ABI {abi} through {program}"),
                program,
                expected: if abi >= LANDLOCK_FULL_ABI {
                    Enforcement::Full
                } else {
                    Enforcement::Partial
                },
            })
        }
        Runner::Seatbelt => {
            Err("profile built and unit tested, untested on this platform: Seatbelt is macOS's".to_owned())
        }
        Runner::WindowsAcl => {
            Err("profile built and unit tested, untested on this platform: restricted tokens are Windows'".to_owned())
        }
    }
}

/// A cached verdict for the same facts, or a fresh probe (then cached).
fn probed(found: &Found, timeout_ms: u32, machine: &impl Machine) -> Verdict {
    let key = format!("probe/{}", found.runner.name());
    let cached = machine
        .load(&key)
        .and_then(|bytes| serde_json::from_slice::<Cached>(&bytes).ok())
        .filter(|c| c.fact == found.fact);
    if let Some(cached) = cached {
        return cached.verdict;
    }
    let verdict = machine.probe(found.runner, timeout_ms);
    let entry = Cached {
        fact: found.fact.clone(),
        verdict: verdict.clone(),
    };
    if let Ok(bytes) = serde_json::to_vec(&entry) {
        machine.store(&key, bytes);
    }
    verdict
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::collections::BTreeMap;

    #[derive(Default)]
    struct FakeMachine {
        bwrap: Option<String>,
        abi: u32,
        works: Vec<Runner>,
        probes: RefCell<Vec<Runner>>,
        state: RefCell<BTreeMap<String, Vec<u8>>>,
    }

    impl Machine for FakeMachine {
        fn which(&self, name: &str) -> Option<String> {
            (name == "bwrap").then(|| self.bwrap.clone()).flatten()
        }
        fn landlock_abi(&self) -> u32 {
            self.abi
        }
        fn landlock_launcher(&self) -> Result<String, String> {
            Ok("/usr/bin/seam".into())
        }
        fn probe(&self, runner: Runner, _timeout_ms: u32) -> Verdict {
            self.probes.borrow_mut().push(runner);
            let usable = self.works.contains(&runner);
            Verdict {
                usable,
                enforcement: Enforcement::Full,
                detail: if usable { "ok".into() } else { "probe failed".into() },
            }
        }
        fn load(&self, key: &str) -> Option<Vec<u8>> {
            self.state.borrow().get(key).cloned()
        }
        fn store(&self, key: &str, value: Vec<u8>) {
            self.state.borrow_mut().insert(key.into(), value);
        }
    }

    fn linux(bwrap: bool, abi: u32, works: &[Runner]) -> FakeMachine {
        FakeMachine {
            bwrap: bwrap.then(|| "/usr/bin/bwrap".into()),
            abi,
            works: works.to_vec(),
            ..FakeMachine::default()
        }
    }

    fn chain(names: &[&str]) -> Config {
        Config {
            chain: names.iter().map(|n| n.to_string()).collect(),
            ..Config::default()
        }
    }

    #[test]
    fn competing_candidates_are_probed_in_order_and_the_first_usable_wins() {
        let machine = linux(true, 7, &[Runner::Landlock]);
        let chosen = choose(&Config::default(), &machine).unwrap();
        assert_eq!(chosen.runner, Runner::Landlock);
        assert_eq!(*machine.probes.borrow(), [Runner::Bwrap, Runner::Landlock]);
    }

    #[test]
    fn verdicts_are_cached_until_the_facts_change() {
        let mut machine = linux(true, 7, &[Runner::Bwrap]);
        choose(&Config::default(), &machine).unwrap();
        choose(&Config::default(), &machine).unwrap();
        assert_eq!(*machine.probes.borrow(), [Runner::Bwrap]);
        machine.bwrap = Some("/opt/bwrap".into());
        assert_eq!(choose(&Config::default(), &machine).unwrap().program, "/opt/bwrap");
        assert_eq!(*machine.probes.borrow(), [Runner::Bwrap, Runner::Bwrap]);
    }

    #[test]
    fn a_lone_candidate_is_not_probed() {
        let machine = linux(false, 7, &[]);
        assert_eq!(choose(&Config::default(), &machine).unwrap().runner, Runner::Landlock);
        assert!(machine.probes.borrow().is_empty());
        let forced = linux(true, 7, &[]);
        assert_eq!(choose(&chain(&["bwrap"]), &forced).unwrap().runner, Runner::Bwrap);
        assert!(forced.probes.borrow().is_empty());
    }

    #[test]
    fn nothing_usable_fails_closed_with_every_reason() {
        let disabled = Config {
            landlock: false,
            ..chain(&["bwrap", "landlock", "seatbelt", "firejail"])
        };
        let error = choose(&disabled, &linux(false, 7, &[])).unwrap_err();
        for reason in [
            "bwrap is not on the host PATH",
            "disabled by config",
            "untested on this platform",
            "unknown runner",
        ] {
            assert!(error.contains(reason), "{error}");
        }
        let broken = choose(&Config::default(), &linux(true, 7, &[])).unwrap_err();
        assert!(broken.contains("probe failed"), "{broken}");
        assert!(choose(&chain(&[]), &linux(true, 7, &[])).is_err());
    }

    #[test]
    fn the_report_probes_every_candidate_and_marks_the_selected_one() {
        let machine = linux(true, 7, &[Runner::Bwrap, Runner::Landlock]);
        let reports = report(&Config::default(), &machine);
        assert_eq!(reports.len(), 2);
        assert!(reports[0].selected && reports[0].usable);
        assert_eq!(reports[0].enforcement, Some(Enforcement::Full));
        assert!(!reports[1].selected && reports[1].usable);
        assert_eq!(reports[1].enforcement, Some(Enforcement::Partial));
        assert!(reports[1].detail.contains("metadata"), "{}", reports[1].detail);
    }
}
