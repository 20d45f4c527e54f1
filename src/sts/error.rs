//! The errors of reading a symbolic transition system and of reading a model file that may be
//! one: the file that cannot be read, the text that does not follow the STS format, a file that
//! is no STS, an STS without a finite instantiation within its budget, and the errors of the
//! other model formats (`crate::format`). Each prints as the crate's top-level error printed it,
//! which wraps it (`crate::Error`).

use super::instantiate::InstantiateError;
use crate::format::{FormatError, ParseError};

/// Why an STS (or a model file that may be one) could not be read.
#[derive(Debug, thiserror::Error)]
pub enum StsError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The text does not follow the STS format (`FILE:LINE:COL: found X, expected Y`).
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A file given as an STS that is none.
    #[error("{0}")]
    Usage(String),
    /// The STS has no finite instantiation within its budget (or an assignment fails on the
    /// way).
    #[error("{path}: {source}")]
    Instantiate {
        /// The STS file.
        path: String,
        /// Why.
        #[source]
        source: Box<InstantiateError>,
    },
    /// A model file of another format that could not be read.
    #[error(transparent)]
    Format(#[from] FormatError),
}
