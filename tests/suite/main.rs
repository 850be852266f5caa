//! seam's integration tests: one binary, one module per suite.

mod wit_packages;
