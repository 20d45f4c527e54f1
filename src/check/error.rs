//! The errors of conformance checking: [`CheckError`], why two models cannot be checked against
//! each other (or a check's input is malformed), and [`RegexError`], a regular expression over
//! labels that does not parse. They sit below every file of `check/`, which all return them.

use crate::model::{LabelKind, ModelError};

/// A regular expression that does not parse, or names a label no model has.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{source_name}:{line}:{col}: found {found}, expected {expected}")]
pub struct RegexError {
    /// Where the expression came from (a file, or `--desired`).
    pub source_name: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub col: usize,
    /// What was found.
    pub found: String,
    /// What was expected.
    pub expected: String,
}

/// Why two models cannot be checked against each other.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// A label is an input in one model and an output in the other.
    #[error("label `{label}` is {first:?} in one model but {second:?} in the {model}")]
    KindMismatch {
        /// The label.
        label: String,
        /// Its kind first seen.
        first: LabelKind,
        /// The model where it differs.
        model: String,
        /// Its other kind.
        second: LabelKind,
    },
    /// The implementation refuses an input the specification allows, and the verdict depends on
    /// what it would do.
    #[error(
        "the implementation is not input-enabled: its state `{state}` (after {trace}) does not accept input `{input}`, which the specification allows there; ioco assumes input-enabled implementations: use --missing-inputs self-loop (ignore the input, as JTorX does) or --missing-inputs cut (the behaviour after a refused input is not observed, as EVEREST does)"
    )]
    NotInputEnabled {
        /// Implementation state (or state set).
        state: String,
        /// The input.
        input: String,
        /// The trace leading there.
        trace: String,
    },
    /// A construction exceeded its budget.
    #[error(
        "{what} exceeds the budget of {budget} states; try smaller models or a larger --budget"
    )]
    Budget {
        /// What grew.
        what: String,
        /// The limit.
        budget: usize,
    },
    /// A regular expression does not parse.
    #[error("{0}")]
    Regex(#[from] RegexError),
    /// Models of different types.
    #[error("{0}")]
    Incompatible(String),
    /// Options of a check that do not fit together or do not fit the models.
    #[error("{0}")]
    Usage(String),
    /// A model that cannot take part in a check as it must (a Mealy machine without a
    /// suspension automaton).
    #[error("{path}: {source}")]
    Model {
        /// The model's file.
        path: String,
        /// The violation.
        #[source]
        source: ModelError,
    },
}
