//! Errors raised when a model violates the invariants of its type.

use super::alphabet::KindConflict;

/// A model that does not satisfy the definition of its type.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// A transition names a state that does not exist.
    #[error("transition refers to state {state}, but the model has {num_states} states")]
    StateOutOfRange {
        /// The offending id.
        state: u32,
        /// Number of states.
        num_states: usize,
    },
    /// A transition names a label that does not exist.
    #[error("transition refers to label {label}, but the alphabet has {num_labels} labels")]
    LabelOutOfRange {
        /// The offending id.
        label: u32,
        /// Number of labels.
        num_labels: usize,
    },
    /// A deterministic model has two transitions with the same source and label.
    #[error(
        "state `{state}` has more than one `{label}` transition, but the model must be deterministic"
    )]
    Nondeterministic {
        /// State name.
        state: String,
        /// Label name.
        label: String,
    },
    /// A suspension automaton state has no output (van den Bos Def. 3.5).
    #[error("state `{state}` enables no output (not even quiescence), so it is blocking")]
    Blocking {
        /// State name.
        state: String,
    },
    /// An internal label in a model type that has none.
    #[error("label `{label}` is internal, but this model type has no internal steps")]
    InternalLabel {
        /// Label name.
        label: String,
    },
    /// The model has no states.
    #[error("the model has no states")]
    Empty,
    /// A label has two kinds.
    #[error(transparent)]
    KindConflict(#[from] KindConflict),
    /// A partial Mealy machine was given to a method that needs a complete one.
    #[error(
        "the Mealy machine is partial: state `{state}` has no transition for input `{input}` (use --complete self-loop|sink)"
    )]
    MissingTransition {
        /// State name.
        state: String,
        /// Input name.
        input: String,
    },
    /// Too many states or labels for 32-bit ids, or a construction over its budget.
    #[error("{what} exceeds the budget of {budget}; {advice}")]
    Budget {
        /// What grew.
        what: String,
        /// The limit.
        budget: usize,
        /// What the user can do.
        advice: String,
    },
    /// A Mealy machine uses one name as input and as output, so it has no ioco reading.
    #[error(
        "`{name}` is both an input and an output of the Mealy machine, but ioco needs disjoint input and output labels; rename one of them"
    )]
    InputOutputClash {
        /// The shared name.
        name: String,
    },
    /// A transformation was asked to act on an input the model does not have.
    #[error("the model has no input `{input}`; its inputs are: {known}")]
    UnknownInput {
        /// The name given.
        input: String,
        /// The model's inputs, comma-separated.
        known: String,
    },
    /// Hiding inputs was asked of a model that is not a Mealy machine.
    #[error(
        "only the inputs of a Mealy machine can be hidden, and only its labels merged; rename \
         labels of an LTS (to `tau`, or to one name) instead"
    )]
    HideNeedsMealy,
    /// A merge `A=B` does not name two labels of the Mealy machine.
    #[error("`{spec}` does not name two {kind}s `A=B` of the model; its {kind}s are: {known}")]
    BadMerge {
        /// The argument given.
        spec: String,
        /// `input` or `output`.
        kind: &'static str,
        /// The model's labels of that kind, comma-separated.
        known: String,
    },
}
