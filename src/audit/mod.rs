//! Audits of suite strength: seeded mutants of a model with their exact conformance verdicts
//! (Goga, seed 001: suites are measured by the faults they detect).

mod error;
pub mod mutate;
pub mod plot;
pub mod report;
pub use crate::rng;

pub use crate::rng::SplitMix64;
pub use error::AuditError;
pub use mutate::{
    FaultKind, Mutant, MutantModel, MutateOptions, SizeBound, mutable_model, mutant_file, mutants,
    mutants_index, mutants_summary, verdict,
};
