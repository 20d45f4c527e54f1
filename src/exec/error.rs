//! The error of `exec`: problems that prevent a suite from being executed at all (not
//! verdicts), and the files and options of the commands of `exec::commands` and the result
//! files of `exec::results`. Each variant prints the text the crate's top-level error printed
//! for the same problem; `crate::error` turns them back into its own variants, so messages and
//! exit statuses do not depend on which layer found the problem.

use crate::format::ParseError;
use crate::render::RenderError;
use crate::suite::SuiteFormatError;

/// Problems that prevent a suite from being executed at all (not verdicts).
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// The implementation model does not accept an input of the suite in a reachable state.
    #[error(
        "the implementation is not input-enabled: state `{state}` does not accept input `{input}` (use --input-enable self-loop to let it ignore such inputs)"
    )]
    NotInputEnabled {
        /// State name.
        state: String,
        /// Input name.
        input: String,
    },
    /// The implementation model cannot act as a system (wrong kind, internal steps, ...).
    #[error("{0}")]
    Unsupported(String),
    /// The system under test could not be started or talked to.
    #[error("system under test `{command}`: {message}")]
    System {
        /// The command line.
        command: String,
        /// What went wrong.
        message: String,
    },
    /// A file (or standard output) could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        #[source]
        source: std::io::Error,
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
    /// Options or files that do not fit together (a words file without its specification, a
    /// result file that cannot be written, ...).
    #[error("{0}")]
    Usage(String),
    /// An input file that is not text (its first byte that is not UTF-8).
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A suite that cannot be rendered.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// A file that could not be written whole ([`crate::output`]).
    #[error(transparent)]
    Output(#[from] crate::output::OutputError),
    /// A test purpose or coverage goal that cannot be used ([`crate::goals::cases`]).
    #[error(transparent)]
    Goals(#[from] crate::goals::GoalSuiteError),
    /// A purpose file that cannot be read as a model ([`crate::sts::load_model`], which reads
    /// every model format and symbolic transition systems).
    #[error(transparent)]
    Model(#[from] crate::sts::StsError),
}

impl ExecError {
    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<String>, source: std::io::Error) -> Self {
        ExecError::Io {
            path: path.into(),
            source,
        }
    }
}

/// Result alias of `exec`.
pub type Result<T, E = ExecError> = std::result::Result<T, E>;
