//! ncomplete: n-complete test suites from behavioural models.
//!
//! The pipeline flows one way: `format` parses files into `model` types; `analysis` and `identify`
//! compute compatibility and state identifiers; `suite` builds test suites; `render` writes them;
//! `exec` and `check` run and judge them. Lower layers never depend on higher ones.

pub mod analysis;
pub mod audit;
pub mod check;
pub mod error;
pub mod exec;
pub mod format;
pub mod goals;
pub mod identify;
pub mod info;
pub mod model;
pub mod output;
pub mod render;
pub mod rng;
pub mod suite;
pub use error::{Error, Result};
