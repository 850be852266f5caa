//! A live world: the world a server serves, reloaded from its file and swapped atomically.
//!
//! A reload loads, link-checks and compiles the new world on the caller's thread while the old
//! one keeps serving; only then does it take the place of the old one. A call holds the
//! `Arc<World>` it was admitted with, so calls in flight finish on the old world and new calls
//! get the new one. A world that fails to load is refused and the old one stays.

pub mod watch;

use crate::world::file::{WorldFile, WorldFileError};
use crate::world::{Runtime, World, WorldError};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

/// Why a reload was refused; the old world keeps serving.
#[derive(Debug, thiserror::Error)]
pub enum ReloadError {
    #[error(transparent)]
    File(#[from] WorldFileError),
    #[error("[{}] {}", .0.code(), .0)]
    World(#[from] WorldError),
}

impl ReloadError {
    pub fn code(&self) -> &'static str {
        match self {
            Self::File(_) => "WORLD_INVALID",
            Self::World(e) => e.code(),
        }
    }
}

/// What a successful reload changed.
#[derive(Debug)]
pub struct Swapped {
    /// The set of tools (names, descriptions or schemas) differs from the old world's.
    pub tools_changed: bool,
    /// State namespaces cleared because their provider changed or left the world.
    pub cleared: Vec<String>,
}

pub struct LiveWorld {
    runtime: Arc<Runtime>,
    /// The world file; None for the built-in world, which never changes.
    path: Option<PathBuf>,
    workspace: Option<PathBuf>,
    current: RwLock<Arc<World>>,
}

impl LiveWorld {
    /// Serve `world`, loaded from `path` (None: the built-in world) with `workspace` overriding
    /// the file's.
    pub fn new(runtime: Arc<Runtime>, world: World, path: Option<&Path>, workspace: Option<&Path>) -> Self {
        Self {
            runtime,
            path: path.map(Path::to_path_buf),
            workspace: workspace.map(Path::to_path_buf),
            current: RwLock::new(Arc::new(world)),
        }
    }

    /// The world new calls run on.
    pub fn current(&self) -> Arc<World> {
        self.current.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The world file, when there is one to watch.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Load the world file again and swap the result in, or refuse it and keep the old world.
    pub fn reload(&self) -> Result<Swapped, ReloadError> {
        let Some(path) = &self.path else {
            return Ok(Swapped {
                tools_changed: false,
                cleared: Vec::new(),
            });
        };
        let file = WorldFile::load(path)?;
        let new = Arc::new(World::load(&self.runtime, file, self.workspace.as_deref())?);
        let old = std::mem::replace(
            &mut *self.current.write().unwrap_or_else(|p| p.into_inner()),
            new.clone(),
        );
        let cleared = stale_spaces(&old, &new);
        for space in &cleared {
            new.host().state.clear(space);
        }
        Ok(Swapped {
            tools_changed: old.tools() != new.tools(),
            cleared,
        })
    }
}

/// Namespaces whose provider is not in the new world with the same content and config: the
/// state they hold was written by other code, so it is dropped.
fn stale_spaces(old: &World, new: &World) -> Vec<String> {
    let kept: BTreeSet<(String, &str)> = new.provider_spaces().into_iter().collect();
    let before: BTreeSet<(String, &str)> = old.provider_spaces().into_iter().collect();
    let changed = before.symmetric_difference(&kept).map(|(space, _)| space.clone());
    changed.collect::<BTreeSet<_>>().into_iter().collect()
}
