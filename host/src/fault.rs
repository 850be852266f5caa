//! Faults: how a component failing mid-call is reported. A fault ends that call only.

use wasmtime::Trap;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    /// COMPONENT_TRAP, COMPONENT_TIMEOUT, COMPONENT_MEMORY_LIMIT, COMPONENT_STACK_OVERFLOW,
    /// WORLD_AT_CAPACITY (every instance slot is taken by calls in flight; retry later).
    pub code: &'static str,
    /// The component the failure started in.
    pub component: String,
    pub message: String,
}

impl Fault {
    pub(crate) fn classify(
        error: &wasmtime::Error,
        component: String,
        stderr: String,
        timed_out: bool,
        memory_denied: bool,
    ) -> Self {
        let trap = error.downcast_ref::<Trap>().copied();
        let at_capacity = error.downcast_ref::<wasmtime::PoolConcurrencyLimitError>().is_some();
        let (code, what) = match trap {
            _ if at_capacity => (
                "WORLD_AT_CAPACITY",
                format!("could not be instantiated: too many calls in flight ({error})"),
            ),
            Some(Trap::StackOverflow) => ("COMPONENT_STACK_OVERFLOW", "overflowed its stack".to_string()),
            Some(Trap::Interrupt) if timed_out => (
                "COMPONENT_TIMEOUT",
                "ran past its guest time limit (runaway loop?)".to_string(),
            ),
            _ if memory_denied => (
                "COMPONENT_MEMORY_LIMIT",
                "tried to grow its memory past the limit".to_string(),
            ),
            Some(trap) => ("COMPONENT_TRAP", format!("trapped: {trap}")),
            None => ("COMPONENT_TRAP", format!("failed: {error:#}")),
        };
        let mut message = format!("component {component} {what}");
        if !stderr.is_empty() {
            message.push('\n');
            message.push_str(&stderr);
        }
        Self {
            code,
            component,
            message,
        }
    }
}
