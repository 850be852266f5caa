//! The environment policy: the one place that decides what a spawned process sees.

/// Name fragments that mark a credential, matched case-insensitively anywhere in the name.
const CREDENTIAL_FRAGMENTS: [&str; 13] = [
    "KEY",
    "PASS",
    "SECRET",
    "TOKEN",
    "CREDENTIAL",
    "COOKIE",
    "AUTH",
    "JWT",
    "DSN",
    "WEBHOOK",
    "BEARER",
    "CONNECTION_STRING",
    "PRIVATE",
];

/// Names with a credential fragment that are what git and X clients need, not secrets.
const NOT_CREDENTIALS: [&str; 2] = ["SSH_AUTH_SOCK", "XAUTHORITY"];

/// Name endings of credentials too short to be fragments: a personal access token (GH_PAT;
/// `PAT` would match PATH), a password (MYSQL_PWD, LDAP_BIND_PW; `PWD` is the cwd), a secret
/// key (STRIPE_SK).
const CREDENTIAL_SUFFIXES: [&str; 4] = ["_PAT", "_PWD", "_PW", "_SK"];

/// The host's own settings, withheld so they cannot steer a nested agent or leak through it.
const HOST_PREFIX: &str = "SEAM_";

/// The environment of a spawn: the parent environment without credentials and host settings,
/// with the explicit variables merged over it. Explicit variables always win, even over the
/// scrub: passing a token on purpose is the caller's decision.
pub fn spawn_env(parent: Vec<(String, String)>, explicit: Vec<(String, String)>) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = parent
        .into_iter()
        .filter(|(name, value)| !is_withheld(name) && !carries_credentials(value))
        .collect();
    for (name, value) in explicit {
        match env.iter_mut().find(|(existing, _)| *existing == name) {
            Some(slot) => slot.1 = value,
            None => env.push((name, value)),
        }
    }
    env
}

/// Every spawn checks every inherited name: each is folded to upper case once, on the stack
/// when it fits, and fragments are compared only where a fragment's first letter occurs.
fn is_withheld(name: &str) -> bool {
    let name = name.as_bytes();
    if name
        .get(..HOST_PREFIX.len())
        .is_some_and(|prefix| prefix.eq_ignore_ascii_case(HOST_PREFIX.as_bytes()))
    {
        return true;
    }
    let mut buffer = [0u8; 64];
    let heap;
    let upper = match buffer.get_mut(..name.len()) {
        Some(upper) => {
            upper.copy_from_slice(name);
            upper.make_ascii_uppercase();
            &*upper
        }
        None => {
            heap = name.to_ascii_uppercase();
            &heap[..]
        }
    };
    let marked = upper.iter().enumerate().any(|(at, &letter)| {
        may_start_fragment(letter)
            && CREDENTIAL_FRAGMENTS.iter().any(|fragment| {
                let fragment = fragment.as_bytes();
                fragment[0] == letter && upper[at..].starts_with(fragment)
            })
    });
    (marked && !NOT_CREDENTIALS.iter().any(|name| upper == name.as_bytes()))
        || CREDENTIAL_SUFFIXES
            .iter()
            .any(|suffix| upper.ends_with(suffix.as_bytes()))
}

/// The first letters of the credential fragments, one bit per letter A to Z.
const FRAGMENT_FIRST_LETTERS: u32 = {
    let mut letters = 0;
    let mut at = 0;
    while at < CREDENTIAL_FRAGMENTS.len() {
        letters |= 1 << (CREDENTIAL_FRAGMENTS[at].as_bytes()[0] - b'A');
        at += 1;
    }
    letters
};

fn may_start_fragment(letter: u8) -> bool {
    letter.is_ascii_uppercase() && FRAGMENT_FIRST_LETTERS & (1 << (letter - b'A')) != 0
}

/// Settings that hold a password, as in `?password=` or `Server=db;Pwd=x;`.
const PASSWORD_SETTINGS: [&[u8]; 3] = [b"password", b"pwd", b"passwd"];

