//! The HTML report of a run (`ncomplete run --html FILE`, `ncomplete explore --html FILE`): one
//! self-contained file a person opens in a browser, without network access (inline CSS and
//! inline SVG, no script, no external font or style sheet; a Content-Security-Policy forbids
//! loading anything).
//!
//! It holds the suite verdict and the counts of pass, fail and inconclusive tests; the suite's
//! method, bound n and guarantee, the system and the measured times; one row per test; the
//! failing traces drawn as sequence diagrams (two lifelines, tester and system: inputs are
//! arrows from the tester to the system, outputs arrows back, quiescence δ a marked wait on
//! the tester's lifeline, and the offending last step highlighted with what was expected
//! there); and the specification drawn with the transitions the run covered and those it
//! missed. An STS run's page (`explore MODEL.sts.yaml --cover ... --html FILE`) is this one with
//! a row per purpose and the STS's switches as its coverage section
//! ([`super::sts_report_html`]).
//!
//! Coverage ([`SpecCoverage`]) is counted on the specification's suspension automaton (TorX
//! Def. 2.2.12; a Mealy machine through `q --i--> q/i --o--> q'`), over its reachable states and
//! transitions, quiescence loops included, as `explore` counts it; a `run` whose specification
//! is a Mealy machine leaves out the quiescence loops of its suspension automaton (a Mealy suite
//! sends an input wherever the machine waits for one, so it never observes quiescence: those
//! loops are neither covered nor missed, and not drawn). A trace is replayed from the
//! initial state, marking every transition it takes, until a step the specification does not
//! enable (the failing observation, or an input it leaves unspecified, after which ioco allows
//! anything). A run against a system replays the last observed execution of each test; a run in
//! simulation explores every execution of every test against the implementation model
//! ([`super::simulate`]), so it marks what some execution takes: the sweep of `run_test` over
//! the pairs (test node, implementation state), with the specification state as a third
//! component (both systems are deterministic over the observed labels, so every triple is
//! visited once). `explore` hands over the marks of the run it followed.
//!
//! The drawing is a deterministic layered layout: states on the levels of a breadth-first
//! search from the initial state (in the automaton's transition order), one column per level;
//! each transition a quadratic curve whose bend separates parallel and opposite transitions,
//! self-loops above their state. Models beyond [`DRAWN_STATES`] states or
//! [`DRAWN_TRANSITIONS`] transitions are not drawn (the figures and the missed transitions are
//! still listed).
//!
//! Every text from a model, suite or system (names, labels, messages, the command) passes
//! through [`html_text`](crate::render::escape::html_text). The same inputs give the same
//! bytes: a run in simulation has no times, and only times measured against a process appear.
//!
//! The pieces, bottom to top: `page.rs` (limits, style, formatters), `coverage.rs`
//! ([`SpecCoverage`]), `switches.rs` (an STS run's [`SwitchCoverage`]), `diagrams.rs` (sequence
//! diagrams, the drawn model), `report.rs` ([`HtmlReport`] and its sections).

mod coverage;
mod diagrams;
mod page;
mod report;
mod switches;
#[cfg(test)]
mod tests;

pub use coverage::{CoverageCounts, SpecCoverage};
pub(in crate::exec) use page::seconds;
pub use page::{DRAWN_FAILURES, DRAWN_STATES, DRAWN_STEPS, DRAWN_TRANSITIONS, MISSED_LISTED};
pub(in crate::exec) use report::CoverageView;
pub use report::{HtmlReport, NO_SPEC_ADVICE};
pub use switches::SwitchCoverage;
