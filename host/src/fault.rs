//! Faults: how a component failing mid-call is reported. A fault ends that call only.

use wasmtime::{AsContextMut, Mutability, Trap, Val, ValType, WasmCoreDump};

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
    pub(crate) fn classify(error: &wasmtime::Error, component: String, stderr: String, seen: Seen) -> Self {
        let trap = error.downcast_ref::<Trap>().copied();
        let at_capacity = error.downcast_ref::<wasmtime::PoolConcurrencyLimitError>().is_some();
        let (code, what) = match trap {
            _ if at_capacity => (
                "WORLD_AT_CAPACITY",
                format!("could not be instantiated: too many calls in flight ({error})"),
            ),
            Some(Trap::StackOverflow) => ("COMPONENT_STACK_OVERFLOW", "overflowed its stack".to_string()),
            Some(Trap::MemoryOutOfBounds) if seen.guest_stack_ran_out => (
                "COMPONENT_STACK_OVERFLOW",
                "overflowed its stack (its own, in linear memory)".to_string(),
            ),
            Some(Trap::Interrupt) if seen.timed_out => (
                "COMPONENT_TIMEOUT",
                "ran past its guest time limit (runaway loop?)".to_string(),
            ),
            _ if seen.memory_denied => (
                "COMPONENT_MEMORY_LIMIT",
                "tried to grow its memory past the limit".to_string(),
            ),
            Some(trap) => ("COMPONENT_TRAP", format!("trapped: {trap}")),
            None => ("COMPONENT_TRAP", format!("failed: {}", describe(error))),
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

/// The error's chain as text, without the core dump a trap carries: its lists of modules and
/// globals are for `guest_stack_ran_out`, not for the reader.
fn describe(error: &wasmtime::Error) -> String {
    let dump = error.downcast_ref::<WasmCoreDump>().map(ToString::to_string);
    let causes: Vec<String> = error
        .chain()
        .map(|cause| cause.to_string())
        .filter(|cause| Some(cause) != dump.as_ref())
        .collect();
    causes.join(": ")
}

/// What the lane saw happen before the error.
pub(crate) struct Seen {
    pub timed_out: bool,
    pub memory_denied: bool,
    pub guest_stack_ran_out: bool,
}

/// The largest frame taken for a guest stack that ran out: its stack pointer is just below
/// zero, by at most one frame.
const MAX_FRAME: i32 = 64 << 20;

/// Whether an out-of-bounds access was a guest's stack in linear memory running out.
///
/// Compiled guests (Rust, C, anything through LLVM) keep their stack in linear memory, below
/// the data, growing down towards address 0; the engine's stack limit never sees it. Overflow
/// moves the stack pointer, a mutable i32 global kept 16-byte aligned, just below zero, and the
/// frame's first access is out of bounds. The trap's core dump holds every global of the
/// lane's instances; one that is negative, aligned and within a frame of zero is that stack
/// pointer. The engine gives no address for such a fault when a bulk memory operation
/// (a frame's `memset`) makes it.
pub(crate) fn guest_stack_ran_out(error: &wasmtime::Error, mut store: impl AsContextMut) -> bool {
    let out_of_bounds = error.downcast_ref::<Trap>() == Some(&Trap::MemoryOutOfBounds);
    let Some(dump) = error.downcast_ref::<WasmCoreDump>().filter(|_| out_of_bounds) else {
        return false;
    };
    dump.globals().iter().any(|global| {
        let ty = global.ty(&store);
        ty.mutability() == Mutability::Var
            && matches!(ty.content(), ValType::I32)
            && matches!(global.get(&mut store), Val::I32(sp) if (-MAX_FRAME..0).contains(&sp) && sp % 16 == 0)
    })
}