/// A value holding a URL with credentials in it (`postgres://user:password@db/x`,
/// `https://key@sentry.io/1`, a proxy with a login) or a password setting (`?password=`,
/// `Server=db;Password=x;`), whatever its variable is called.
fn carries_credentials(value: &str) -> bool {
    // Every inherited value of every spawn, in one pass: only an `=` ends a setting and only a
    // `:` starts a URL's `://`, so the other bytes cost one comparison each.
    let bytes = value.as_bytes();
    bytes.iter().enumerate().any(|(at, &byte)| match byte {
        b'=' => PASSWORD_SETTINGS
            .iter()
            .any(|name| at >= name.len() && bytes[at - name.len()..at].eq_ignore_ascii_case(name)),
        b':' => bytes[at + 1..].starts_with(b"//") && has_login(&bytes[at + 3..]),
        _ => false,
    })
}

/// Whether the authority a URL starts with (up to its path, query, fragment or a separator of
/// a list of URLs) holds a login.
fn has_login(url_rest: &[u8]) -> bool {
    url_rest
        .iter()
        .take_while(|byte| !b"/?# ,".contains(byte))
        .any(|&byte| byte == b'@')
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
            ("MYSQL_PASSWD", "x"),
            ("GOOGLE_APPLICATION_CREDENTIALS", "x"),
            ("SESSION_COOKIE", "x"),
            ("SSH_AUTH_SOCK", "/run/agent"),
            ("XAUTHORITY", "/root/.Xauthority"),
            ("HF_AUTH", "x"),
            ("DOCKER_AUTH_CONFIG", "x"),
            ("CI_JOB_JWT", "x"),
            ("SENTRY_DSN", "x"),
            ("SLACK_WEBHOOK_URL", "https://hooks.slack.com/services/T0/B0/x"),
            ("GH_PAT", "x"),
            ("LD_LIBRARY_PATH", "/opt/lib"),
            ("DATABASE_URL", "postgres://u:hunter2@db/x"),
            ("REDIS_URL", "redis://:pw@h:6379"),
            ("https_proxy", "http://user:pass@proxy:3128"),
            ("NO_PROXY", "localhost,.internal"),
            ("UPSTREAM", "https://example.com/a@b"),
            ("MYSQL_PWD", "x"),
            ("SSHPASS", "x"),
            ("GPG_PASSPHRASE", "x"),
            ("LDAP_BIND_PW", "x"),
            ("STRIPE_SK", "x"),
            ("BEARER", "x"),
            ("AZURE_STORAGE_CONNECTION_STRING", "x"),
            ("SIGNING_PRIVATE", "x"),
            ("MONGODB_URI", "mongodb://h/x?authSource=admin&password=p"),
            ("SQLSERVER", "Server=db;User Id=sa;Password=p;"),
            ("PWD", "/work"),
            ("OLDPWD", "/"),
            ("MIRRORS", "https://a.example, git@github.com:o/r"),
            ("SEAM_LOG", "debug"),
            ("seam_world", "x"),
            ("K", "short"),
            ("HOME", "/root"),
        ]);
        assert_eq!(
            spawn_env(parent, vec![]),
            vars(&[
                ("PATH", "/usr/bin"),
                ("SSH_AUTH_SOCK", "/run/agent"),
                ("XAUTHORITY", "/root/.Xauthority"),
                ("LD_LIBRARY_PATH", "/opt/lib"),
                ("NO_PROXY", "localhost,.internal"),
                ("UPSTREAM", "https://example.com/a@b"),
                ("PWD", "/work"),
                ("OLDPWD", "/"),
                ("MIRRORS", "https://a.example, git@github.com:o/r"),
                ("K", "short"),
                ("HOME", "/root")
            ])
        );
    }

    #[test]
    fn withholds_credentials_in_names_of_any_length() {
        let long = format!("{}_api_Token", "X".repeat(100));
        let parent = vars(&[(&long, "x"), (&"Y".repeat(100), "kept")]);
        assert_eq!(spawn_env(parent, vec![]), vars(&[(&"Y".repeat(100), "kept")]));
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
