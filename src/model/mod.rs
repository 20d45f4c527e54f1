//! The model layer: labelled transition systems, deterministic automata with inputs and outputs,
//! suspension automata and Mealy machines, with interned labels and dense integer ids.
//!
//! Every other layer (formats, analyses, suites, rendering) depends on these types and never the
//! other way round.

mod alphabet;
mod automaton;
mod error;
mod ids;
mod lts;
mod mealy;
mod transitions;

pub use alphabet::{Alphabet, Interner, KindConflict, LabelKind};
pub use automaton::{Automaton, SuspensionAutomaton, suspension_from_marked};
pub use error::ModelError;
pub use ids::{LabelId, StateId};
pub use lts::{Lts, lts_from_marked};
pub use mealy::{Mealy, mealy_from_named};
pub use transitions::Transitions;

/// Any model the tool reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Model {
    /// A labelled transition system (possibly nondeterministic, with internal steps).
    Lts(Lts),
    /// A deterministic Mealy machine.
    Mealy(Mealy),
}
