//! Model files: format detection, parsers and writers for Aldebaran `.aut`, Graphviz DOT, FSMlib
//! `.fsm` and the native YAML/JSON schema, all producing [`Model`](crate::model::Model)s.
//!
//! Parsers report [`ParseError`]s as `FILE:LINE:COL: found X, expected Y`; suspicious but
//! acceptable input (such as a DOT file without a start marker) produces [`Warning`]s that the
//! caller decides whether to print. Every writer's output reads back to an equal model in the same
//! format (`.aut` numbers states, so state names survive only in DOT, YAML and JSON).
//!
//! Symbolic transition systems (`.sts.yaml`) are read above this layer, by `crate::sts`, which
//! hands its parser to [`load_model_with`].
//!
//! The files: `options.rs` (formats, load options), `text.rs` (UTF-8 checks), `position.rs`
//! (positions, [`ParseError`], [`Warning`]), `error.rs` ([`FormatError`]); the parsers and
//! writers `aut.rs`, `dot/`, `fsm.rs`, `native/` on `build.rs` (labels to models),
//! `locate.rs` and `unique_keys.rs`; the annotations `timeouts.rs` and `requirements.rs`; then
//! `load.rs` (reading files and dispatching to the parsers), `representable.rs` and `write.rs`.

pub mod aut;
mod build;
pub mod dot;
mod error;
pub mod fsm;
mod load;
pub(crate) mod locate;
pub mod native;
mod options;
pub mod position;
mod representable;
pub mod requirements;
mod text;
pub mod timeouts;
pub(crate) mod unique_keys;
mod write;

pub(crate) use build::name_problem;
pub use error::FormatError;
pub use load::{
    Loaded, STDIN_NAME, STDIN_PATH, load_model, load_model_with, load_model_with_warnings,
    parse_model, parse_model_with_warnings,
};
pub use options::{Format, LoadOptions, format_of};
pub use position::{ParseError, Position, Span, Warning};
pub use representable::unrepresentable;
pub use text::{first_non_utf8, skip_bom, utf8_text};
pub use write::{
    AnnotatedText, suspension_as_lts, write_model, write_model_annotated, write_suspension,
    write_text,
};
