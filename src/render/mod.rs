//! Pictures of models ([`draw`]), and rendering of suites for people, test runners and other tools: TTCN-3-like text and standalone
//! Python and Rust test programs ([`programs`]), and the one-test-per-line `words` format of FSM
//! tools ([`words`]).

pub mod draw;
pub mod escape;
pub mod programs;
pub mod words;

pub use programs::{
    ExplorerSpec, Format, PART_LIMIT, PartLimit, PartSizes, RenderError, RenderedFile,
    SuiteRenderer, render_suite, render_suite_in_parts, render_suite_with_explorer, write_files,
};
