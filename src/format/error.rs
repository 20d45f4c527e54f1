//! The errors of reading and writing model files: a file that cannot be read, text that does not
//! follow its format (`FILE:LINE:COL: found X, expected Y`), a model that violates the definition
//! of its type, options that do not fit the file, and a file that cannot be written. Each prints
//! as the crate's top-level error printed it, which wraps it (`crate::Error`).

use super::position::ParseError;
use crate::model::ModelError;
use crate::output::OutputError;

/// Why a model file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// A file could not be read.
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
    /// A model file that does not follow its format.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// Options that do not fit the file (a format that cannot be told, an initial state the
    /// model does not have, standard input read twice, a side file that is no regular file).
    #[error("{0}")]
    Usage(String),
    /// A model's text could not be written.
    #[error(transparent)]
    Output(#[from] OutputError),
}

impl FormatError {
    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<String>, source: std::io::Error) -> Self {
        FormatError::Io {
            path: path.into(),
            source,
        }
    }
}
