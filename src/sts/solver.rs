//! The solver interface of the symbolic commands: satisfiability of a conjunction of Boolean
//! symbolic terms over typed symbols, with `sat`, `unsat` or `unknown` (van den Bos Sec. 4.2.2:
//! `solver(t)`, and `getValues` for a witness). The one implementation is Z3 (`z3.rs`, Cargo
//! feature `smt`); [`default_solver`](super::default_solver) says how to enable it when it is
//! missing.
//!
//! Semantics the implementations keep: integers are mathematical integers (the evaluation of
//! `expr.rs` uses 64 bits and makes a guard that overflows false: models whose guards come near
//! ±2^63 are outside what the two agree on), `/` and `%` are Euclidean, and a guard that
//! divides by zero does not hold (each division's divisor is required to be non-zero).

use super::expr::Value;
use super::term::{Sym, Symbol};

/// A solver's answer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Sat {
    /// Satisfiable.
    Sat,
    /// Unsatisfiable.
    Unsat,
    /// The solver could not decide.
    Unknown,
}

/// Satisfiability of conjunctions of symbolic terms.
pub trait Solver {
    /// Whether the conjunction of `constraints` over `symbols` (each symbol within its type's
    /// domain) is satisfiable.
    fn check(&mut self, symbols: &[Symbol], constraints: &[Sym]) -> Sat;

    /// A value for every symbol satisfying the constraints, when the solver finds one.
    fn witness(&mut self, symbols: &[Symbol], constraints: &[Sym]) -> Option<Vec<Value>>;

    /// Bounds the time of every later query (`None`: unbounded, the default); a query that
    /// runs out of it answers `unknown` (or no witness).
    fn limit_time(&mut self, _limit: Option<std::time::Duration>) {}
}

/// Why there is no solver.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "symbolic execution of an STS needs the Z3 SMT solver: build ncomplete with `--features smt` (it links the system's libz3; on Debian/Ubuntu `apt-get install libz3-dev libclang-dev`, as scripts/install-smt does)"
)]
pub struct NoSolver;
