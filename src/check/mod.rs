//! Conformance checking between two models: ioco and uioco between suspension automata or LTSs
//! (van den Bos Def. 2.3, TorX thesis Def. 2.2.17), Mealy equivalence, and the language-based
//! conformance conf(D,F) of EVEREST (seed 003, Def. 5, Prop. 1-2). Every negative verdict comes
//! with a shortest witness found by breadth-first search over the product of the models.

pub mod command;
mod error;
pub mod ioco;
pub mod language;
pub mod mealy;
pub mod observe;
pub mod race;
pub mod regex;
#[cfg(test)]
mod tests;

pub use command::{CheckReport, CheckRequest, LanguageSource, check_models};
pub use error::{CheckError, RegexError};
pub use ioco::{IocoCounterexample, IocoOptions, IocoVerdict, MissingInputs, check_ioco};
pub use language::{Language, LanguageVerdict, LanguageWitness, Violation, check_language};
pub use mealy::{MealyDifference, MealyVerdict, check_mealy};
pub use observe::{DEFAULT_BUDGET, Observable, Observer, Vocabulary};
pub use race::check_ioco_under_race;
pub use regex::Regex;
