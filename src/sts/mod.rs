//! Symbolic transition systems with data (van den Bos, Ch. 4): labels carry typed parameters,
//! locations carry variables, and switches have guards and assignments.
//!
//! - `types.rs`: the STS of Def. 4.3 and its semantics (semantic states, enabledness and
//!   successors of Defs. 4.5-4.8).
//! - `expr.rs`: the expression language of guards and assignments (terms over integers,
//!   Booleans and enumerations), its canonical printing and evaluation; `parse.rs` its parser,
//!   `check.rs` its type checker.
//! - `load.rs`: the YAML/JSON file format (`sts: 1`), errors at `FILE:LINE:COL`.
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
pub mod expr;
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

pub use info::{StsInfo, sts_info};
pub use instantiate::{InstantiateBudget, InstantiateError, instantiate};
pub use load::{Syntax, parse_sts};
pub use types::Sts;

use crate::error::Error;
use crate::format::Format;
use solver::{NoSolver, Solver};

/// Whether model text named `file_name` in `format` is an STS, and in which syntax: by the
/// name's `.sts.*` extension, or for YAML and JSON by the top-level key `sts` (looked at only
/// when `native_failed`, so native models pay nothing for the check).
pub fn sts_syntax(
    file_name: &str,
    format: Format,
    text: &str,
    native_failed: bool,
) -> Option<Syntax> {
    if let Some(s) = load::sts_syntax_of_path(file_name) {
        return Some(s);
    }
    let syntax = match format {
        Format::Yaml => Syntax::Yaml,
        Format::Json => Syntax::Json,
        _ => return None,
    };
    (native_failed && load::is_sts_document(text, syntax)).then_some(syntax)
}

/// Reads an STS file (the path `-` is not accepted: STS files are named).
pub fn load_sts(path: &str) -> Result<Sts, Error> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let text = crate::format::utf8_text(bytes, path)?;
    let syntax = sts_syntax(path, Format::from_path(path).unwrap_or(Format::Yaml), &text, true)
        .ok_or_else(|| {
            Error::Usage(format!(
                "{path} is not an STS file: name it `.sts.yaml` or `.sts.json`, or give it the top-level key `sts: 1`"
            ))
        })?;
    Ok(parse_sts(
        &text,
        path,
        &load::default_model_name(path),
        syntax,
    )?)
}

/// Parses an STS and instantiates it as an LTS model (the loading path of every LTS command).
pub fn parse_as_model(
    text: &str,
    file: &str,
    syntax: Syntax,
) -> Result<crate::model::Model, Error> {
    let sts = parse_sts(text, file, &load::default_model_name(file), syntax)?;
    let lts = instantiate(&sts, &InstantiateBudget::default()).map_err(|source| Error::Sts {
        path: file.to_owned(),
        source: Box::new(source),
    })?;
    Ok(crate::model::Model::Lts(lts))
}

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
