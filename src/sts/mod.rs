//! Symbolic transition systems with data (van den Bos, Ch. 4): labels carry typed parameters,
//! locations carry variables, and switches have guards and assignments.
//!
//! - `types.rs`: the STS of Def. 4.3 and its semantics (semantic states, enabledness and
//!   successors of Defs. 4.5-4.8).
//! - `expr.rs`: the expression language of guards and assignments (terms over integers,
//!   Booleans and enumerations), its canonical printing and evaluation; `parse.rs` its parser,
//!   `check.rs` its type checker.
//! - `load.rs`: the YAML/JSON file format (`sts: 1`), errors at `FILE:LINE:COL`.
//! - `files.rs`: STS files read, and model files of every format read with STSs among them
//!   (the loading path of every LTS command); `error.rs`: their errors ([`StsError`]).
//! - `instantiate.rs`: the interpretation `⟦S⟧` (Def. 4.8) as a finite LTS when the domains
//!   are finite and small, so every LTS command applies to a small STS.
//! - `info.rs`: the figures `ncomplete info` prints for an STS.
//! - `solver.rs`: the solver trait (sat/unsat/unknown and witnesses); `z3.rs` its Z3
//!   implementation (Cargo feature `smt`).
//! - `symbolic.rs`: symbolic states and the symbolic execution graph (Sec. 4.3, Defs.
//!   4.10-4.14) unfolded to a depth, infeasible paths pruned by the solver.
//! - `concrete.rs`: concrete execution without instantiation (labels read back, enabled
//!   switches, quiescence and gate values by the solver, random where free), and `StsSystem`,
//!   an STS acting as a system under test (`ncomplete simulate X.sts.yaml`).
//! - `purposes.rs`: test purposes (Sec. 4.4, Def. 4.16) by switch coverage or by switch-pair
//!   coverage (pairs of switches, guard variables at their bounds), with their a priori
//!   coverage, written as `ncomplete-sts-purposes` JSON version 1.
//!
//! Model files are recognised as STSs by their name (`.sts.yaml`, `.sts.yml`, `.sts.json`) or,
//! for other `.yaml`/`.json` files, by the top-level key `sts`.

pub mod check;
pub mod concrete;
mod error;
pub mod expr;
mod files;
pub mod info;
pub mod instantiate;
pub mod load;
pub mod parse;
pub mod purposes;
pub mod solver;
pub mod symbolic;
pub mod term;
pub mod types;
#[cfg(feature = "smt")]
pub mod z3;

pub use error::StsError;
pub use files::{
    load_model, load_model_with_warnings, load_sts, parse_as_model, parse_model,
    parse_model_with_warnings, sts_syntax,
};
pub use info::{StsInfo, sts_info};
pub use instantiate::{InstantiateBudget, InstantiateError, instantiate};
pub use load::{Syntax, parse_sts};
pub use types::Sts;

use solver::{NoSolver, Solver};

/// The solver of this build: Z3 with the `smt` feature.
#[cfg(feature = "smt")]
pub fn default_solver() -> Result<Box<dyn Solver>, NoSolver> {
    Ok(Box::new(self::z3::Z3Solver::new()))
}

/// The solver of this build: none without the `smt` feature.
#[cfg(not(feature = "smt"))]
pub fn default_solver() -> Result<Box<dyn Solver>, NoSolver> {
    Err(NoSolver)
}
