//! A file named as the path of a glob. ripgrep lists a file it is given whatever the glob; a
//! model that asks for `*.py` under `src/main.rs` asks whether that file matches. So the file
//! is listed only when ripgrep, listing its directory one level deep under the glob, lists it
//! too (hidden, ignored and symlinked entries included: a named file is listed whatever ignore
//! files say, and whether or not it is a link, as ripgrep lists a path it is given).

use seam_guest::ToolResult;

use crate::args;
use crate::config::Config;
use crate::run::{self, Flow};
use crate::scope::Scope;

/// Whether the file `named` (as the scope's path named it, relative to its working directory)
/// matches the scope's glob.
pub fn matches_glob(scope: &Scope, named: &str, config: &Config) -> Result<bool, ToolResult> {
    let Some(glob) = &scope.glob else {
        return Ok(true);
    };
    // `named` is already home-expanded (see `args`): no home directory is asked for.
    let path = seam_guest::paths::in_session(Some(named), &scope.cwd, || None);
    let Some((dir, name)) = path.rsplit_once('/') else {
        return Ok(true);
    };
    let dir = if dir.is_empty() { "/" } else { dir };
    let mut listed = false;
    run::rg(args::directory_entries_argv(glob), dir, b'\0', config, |record| {
        listed = record == name;
        Ok(if listed { Flow::Enough } else { Flow::More })
    })?;
    Ok(listed)
}
