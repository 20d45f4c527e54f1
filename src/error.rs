//! The library's top-level error, carried to the binary, which prints it and exits with
//! [`Error::exit_code`]: 1 when a check or suite fails, 2 for bad input, usage or I/O.

use crate::model::ModelError;
use crate::suite::SuiteFormatError;

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
    IocoSuite(#[from] crate::suite::ioco::IocoSuiteError),
    /// A suite refused before writing: a cost figure exceeds its budget.
    #[error(transparent)]
    Refused(Box<crate::suite::costs::CostRefusal>),
    /// Two models cannot be checked against each other (or a check's input is malformed).
    #[error(transparent)]
    Check(#[from] crate::check::CheckError),
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
            ExecError::Other(e) => match e.downcast::<Error>() {
                Ok(e) => *e,
                Err(e) => Error::Exec(ExecError::Other(e)),
            },
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
