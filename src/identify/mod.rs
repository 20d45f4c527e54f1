//! State identification for suspension automata (van den Bos Ch. 2-3): distinguishing
//! experiments as explicit DAGs ([`experiment`]), pairwise distinguishing graphs giving harmonised
//! state identifiers (Algorithm 1, [`distinguishing_graph`]), splitting graphs (Algorithms 3-4)
//! and adaptive distinguishing graphs (Algorithm 5) topped up with pairwise graphs. Mealy machines
//! have their own identification structures in [`mealy`] (splitting trees, adaptive distinguishing
//! sequences, separating families, UIO sequences).

pub mod adg;
pub mod canonical;
pub mod distinguishing_graph;
pub mod experiment;
pub mod forced;
pub mod mealy;
pub mod random;
pub mod repair;
pub mod report;
pub mod splitting_graph;

pub use crate::analysis::Preference;
pub use adg::{
    AdaptiveIdentification, AdgMetrics, AnalysedGraph, PrefixInputs, adaptive_graph,
    adaptive_graph_as_built,
};
pub use distinguishing_graph::{ExperimentId, StateIdentifiers, pairwise_graph, set_graph};
pub use experiment::{Experiment, ExperimentNode, Race, Step, SuiteLabels, suite_model};
pub use forced::{ForcedLosses, forced_losses};
pub use repair::RepairMemo;
pub use report::{BoundReport, DistinguishOptions, DistinguishReport, Distinguished, distinguish};
pub use splitting_graph::{
    InputSplitRule, SplitNode, SplitOptions, SplitPolicy, SplittingGraph, Witness,
};

/// A state identification construction that cannot complete.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IdentifyError {
    /// An exponential construction outgrew its budget.
    #[error("{what} exceed the budget of {budget}; {advice}")]
    Budget {
        /// What grew.
        what: String,
        /// The limit.
        budget: usize,
        /// What the user can do.
        advice: String,
    },
    /// Minimising or renumbering the automaton failed (a malformed automaton).
    #[error(transparent)]
    Model(#[from] crate::model::ModelError),
    /// No leaf of an incomplete splitting graph could be split (ruled out by Lemma 3.26).
    #[error(
        "the splitting graph cannot be completed: {leaves} leaves with incompatible states admit no split"
    )]
    Stuck {
        /// Leaves left.
        leaves: usize,
    },
}

impl From<crate::analysis::PairBudgetExceeded> for IdentifyError {
    fn from(e: crate::analysis::PairBudgetExceeded) -> Self {
        IdentifyError::Budget {
            what: format!(
                "the {} state pairs of the compatibility relation ({} states)",
                e.pairs, e.states
            ),
            budget: e.budget,
            advice: "use a model with fewer states (embedding a Mealy machine adds a state per \
                     transition), or raise the budget (distinguish --max-pairs)"
                .into(),
        }
    }
}
