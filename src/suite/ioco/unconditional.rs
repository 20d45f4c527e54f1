//! The unconditional test suite `U(S, n)` (van den Bos Def. 2.41-2.43, Corollary 2.44): every
//! `n`-bounded trace (no state visited more than `n` times along its prefixes) followed by an
//! observation. By Lemma 2.42 a non-conforming implementation with at most `n` specified states
//! has an ioco counterexample `σx` with `σ` `n`-bounded, so the suite is `n`-complete for every
//! specification, at the price of traces up to `|S|·n` long.
//!
//! The traces form a tree; the plan shares subtrees that start in the same state with the same
//! visit counts, and executes outputs adaptively (one test follows whichever allowed output
//! occurs), so a test is needed per input choice rather than per trace.

use super::bounded_traces::{BoundedTraces, TraceCap};
use super::error::IocoSuiteError;
use super::plan::{Plan, Target};
use crate::model::{StateId, SuspensionAutomaton};
use crate::suite::Verdict;

/// Adds the plan of `U(A/start, n)` to `plan`; fails if it would need more than `budget` plan
/// nodes. It is the plan of `ioco-counting` with every state a set of its own and no graphs.
pub(crate) fn unconditional_plan(
    plan: &mut Plan,
    a: &SuspensionAutomaton,
    start: StateId,
    n: usize,
    budget: usize,
    cap: TraceCap,
) -> Result<Target, IocoSuiteError> {
    if n == 0 {
        return Ok(Target::Verdict(Verdict::Pass));
    }
    let singletons: Vec<Vec<usize>> = (0..a.num_states()).map(|s| vec![s]).collect();
    BoundedTraces {
        constraints_of: &singletons,
        constraints: a.num_states(),
        graphs: &vec![Vec::new(); a.num_states()],
        graphs_at_cuts: false,
        max_plan_nodes: budget,
        suite: "unconditional suite",
        advice: "try a smaller n or --method ioco-complete",
        cover: None,
        cap,
    }
    .plan(plan, a, start, n)
}
