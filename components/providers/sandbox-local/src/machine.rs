//! The machine as the runner selection sees it: the host's sandbox-launch natives and this
//! provider's namespace of the host state store.

use crate::bindings::seam::host::sandbox_launch as launch;
use crate::bindings::seam::host::state;
use crate::runners::Runner;
use crate::select::{Enforcement, Machine, Verdict};

pub struct Host;

impl Machine for Host {
    fn which(&self, name: &str) -> Option<String> {
        launch::which(name)
    }

    fn landlock_abi(&self) -> u32 {
        launch::landlock_abi()
    }

    fn landlock_launcher(&self) -> Result<String, String> {
        let minimal = launch::LandlockRules {
            read: vec!["/".to_owned()],
            write: vec!["/dev/null".to_owned()],
        };
        match launch::launcher_argv(&minimal) {
            Ok(argv) => argv
                .into_iter()
                .next()
                .ok_or_else(|| "the host gave an empty launcher".to_owned()),
            Err(error) => Err(error.message),
        }
    }

    fn probe(&self, runner: Runner, timeout_ms: u32) -> Verdict {
        let native = match runner {
            Runner::Bwrap => launch::Runner::Bwrap,
            Runner::Landlock => launch::Runner::Landlock,
            Runner::Seatbelt | Runner::WindowsAcl => {
                return Verdict {
                    usable: false,
                    enforcement: Enforcement::Partial,
                    detail: "this host cannot probe it".to_owned(),
                };
            }
        };
        let result = launch::probe(native, timeout_ms);
        Verdict {
            usable: result.usable,
            enforcement: match result.enforcement {
                launch::Enforcement::Full => Enforcement::Full,
                launch::Enforcement::Partial => Enforcement::Partial,
            },
            detail: result.detail,
        }
    }

    fn load(&self, key: &str) -> Option<Vec<u8>> {
        state::get(key)
    }

    fn store(&self, key: &str, value: Vec<u8>) {
        state::set(key, &value);
    }
}
