//! Linking: resolve each component's imports to providers (plan) and forward calls across
//! them at run time, interface-agnostically (forward).

pub mod error;
pub mod forward;
pub mod names;
pub mod plan;
pub mod plugin_identity;
pub mod plugin_policy;
pub mod typecheck;

pub use error::LinkError;
