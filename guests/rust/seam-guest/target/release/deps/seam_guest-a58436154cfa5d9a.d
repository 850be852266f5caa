/work/main/guests/rust/seam-guest/target/release/deps/seam_guest-a58436154cfa5d9a.d: src/lib.rs src/args.rs src/exit_marker.rs src/json.rs src/output.rs src/tool_result.rs

/work/main/guests/rust/seam-guest/target/release/deps/libseam_guest-a58436154cfa5d9a.rlib: src/lib.rs src/args.rs src/exit_marker.rs src/json.rs src/output.rs src/tool_result.rs

/work/main/guests/rust/seam-guest/target/release/deps/libseam_guest-a58436154cfa5d9a.rmeta: src/lib.rs src/args.rs src/exit_marker.rs src/json.rs src/output.rs src/tool_result.rs

src/lib.rs:
src/args.rs:
src/exit_marker.rs:
src/json.rs:
src/output.rs:
src/tool_result.rs:
