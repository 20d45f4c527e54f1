//! Conformance checking between two models: ioco and uioco between suspension automata or LTSs
//! (van den Bos Def. 2.3, TorX thesis Def. 2.2.17), Mealy equivalence, and the language-based
//! conformance conf(D,F) of EVEREST (seed 003, Def. 5, Prop. 1-2). Every negative verdict comes
//! with a shortest witness found by breadth-first search over the product of the models.

pub mod command;
pub mod ioco;
pub mod language;
pub mod mealy;
pub mod observe;
pub mod race;
pub mod regex;
#[cfg(test)]
mod tests;

pub use command::{CheckReport, CheckRequest, LanguageSource, check_models};
pub use ioco::{IocoCounterexample, IocoOptions, IocoVerdict, MissingInputs, check_ioco};
pub use language::{Language, LanguageVerdict, LanguageWitness, Violation, check_language};
pub use mealy::{MealyDifference, MealyVerdict, check_mealy};
pub use observe::{Observable, Observer, Vocabulary};
pub use race::check_ioco_under_race;
pub use regex::{Regex, RegexError};

use crate::model::LabelKind;

/// Default bound on the observation states built when determinising an LTS.
pub const DEFAULT_BUDGET: usize = 1_000_000;

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
}
