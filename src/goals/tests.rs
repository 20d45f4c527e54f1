//! Tests of the goals module.
