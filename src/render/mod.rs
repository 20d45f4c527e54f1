//! Rendering of suites for people and test runners: TTCN-3-like text and standalone Python and
//! Rust test programs ([`programs`]).

pub mod programs;

pub use programs::{Format, RenderError, RenderedFile, render_suite, write_files};
