//! The environment policy: the one place that decides what a spawned process sees.

/// Name fragments that mark a credential, matched case-insensitively anywhere in the name.
const CREDENTIAL_FRAGMENTS: [&str; 4] = ["KEY", "PASSWORD", "SECRET", "TOKEN"];

/// The host's own settings, withheld so they cannot steer a nested agent or leak through it.
const HOST_PREFIX: &str = "SEAM_";

/// The environment of a spawn: the parent environment without credentials and host settings,
/// with the explicit variables merged over it. Explicit variables always win, even over the
/// scrub: passing a token on purpose is the caller's decision.
pub fn spawn_env(parent: Vec<(String, String)>, explicit: Vec<(String, String)>) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = parent.into_iter().filter(|(name, _)| !is_withheld(name)).collect();
    for (name, value) in explicit {
        match env.iter_mut().find(|(existing, _)| *existing == name) {
            Some(slot) => slot.1 = value,
            None => env.push((name, value)),
        }
    }
    env
}

/// Compared in place, without an uppercased copy: every spawn checks every inherited name. A
/// fragment is compared only where its first letter occurs.
fn is_withheld(name: &str) -> bool {
    let name = name.as_bytes();
    name.get(..HOST_PREFIX.len())
        .is_some_and(|prefix| prefix.eq_ignore_ascii_case(HOST_PREFIX.as_bytes()))
        || (0..name.len()).any(|at| {
            let rest = &name[at..];
            CREDENTIAL_FRAGMENTS.iter().any(|fragment| {
                let fragment = fragment.as_bytes();
                rest[0].eq_ignore_ascii_case(&fragment[0])
                    && rest
                        .get(..fragment.len())
                        .is_some_and(|window| window.eq_ignore_ascii_case(fragment))
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect()
    }

    #[test]
    fn withholds_credentials_and_host_settings() {
        let parent = vars(&[
            ("PATH", "/usr/bin"),
            ("OPENAI_API_KEY", "x"),
            ("db_password", "x"),
            ("ClientSecret", "x"),
            ("GITHUB_TOKEN", "x"),
            ("SEAM_LOG", "debug"),
            ("seam_world", "x"),
            ("K", "short"),
            ("HOME", "/root"),
        ]);
        assert_eq!(
            spawn_env(parent, vec![]),
            vars(&[("PATH", "/usr/bin"), ("K", "short"), ("HOME", "/root")])
        );
    }

    #[test]
    fn explicit_variables_override_and_extend() {
        let parent = vars(&[("PATH", "/usr/bin"), ("LANG", "C")]);
        let explicit = vars(&[("LANG", "C.UTF-8"), ("TERM", "dumb"), ("GITHUB_TOKEN", "given")]);
        assert_eq!(
            spawn_env(parent, explicit),
            vars(&[
                ("PATH", "/usr/bin"),
                ("LANG", "C.UTF-8"),
                ("TERM", "dumb"),
                ("GITHUB_TOKEN", "given")
            ])
        );
    }

    #[test]
    fn later_explicit_duplicates_win() {
        let env = spawn_env(vec![], vars(&[("A", "1"), ("A", "2")]));
        assert_eq!(env, vars(&[("A", "2")]));
    }
}
