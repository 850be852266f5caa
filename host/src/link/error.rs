//! Why a world cannot be linked. Every refusal names the component and the interface.

/// A refused link; `code()` is stable, the message is for humans.
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    #[error("{component} imports {interface}, but no provider in this world exports it{hint}")]
    Missing {
        component: String,
        interface: String,
        /// How to fix it, when a built-in provider serves the interface (else empty).
        hint: String,
    },
    #[error("{component} imports {interface}, which {providers} all export; name one in the world file")]
    Ambiguous {
        component: String,
        interface: String,
        providers: String,
    },
    #[error("{component} imports {interface}, but {provider} exports the incompatible version {offered}")]
    Version {
        component: String,
        interface: String,
        provider: String,
        offered: String,
    },
    #[error("link cycle: {path}")]
    Cycle { path: String },
    #[error(
        "{component} imports the host native {interface}, but only components listed as providers may import seam:host/*"
    )]
    HostForbidden { component: String, interface: String },
    #[error(
        "plugin {component} imports {interface} of seam {seam} (served by {provider}), but the world file does not grant it {seam}"
    )]
    NotGranted {
        component: String,
        interface: String,
        seam: String,
        provider: String,
    },
    #[error("{component} imports {interface}, which this host does not implement")]
    UnknownNative { component: String, interface: String },
    #[error("{component} imports {interface}.{function}, which {provider} {problem}")]
    Function {
        component: String,
        interface: String,
        function: String,
        provider: String,
        problem: String,
    },
    #[error("{component} imports {item}, which is not an interface instance this host can link")]
    Unsupported { component: String, item: String },
    #[error("{component}: {message}")]
    Instantiate { component: String, message: String },
    #[error(
        "in the {seam} stack, {wrapper} does not call {inner} below it, so {inner} would never run; \
         a stack lists its wrappers first, outermost first, and the provider that does the work last"
    )]
    StackUnreachable {
        seam: String,
        wrapper: String,
        inner: String,
    },
    #[error(
        "providers.{label} names {provider}, which does not provide the {label} seam (it exports \
         {exports}); a provider is listed under the seam it serves"
    )]
    LabelMismatch {
        label: String,
        provider: String,
        exports: String,
    },
}

impl LinkError {
    pub fn code(&self) -> &'static str {
        match self {
            Self::Missing { .. } => "LINK_MISSING",
            Self::Ambiguous { .. } => "LINK_AMBIGUOUS",
            Self::Version { .. } => "LINK_VERSION",
            Self::Cycle { .. } => "LINK_CYCLE",
            Self::HostForbidden { .. } => "LINK_HOST_FORBIDDEN",
            Self::NotGranted { .. } => "LINK_NOT_GRANTED",
            Self::UnknownNative { .. } => "LINK_UNKNOWN_NATIVE",
            Self::Function { .. } => "LINK_TYPE_MISMATCH",
            Self::Unsupported { .. } => "LINK_UNSUPPORTED",
            Self::Instantiate { .. } => "LINK_INSTANTIATE",
            Self::StackUnreachable { .. } => "LINK_STACK_UNREACHABLE",
            Self::LabelMismatch { .. } => "LINK_LABEL_MISMATCH",
        }
    }
}
