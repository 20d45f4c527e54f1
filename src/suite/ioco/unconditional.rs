//! The unconditional test suite `U(S, n)` (van den Bos Def. 2.41-2.43, Corollary 2.44): every
//! `n`-bounded trace (no state visited more than `n` times along its prefixes) followed by an
//! observation. By Lemma 2.42 a non-conforming implementation with at most `n` specified states
//! has an ioco counterexample `σx` with `σ` `n`-bounded, so the suite is `n`-complete for every
//! specification, at the price of traces up to `|S|·n` long.
//!
//! The traces form a tree; the plan shares subtrees that start in the same state with the same
//! visit counts, and executes outputs adaptively (one test follows whichever allowed output
//! occurs), so a test is needed per input choice rather than per trace.

use super::IocoSuiteError;
use super::plan::{Move, Plan, Target};
use crate::model::{StateId, SuspensionAutomaton};
use crate::suite::Verdict;
use std::collections::HashMap;

/// Adds the plan of `U(A/start, n)` to `plan`; fails if it would need more than `budget` plan
/// nodes.
pub(crate) fn unconditional_plan(
    plan: &mut Plan,
    a: &SuspensionAutomaton,
    start: StateId,
    n: usize,
    budget: usize,
) -> Result<Target, IocoSuiteError> {
    if n == 0 {
        return Ok(Target::Verdict(Verdict::Pass));
    }
    let bound = u8::try_from(n).map_err(|_| IocoSuiteError::Budget {
        what: format!("n = {n} for the unconditional suite"),
        budget: 255,
        advice: "try a smaller n".into(),
    })?;
    let mut memo: HashMap<(StateId, Vec<u8>), u32> = HashMap::new();
    let mut work: Vec<(u32, StateId, Vec<u8>)> = Vec::new();
    let mut counts0 = vec![0u8; a.num_states()];
    counts0[start.index()] = 1;
    let root = plan.reserve();
    memo.insert((start, counts0.clone()), root);
    work.push((root, start, counts0));
    let mut created = 1usize;
    // Children of a bounded trace σ: σµ if it is still bounded.
    let mut child = |plan: &mut Plan,
                     work: &mut Vec<(u32, StateId, Vec<u8>)>,
                     counts: &[u8],
                     t: StateId|
     -> Result<Option<u32>, IocoSuiteError> {
        if counts[t.index()] >= bound {
            return Ok(None);
        }
        let mut c = counts.to_vec();
        c[t.index()] += 1;
        let key = (t, c);
        if let Some(&id) = memo.get(&key) {
            return Ok(Some(id));
        }
        created += 1;
        if created > budget {
            return Err(IocoSuiteError::Budget {
                what: format!("U(S, {n}) needs more plan nodes than that, which"),
                budget: budget as u128,
                advice: "try a smaller n or --method ioco-complete".into(),
            });
        }
        let id = plan.reserve();
        work.push((id, t, key.1.clone()));
        memo.insert(key, id);
        Ok(Some(id))
    };
    while let Some((id, q, counts)) = work.pop() {
        let mut branches = Vec::new();
        let mut moves = Vec::new();
        for &(l, t) in a.enabled(q) {
            let target = child(plan, &mut work, &counts, t)?;
            if a.alphabet.is_output(l) {
                branches.push((
                    l,
                    target.map_or(Target::Verdict(Verdict::Pass), Target::Node),
                ));
            } else if let Some(c) = target {
                moves.push(Move::Send {
                    input: l,
                    then: Target::Node(c),
                });
            }
        }
        moves.insert(
            0,
            Move::Observe {
                branches,
                otherwise: Verdict::Pass,
            },
        );
        plan.set(id, moves);
    }
    Ok(Target::Node(root))
}
