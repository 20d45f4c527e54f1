//! Access sequences for suspension automata (van den Bos Sec. 2.7.2 and Def. 2.37):
//! `P(S, n)`, all traces shorter than `n`, which reach every specified state of every
//! implementation with at most `n` specified states; `P+(S, n)`, one more label, which reaches
//! every specified transition; and the shortest state cover, one breadth-first access sequence per
//! reachable state (what FSM methods use, complete only under extra conditions, see `ads`).
//!
//! `P(S, n)` grows exponentially in `n`; [`count_traces_shorter_than`] computes its size exactly
//! (by dynamic programming over states) before anything is enumerated, and
//! [`traces_shorter_than`] refuses to enumerate beyond a budget.

use super::error::IocoSuiteError;
use crate::model::{LabelId, StateId, SuspensionAutomaton};
use std::collections::VecDeque;

/// `|P(S, n)|`: the number of traces of `S` of length less than `n` (saturating).
pub fn count_traces_shorter_than(sa: &SuspensionAutomaton, n: usize) -> u128 {
    count_traces_up_to(sa, n.saturating_sub(1), n > 0)
}

/// `|P+(S, n)|`: the number of traces of `S` of length at most `n` (for `n ≥ 1`).
pub fn count_extended_access(sa: &SuspensionAutomaton, n: usize) -> u128 {
    count_traces_up_to(sa, n, n > 0)
}

fn count_traces_up_to(sa: &SuspensionAutomaton, max_len: usize, any: bool) -> u128 {
    if !any {
        return 0;
    }
    // ways[q] = number of traces of the current length from the initial state to q.
    let mut ways = vec![0u128; sa.num_states()];
    ways[sa.initial().index()] = 1;
    let mut total = 1u128;
    for _ in 0..max_len {
        let mut next = vec![0u128; sa.num_states()];
        for q in sa.states() {
            let w = ways[q.index()];
            if w == 0 {
                continue;
            }
            for &(_, t) in sa.enabled(q) {
                next[t.index()] = next[t.index()].saturating_add(w);
            }
        }
        ways = next;
        total = ways.iter().fold(total, |a, &b| a.saturating_add(b));
    }
    total
}

/// `P(S, n)`: all traces of `S` shorter than `n`, in length-lexicographic order (by label id),
/// failing cleanly if there are more than `budget`.
pub fn traces_shorter_than(
    sa: &SuspensionAutomaton,
    n: usize,
    budget: u128,
) -> Result<Vec<Vec<LabelId>>, IocoSuiteError> {
    let count = count_traces_shorter_than(sa, n);
    if count > budget {
        return Err(IocoSuiteError::Budget {
            what: format!("P(S, {n}) has {count} traces, which"),
            budget,
            advice: "try a smaller n".into(),
        });
    }
    let mut out: Vec<Vec<LabelId>> = Vec::with_capacity(count as usize);
    if n == 0 {
        return Ok(out);
    }
    let mut frontier: Vec<(Vec<LabelId>, StateId)> = vec![(Vec::new(), sa.initial())];
    for len in 0..n {
        let mut next = Vec::new();
        for (trace, q) in frontier {
            if len + 1 < n {
                for &(l, t) in sa.enabled(q) {
                    let mut longer = trace.clone();
                    longer.push(l);
                    next.push((longer, t));
                }
            }
            out.push(trace);
        }
        frontier = next;
    }
    Ok(out)
}

/// `P+(S, n) = P(S, n) ∪ {σµ | σ ∈ P(S, n), µ ∈ init(S after σ)}`: all traces of length at most
/// `n`, failing cleanly beyond `budget`.
pub fn extended_access(
    sa: &SuspensionAutomaton,
    n: usize,
    budget: u128,
) -> Result<Vec<Vec<LabelId>>, IocoSuiteError> {
    if n == 0 {
        return Ok(Vec::new());
    }
    let count = count_extended_access(sa, n);
    if count > budget {
        return Err(IocoSuiteError::Budget {
            what: format!("P+(S, {n}) has {count} traces, which"),
            budget,
            advice: "try a smaller n".into(),
        });
    }
    traces_shorter_than(sa, n + 1, budget)
}

/// The shortest state cover: for every state reachable from the initial state, the
/// breadth-first (shortest, then smallest by label id) trace reaching it; `None` for unreachable
/// states.
pub fn shortest_state_cover(sa: &SuspensionAutomaton) -> Vec<Option<Vec<LabelId>>> {
    let mut cover: Vec<Option<Vec<LabelId>>> = vec![None; sa.num_states()];
    cover[sa.initial().index()] = Some(Vec::new());
    let mut queue = VecDeque::from([sa.initial()]);
    while let Some(q) = queue.pop_front() {
        for &(l, t) in sa.enabled(q) {
            if cover[t.index()].is_none() {
                let mut seq = cover[q.index()].clone().unwrap_or_default();
                seq.push(l);
                cover[t.index()] = Some(seq);
                queue.push_back(t);
            }
        }
    }
    cover
}

/// The states reachable from the initial state (`Reachable(S)`, Def. 2.34), in id order.
pub fn reachable_states(sa: &SuspensionAutomaton) -> Vec<StateId> {
    shortest_state_cover(sa)
        .iter()
        .enumerate()
        .filter(|(_, c)| c.is_some())
        .map(|(i, _)| StateId(i as u32))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::suspension_from_marked;

    fn fig_2_8() -> SuspensionAutomaton {
        suspension_from_marked(
            "fig2.8",
            3,
            &[(0, "!x", 1), (0, "!y", 2), (1, "!w", 1), (2, "!z", 2)],
        )
        .unwrap()
    }

    #[test]
    fn counts_match_enumeration() {
        let sa = fig_2_8();
        for n in 0..6 {
            let p = traces_shorter_than(&sa, n, 1000).unwrap();
            assert_eq!(p.len() as u128, count_traces_shorter_than(&sa, n));
            assert!(p.iter().all(|t| t.len() < n));
            assert!(p.iter().all(|t| sa.after_trace(sa.initial(), t).is_some()));
        }
        // Fig. 2.8: ε, x, y, xw, yz.
        assert_eq!(count_traces_shorter_than(&sa, 3), 5);
        assert_eq!(extended_access(&sa, 2, 100).unwrap().len(), 5);
    }

    #[test]
    fn budget_fails_with_advice() {
        let sa = fig_2_8();
        let err = traces_shorter_than(&sa, 50, 10).unwrap_err();
        assert!(err.to_string().contains("try a smaller n"), "{err}");
    }

    #[test]
    fn state_cover_is_shortest() {
        let sa = suspension_from_marked(
            "t",
            4,
            &[
                (0, "?a", 1),
                (1, "?a", 2),
                (0, "!x", 2),
                (2, "delta", 2),
                (1, "delta", 1),
                (0, "delta", 0),
                (3, "delta", 3),
            ],
        )
        .unwrap();
        let cover = shortest_state_cover(&sa);
        assert_eq!(cover[2].as_ref().unwrap().len(), 1);
        assert_eq!(cover[3], None);
        assert_eq!(reachable_states(&sa).len(), 3);
    }
}
