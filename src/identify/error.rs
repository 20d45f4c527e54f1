//! The error of state identification: a budget outgrown, a malformed automaton, or a splitting
//! graph that cannot be completed.

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
