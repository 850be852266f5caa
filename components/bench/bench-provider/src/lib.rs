//! `bench-provider`: exports `seam-bench:noop`, a function that does nothing but add one, so a
//! benchmark of calls into it measures the crossing alone.

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:bench-provider;

            world bench-provider {
                export seam-bench:noop/noop@0.1.0;
            }
        "#,
        path: ["../wit"],
        generate_all,
    });
}

use bindings::exports::seam_bench::noop::noop::Guest;

struct Noop;

impl Guest for Noop {
    fn noop(x: u32) -> u32 {
        x.wrapping_add(1)
    }
}

bindings::export!(Noop with_types_in bindings);
