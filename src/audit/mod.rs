//! Audits of suite strength: seeded mutants of a model with their exact conformance verdicts
//! (Goga, seed 001: suites are measured by the faults they detect).

pub mod mutate;
pub mod plot;
pub mod report;
pub use crate::rng;

pub use crate::rng::SplitMix64;
pub use mutate::{
    FaultKind, Mutant, MutantModel, MutateOptions, SizeBound, mutable_model, mutants, verdict,
    write_mutants,
};
