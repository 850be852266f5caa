/work/main/guests/rust/seam-guest/target/release/deps/seam_guest-7a70e88243bccc07.d: src/lib.rs src/args.rs src/exit_marker.rs src/json.rs src/output.rs src/tool_result.rs Cargo.toml

/work/main/guests/rust/seam-guest/target/release/deps/libseam_guest-7a70e88243bccc07.rmeta: src/lib.rs src/args.rs src/exit_marker.rs src/json.rs src/output.rs src/tool_result.rs Cargo.toml

src/lib.rs:
src/args.rs:
src/exit_marker.rs:
src/json.rs:
src/output.rs:
src/tool_result.rs:
Cargo.toml:

# env-dep:CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__
# env-dep:CLIPPY_CONF_DIR
