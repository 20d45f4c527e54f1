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
mod onfsm;
mod requirements;
mod transitions;

mod complete;
mod from_mealy;
mod naming;
mod reachable;
mod sa_minimize;
mod suspension;
mod transform;

pub use alphabet::{Alphabet, Interner, KindConflict, LabelKind};
pub use automaton::{Automaton, SuspensionAutomaton, suspension_from_marked};
pub use error::ModelError;
pub use ids::{LabelId, StateId};
pub use lts::{Lts, lts_from_marked};
pub use mealy::{Mealy, mealy_from_named};
pub use onfsm::Onfsm;
pub use requirements::{NamedQuad, RequirementTags, TaggedStep, TaggedTransition, named_quads};
pub use transitions::Transitions;

pub use complete::{Completion, complete_mealy};
pub use from_mealy::{
    MealyEmbedding, disjoint_labels, mealy_to_lts, mealy_to_lts_with, mealy_to_suspension,
};
pub use reachable::RestrictToReachable;
pub use sa_minimize::{
    EquivalenceClasses, equivalence_classes, is_minimal_suspension, minimize_suspension,
};
pub use suspension::{
    DEFAULT_MAX_SUBSETS, Divergence, SuspensionOptions, divergent_states, lts_to_suspension,
};
pub use transform::{TransformOptions, Transformed, as_suspension_automaton, transform};

/// Any model the tool reads. A Moore machine is read as its Mealy translation
/// ([`Mealy::from_moore`]) and a nondeterministic Mealy machine as its LTS embedding
/// ([`Onfsm::to_lts`]); both remember what they were read as, for `info` and for writing back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Model {
    /// A labelled transition system (possibly nondeterministic, with internal steps).
    Lts(Lts),
    /// A deterministic Mealy machine.
    Mealy(Mealy),
}

#[cfg(test)]
mod transform_props;
