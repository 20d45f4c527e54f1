//! Why an ioco suite could not be generated: budgets, refusals, the bound, and a model that has
//! no suspension automaton. Every file of `suite/ioco/` returns this error; the pipeline wraps
//! it in the crate's top-level error with the same message.

use crate::model::ModelError;
use crate::suite::costs::CostRefusal;

/// Why a suite could not be generated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IocoSuiteError {
    /// The construction would exceed a budget.
    #[error("{what} exceeds the budget of {budget}; {advice}")]
    Budget {
        /// What grew, phrased to precede "exceeds".
        what: String,
        /// The limit.
        budget: u128,
        /// What the user can do.
        advice: String,
    },
    /// A figure of the suite exceeds its budget (checked before anything is written).
    #[error(transparent)]
    Refused(Box<CostRefusal>),
    /// `ioco-auto` found no candidate within the budgets: one line per candidate, each reason
    /// whole, then the advice.
    #[error(
        "no complete suite for n = {n} fits the budgets:\n{}\n{advice}",
        reasons.iter().map(|r| format!("  {r}")).collect::<Vec<_>>().join("\n")
    )]
    NoCandidate {
        /// The bound.
        n: usize,
        /// Why each candidate was refused or left out, one per candidate.
        reasons: Vec<String>,
        /// What the user can do (never a method that was just refused).
        advice: String,
    },
    /// `ioco-auto` only: a candidate's bounded traces outgrew what a suite cheaper than the
    /// best one found can have (see [`auto`](super::auto)).
    #[error(
        "its plan reached {trace_nodes} bounded traces, so its suite takes a step for each but the empty one"
    )]
    CannotWin {
        /// The trace nodes planned when it stopped.
        trace_nodes: usize,
    },
    /// `n = 0` asks for nothing.
    #[error("n must be at least 1 (the initial state is always specified)")]
    ZeroBound,
    /// The model has no suspension automaton, or minimising it failed (see
    /// [`super::suspension_for`]).
    #[error("{path}: {source}")]
    Model {
        /// The file the model came from.
        path: String,
        /// The violation.
        #[source]
        source: ModelError,
    },
}

impl IocoSuiteError {
    /// The refusal without its advice, for a table of refused candidates whose advice is given
    /// once for all of them (a candidate's own advice may name another refused candidate).
    pub fn reason(&self) -> String {
        match self {
            IocoSuiteError::Budget { what, budget, .. } => {
                format!("{what} exceeds the budget of {budget}")
            }
            IocoSuiteError::Refused(r) => r.overruns(),
            other => other.to_string(),
        }
    }
}

impl From<Box<CostRefusal>> for IocoSuiteError {
    fn from(e: Box<CostRefusal>) -> Self {
        IocoSuiteError::Refused(e)
    }
}
