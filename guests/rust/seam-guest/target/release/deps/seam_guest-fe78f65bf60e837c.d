/work/main/guests/rust/seam-guest/target/release/deps/seam_guest-fe78f65bf60e837c.d: src/lib.rs src/args.rs src/exit_marker.rs src/json.rs src/output.rs src/tool_result.rs

/work/main/guests/rust/seam-guest/target/release/deps/seam_guest-fe78f65bf60e837c: src/lib.rs src/args.rs src/exit_marker.rs src/json.rs src/output.rs src/tool_result.rs

src/lib.rs:
src/args.rs:
src/exit_marker.rs:
src/json.rs:
src/output.rs:
src/tool_result.rs:
