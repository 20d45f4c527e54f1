//! The error of mutation audits: [`AuditError`], why mutants or an audit cannot be made (a bound
//! that does not fit the model, a method unfit for it, a check or a simulated run that cannot
//! be set up). Each variant prints as the crate's top-level error printed it before.

use crate::check::CheckError;
use crate::exec::ExecError;
use crate::model::ModelError;
use crate::suite::ioco::IocoSuiteError;

/// Why a mutation audit (or its mutants) cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    /// Options that do not fit together or do not fit the model.
    #[error("{0}")]
    Usage(String),
    /// A model (a mutant, or a suite's model) violates the definition of its type.
    #[error("{path}: {source}")]
    Model {
        /// The model, by its file or name.
        path: String,
        /// The violation.
        #[source]
        source: ModelError,
    },
    /// Something could not be written or drawn.
    #[error("{path}: {source}")]
    Io {
        /// What was written.
        path: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A mutant's verdict cannot be decided.
    #[error(transparent)]
    Check(#[from] CheckError),
    /// A mutant cannot run a suite.
    #[error(transparent)]
    Exec(#[from] ExecError),
    /// The bound of an ioco suite cannot be resolved.
    #[error("{0}")]
    IocoSuite(#[from] IocoSuiteError),
}
