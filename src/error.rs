//! The library's top-level error, carried to the binary, which prints it and exits with
//! [`Error::exit_code`] (2: bad input, usage or I/O; a check or suite that fails is no error,
//! and the binary exits with 1 for it).
//!
//! It belongs to the pipeline layer: every module below returns an error of its own
//! ([`crate::check::CheckError`], [`crate::audit::AuditError`], ...), which converts into
//! [`Error`] (`From`: wrapped, or mapped back to the variant that printed it before), with the
//! same text, exit status and Python exception. Only `pipeline/`, `lib.rs` and the binary
//! (`main.rs`, `cli/`) import this module.

use crate::model::ModelError;
use crate::suite::SuiteFormatError;
use crate::suite::ioco::IocoSuiteError;

/// Any error the pipeline reports to the user.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A model violates the definition of its type.
    #[error("{path}: {source}")]
    Model {
        /// The file the model came from.
        path: String,
        /// The violation.
        #[source]
        source: ModelError,
    },
    /// A suite file is not valid suite JSON v1.
    #[error("{path}:{source}")]
    Suite {
        /// The file.
        path: String,
        /// What is wrong, with line and column or JSON path.
        #[source]
        source: SuiteFormatError,
    },
    /// An ioco suite could not be generated (budget, bound).
    #[error("{0}")]
    IocoSuite(#[source] IocoSuiteError),
    /// A suite refused before writing: a cost figure exceeds its budget.
    #[error(transparent)]
    Refused(Box<crate::suite::costs::CostRefusal>),
    /// Two models cannot be checked against each other (or a check's input is malformed).
    #[error(transparent)]
    Check(crate::check::CheckError),
    /// Options that do not fit together or do not fit the model.
    #[error("{0}")]
    Usage(String),
    /// A suite cannot be executed against the given model or system.
    #[error(transparent)]
    Exec(crate::exec::ExecError),
    /// A suite cannot be rendered.
    #[error(transparent)]
    Render(#[from] crate::render::RenderError),
    /// A model file that does not follow its format (`FILE:LINE:COL: found X, expected Y`).
    #[error(transparent)]
    Parse(#[from] crate::format::ParseError),
    /// A symbolic transition system has no finite instantiation within its budget (or an
    /// assignment fails on the way).
    #[error("{path}: {source}")]
    Sts {
        /// The STS file.
        path: String,
        /// Why.
        #[source]
        source: Box<crate::sts::InstantiateError>,
    },
    /// A state identification construction exceeded its budget.
    #[error(transparent)]
    Identify(#[from] crate::identify::IdentifyError),
}

/// A check's usage and model errors become the variants above that print them (the same text,
/// and the same exception in the Python package); the others are [`Error::Check`].
impl From<crate::check::CheckError> for Error {
    fn from(e: crate::check::CheckError) -> Self {
        use crate::check::CheckError;
        match e {
            CheckError::Usage(message) => Error::Usage(message),
            CheckError::Model { path, source } => Error::Model { path, source },
            e => Error::Check(e),
        }
    }
}

/// A model file's error is the top-level variant that printed it before the format layer had
/// errors of its own (same text, same exit status).
impl From<crate::format::FormatError> for Error {
    fn from(e: crate::format::FormatError) -> Self {
        use crate::format::FormatError;
        match e {
            FormatError::Io { path, source } => Error::Io { path, source },
            FormatError::Model { path, source } => Error::Model { path, source },
            FormatError::Parse(e) => Error::Parse(e),
            FormatError::Usage(message) => Error::Usage(message),
            FormatError::Output(e) => e.into(),
        }
    }
}

/// An audit's error is the variant that printed it before `audit/` had errors of its own.
impl From<crate::audit::AuditError> for Error {
    fn from(e: crate::audit::AuditError) -> Self {
        use crate::audit::AuditError;
        match e {
            AuditError::Usage(message) => Error::Usage(message),
            AuditError::Model { path, source } => Error::Model { path, source },
            AuditError::Io { path, source } => Error::Io { path, source },
            AuditError::Check(e) => e.into(),
            AuditError::Exec(e) => e.into(),
            AuditError::IocoSuite(e) => e.into(),
        }
    }
}

/// An output's error: an I/O error, or a refusal reported as a usage error.
impl From<crate::output::OutputError> for Error {
    fn from(e: crate::output::OutputError) -> Self {
        use crate::output::OutputError;
        match e {
            OutputError::Io { path, source } => Error::Io { path, source },
            OutputError::Refused(message) => Error::Usage(message),
        }
    }
}

/// A goal-directed suite's error is the variant that printed it before `goals/` had errors of
/// its own.
impl From<crate::goals::GoalSuiteError> for Error {
    fn from(e: crate::goals::GoalSuiteError) -> Self {
        use crate::goals::GoalSuiteError;
        match e {
            GoalSuiteError::Usage(message) => Error::Usage(message),
            GoalSuiteError::Refused(refusal) => Error::Refused(refusal),
        }
    }
}

/// An STS's error: reading and parsing its file as a model file's errors, the instantiation as
/// [`Error::Sts`].
impl From<crate::sts::StsError> for Error {
    fn from(e: crate::sts::StsError) -> Self {
        use crate::sts::StsError;
        match e {
            StsError::Io { path, source } => Error::Io { path, source },
            StsError::Parse(e) => Error::Parse(e),
            StsError::Usage(message) => Error::Usage(message),
            StsError::Instantiate { path, source } => Error::Sts { path, source },
            StsError::Format(e) => e.into(),
        }
    }
}

/// A model without a suspension automaton is a model error, as when any other construction
/// finds it; every other ioco error is [`Error::IocoSuite`].
impl From<IocoSuiteError> for Error {
    fn from(e: IocoSuiteError) -> Self {
        match e {
            IocoSuiteError::Model { path, source } => Error::Model { path, source },
            other => Error::IocoSuite(other),
        }
    }
}

impl From<Box<crate::suite::costs::CostRefusal>> for Error {
    fn from(e: Box<crate::suite::costs::CostRefusal>) -> Self {
        Error::Refused(e)
    }
}

/// `exec`'s errors of files, suites, usage, parsing and rendering become the variants above
/// that print them (the same text, and the same exception in the Python package); an error of
/// a module below `exec` that it carried comes back as it was.
impl From<crate::exec::ExecError> for Error {
    fn from(e: crate::exec::ExecError) -> Self {
        use crate::exec::ExecError;
        match e {
            ExecError::Io { path, source } => Error::Io { path, source },
            ExecError::Suite { path, source } => Error::Suite { path, source },
            ExecError::Usage(message) => Error::Usage(message),
            ExecError::Parse(e) => Error::Parse(e),
            ExecError::Render(e) => Error::Render(e),
            ExecError::Output(e) => e.into(),
            ExecError::Goals(e) => e.into(),
            ExecError::Model(e) => e.into(),
            e => Error::Exec(e),
        }
    }
}

impl Error {
    /// The process exit status for this error.
    pub fn exit_code(&self) -> u8 {
        2
    }

    /// Whether the error is a write to a closed pipe (a reader such as `head` that stopped
    /// reading): not a failure of ncomplete, so the binary ends quietly.
    pub fn is_broken_pipe(&self) -> bool {
        let mut source: Option<&(dyn std::error::Error + 'static)> = Some(self);
        while let Some(e) = source {
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            {
                return true;
            }
            source = e.source();
        }
        false
    }

    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<String>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}

/// Result alias for the pipeline.
pub type Result<T, E = Error> = std::result::Result<T, E>;
