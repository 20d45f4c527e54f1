//! The error of goal-directed suites: [`GoalSuiteError`], why the goals of `generate --purpose`,
//! `--purpose-regex` or `--cover` or their suite cannot be made. Each variant prints as the
//! crate's top-level error printed it before.

use crate::suite::costs::CostRefusal;

/// Why a goal-directed suite cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum GoalSuiteError {
    /// Goals that do not fit the model, or options that do not fit together.
    #[error("{0}")]
    Usage(String),
    /// The suite refused before it was built: a cost figure exceeds its budget.
    #[error(transparent)]
    Refused(#[from] Box<CostRefusal>),
}
