//! ncomplete: n-complete test suites from behavioural models.
//!
//! The pipeline flows one way: `format` parses files into `model` types; `analysis` and `identify`
//! compute compatibility and state identifiers; `suite` builds test suites; `render` writes them;
//! `exec` and `check` run and judge them. Lower layers never depend on higher ones. On top,
//! [`pipeline`] is every command as one function over plain option structs: what the command
//! line and the Python package call.
//!
//! # Example
//!
//! Load a model, generate its n-complete ioco suite, render it as a pytest module and run it
//! exactly against an implementation model:
//!
//! ```
//! use ncomplete::exec::{InputEnabling, run_suite, system_for_suite};
//! use ncomplete::format::{self, Format, LoadOptions};
//! use ncomplete::suite::ioco::{self, Bound, Budget, IocoMethod};
//!
//! // Load: a tea machine as an LTS in Aldebaran format (`?` marks inputs, `!` outputs); it
//! // accepts a coin in every state, as an implementation run by the simulator must.
//! let text = "des (0, 4, 3)\n(0, \"?coin\", 1)\n(1, \"?coin\", 1)\n(1, \"!tea\", 2)\n\
//!             (2, \"?coin\", 1)\n";
//! let options = LoadOptions { format: Some(Format::Aut), ..LoadOptions::default() };
//! let spec = format::parse_model(text, "tea.aut", &options)?;
//!
//! // Generate: T(S, n) of van den Bos Def. 2.37 for implementations with at most 3 states.
//! let sa = ioco::suspension_for(&spec, "tea.aut")?;
//! let suite = ioco::generate(&sa, IocoMethod::Complete, Bound::States(3), Budget::default())?;
//! assert!(suite.header().guarantee.contains("at most 3"));
//! let tests: Vec<_> = suite.tests().collect();
//!
//! // Render: a pytest module and its runtime, as files relative to an output directory.
//! let files =
//!     ncomplete::render::render_suite(suite.header(), &tests, ncomplete::render::Format::Python, None)?;
//! assert!(files.iter().any(|f| f.path.extension() == Some("py".as_ref())));
//!
//! // Run: the specification conforms to itself, so it passes; an implementation that
//! // serves coffee fails.
//! let model = &suite.header().model;
//! let passing = system_for_suite(&spec, model, InputEnabling::Reject)?;
//! assert!(!run_suite(&passing, &tests).failed());
//! let coffee = format::parse_model(&text.replace("!tea", "!coffee"), "coffee.aut", &options)?;
//! let failing = system_for_suite(&coffee, model, InputEnabling::Reject)?;
//! assert!(run_suite(&failing, &tests).failed());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The command line does the same with files: `ncomplete generate tea.aut --n 3 --format python
//! --out tests/` and `ncomplete run suite.json --model impl.aut`.
//!
//! # Features
//!
//! - `smt` (off by default): symbolic transition systems (`*.sts.yaml`, [`sts`]) executed,
//!   explored and tested with the Z3 SMT solver. It links the system's Z3 and generates the
//!   bindings with bindgen, so it needs `libz3-dev` and `libclang-dev` (Debian, Ubuntu) or
//!   `z3` and `llvm` (Homebrew) to build: `cargo install --locked --path . --features smt` in
//!   a checkout. Without it the STS commands say how to enable it.

pub mod analysis;
pub mod audit;
pub mod check;
pub mod error;
pub mod exec;
pub mod fast_hash;
pub mod format;
pub mod goals;
pub mod identify;
pub mod info;
pub mod interrupt;
pub mod model;
pub mod output;
pub mod pipeline;
pub mod progress;
pub mod render;
pub mod rng;
#[cfg(test)]
mod scratch;
pub mod sts;
pub mod suite;
pub mod timing;
pub use error::{Error, Result};
