//! Interface names as they appear in component imports and exports: `ns:pkg/iface@version`.

use semver::Version;
use std::fmt;

/// A parsed interface name. Plain (unqualified) import names are not interfaces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InterfaceName {
    /// `ns:pkg`
    pub package: String,
    /// `iface`
    pub interface: String,
    pub version: Option<Version>,
}

impl InterfaceName {
    pub fn parse(name: &str) -> Option<Self> {
        let (path, version) = match name.split_once('@') {
            Some((path, v)) => (path, Some(Version::parse(v).ok()?)),
            None => (name, None),
        };
        let (package, interface) = path.split_once('/')?;
        if !package.contains(':') {
            return None;
        }
        Some(Self {
            package: package.to_string(),
            interface: interface.to_string(),
            version,
        })
    }

    /// `ns:pkg/iface`, the identity of an interface across versions.
    pub fn unversioned(&self) -> String {
        format!("{}/{}", self.package, self.interface)
    }

    pub fn namespace(&self) -> &str {
        self.package.split(':').next().unwrap_or_default()
    }

    /// Whether an export of this version can serve an import of `wanted`: semver-compatible
    /// (same major, or same minor below 1.0) and not older.
    pub fn serves(&self, wanted: &InterfaceName) -> bool {
        if self.unversioned() != wanted.unversioned() {
            return false;
        }
        match (&self.version, &wanted.version) {
            (None, None) => true,
            (Some(have), Some(want)) => {
                let same_line = if have.major == 0 && want.major == 0 {
                    have.minor == want.minor
                } else {
                    have.major == want.major
                };
                same_line && have >= want
            }
            _ => false,
        }
    }
}

impl fmt::Display for InterfaceName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.unversioned())?;
        if let Some(v) = &self.version {
            write!(f, "@{v}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> InterfaceName {
        InterfaceName::parse(s).expect(s)
    }

    #[test]
    fn parses_versioned_and_plain_names() {
        let n = name("seam:fs/fs@0.1.0");
        assert_eq!((n.package.as_str(), n.interface.as_str()), ("seam:fs", "fs"));
        assert_eq!(n.version, Some(Version::new(0, 1, 0)));
        assert_eq!(n.namespace(), "seam");
        assert!(InterfaceName::parse("run").is_none());
        assert!(InterfaceName::parse("a/b").is_none());
    }

    #[test]
    fn version_compatibility_follows_semver() {
        assert!(name("seam:fs/fs@0.1.2").serves(&name("seam:fs/fs@0.1.0")));
        assert!(!name("seam:fs/fs@0.1.0").serves(&name("seam:fs/fs@0.1.2")));
        assert!(!name("seam:fs/fs@0.2.0").serves(&name("seam:fs/fs@0.1.0")));
        assert!(name("a:b/c@1.4.0").serves(&name("a:b/c@1.2.0")));
        assert!(!name("a:b/c@2.0.0").serves(&name("a:b/c@1.2.0")));
        assert!(!name("seam:fs/fs").serves(&name("seam:fs/fs@0.1.0")));
        assert!(!name("seam:fs/other@0.1.0").serves(&name("seam:fs/fs@0.1.0")));
    }
}
