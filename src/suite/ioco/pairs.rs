//! Pairwise analysis of a suspension automaton as `T(S, n)` needs it: compatibility (van den Bos
//! Def. 2.15, computed as the greatest fixpoint of Def. 2.18 / Lemma 2.19) together with the
//! reason each incompatible pair was found (Algorithm 1: all common outputs, or one common input,
//! lead to a pair found incompatible in the previous iteration), which yields the harmonised
//! distinguishing graphs of Lemma 2.33; and equivalence `≈` (Def. 2.13 on the demonic
//! completion).
//!
//! This is the part of the state-identification layer the ioco suite generators rely on, kept
//! minimal and private to them: the distinguishing graphs are emitted directly as test plans
//! (with the execution semantics of Sec. 2.7.4) rather than as a separate graph type.

use super::plan::{Move, Plan, PlanId, Target};
use crate::model::{LabelId, StateId, SuspensionAutomaton};
use crate::suite::Verdict;
use std::collections::HashMap;

/// Why a pair is incompatible (the root of its distinguishing graph, Alg. 1 lines 10 and 20).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Reason {
    /// Every common output leads to an incompatible pair: observe.
    Outputs,
    /// This common input leads to an incompatible pair: apply it (outputs racing it: Reset).
    Input(LabelId),
}

/// Compatibility, distinguishing-graph reasons and equivalence of all state pairs.
#[derive(Clone, Debug)]
pub(crate) struct PairAnalysis {
    n: usize,
    compatible: Vec<bool>,
    reason: Vec<Option<Reason>>,
    equivalent: Vec<bool>,
    graphs: HashMap<(StateId, StateId), PlanId>,
}

impl PairAnalysis {
    pub(crate) fn compute(sa: &SuspensionAutomaton) -> Self {
        let n = sa.num_states();
        let mut compatible = vec![true; n * n];
        let mut reason = vec![None; n * n];
        loop {
            let before = compatible.clone();
            let was = |p: StateId, q: StateId| before[p.index() * n + q.index()];
            let mut changed = false;
            for p in sa.states() {
                for q in sa.states().filter(|&q| q > p) {
                    if !was(p, q) {
                        continue;
                    }
                    let common_outputs_fail = sa
                        .outputs_enabled(p)
                        .filter_map(|x| Some((sa.after(p, x)?, sa.after(q, x)?)))
                        .all(|(p2, q2)| !was(p2, q2));
                    let found = if common_outputs_fail {
                        Some(Reason::Outputs)
                    } else {
                        sa.inputs_enabled(p)
                            .find(|&a| {
                                sa.after(q, a)
                                    .is_some_and(|q2| !was(sa.after(p, a).expect("enabled"), q2))
                            })
                            .map(Reason::Input)
                    };
                    if let Some(r) = found {
                        for (i, j) in [(p, q), (q, p)] {
                            compatible[i.index() * n + j.index()] = false;
                            reason[i.index() * n + j.index()] = Some(r);
                        }
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let equivalent = equivalence(sa);
        PairAnalysis {
            n,
            compatible,
            reason,
            equivalent,
            graphs: HashMap::new(),
        }
    }

    /// `p ◇ q` (compatible).
    pub(crate) fn compatible(&self, p: StateId, q: StateId) -> bool {
        self.compatible[p.index() * self.n + q.index()]
    }

    /// `p ≈ q`.
    pub(crate) fn equivalent(&self, p: StateId, q: StateId) -> bool {
        self.equivalent[p.index() * self.n + q.index()]
    }

    /// The plan of the distinguishing graph for the incompatible pair `{p, q}` (the same plan for
    /// `{q, p}`: harmonised), adding it to `plan` on first use.
    pub(crate) fn graph(
        &mut self,
        sa: &SuspensionAutomaton,
        plan: &mut Plan,
        p: StateId,
        q: StateId,
    ) -> Target {
        if p == q {
            return Target::Verdict(Verdict::Pass);
        }
        let key = (p.min(q), p.max(q));
        if let Some(&id) = self.graphs.get(&key) {
            return Target::Node(id);
        }
        let reason = self.reason[p.index() * self.n + q.index()]
            .expect("distinguishing graphs exist for incompatible pairs only");
        let moves = match reason {
            Reason::Outputs => {
                let mut branches = Vec::new();
                for x in sa.alphabet.outputs() {
                    let target = match (sa.after(p, x), sa.after(q, x)) {
                        (Some(p2), Some(q2)) => self.graph(sa, plan, p2, q2),
                        (None, None) => continue,
                        _ => Target::Verdict(Verdict::Pass),
                    };
                    branches.push((x, target));
                }
                vec![Move::Observe {
                    branches,
                    otherwise: Verdict::Pass,
                }]
            }
            Reason::Input(a) => {
                let (p2, q2) = (
                    sa.after(p, a).expect("common input"),
                    sa.after(q, a).expect("common input"),
                );
                vec![Move::Send {
                    input: a,
                    then: self.graph(sa, plan, p2, q2),
                }]
            }
        };
        let id = plan.push(moves);
        self.graphs.insert(key, id);
        Target::Node(id)
    }
}

/// `≈` (Def. 2.13): the greatest relation on the demonic completion (chaos state χ = `n`)
/// relating states with equal outputs whose common successors are related.
fn equivalence(sa: &SuspensionAutomaton) -> Vec<bool> {
    let n = sa.num_states();
    let chaos = n;
    let m = n + 1;
    let labels: Vec<LabelId> = sa.alphabet.ids().collect();
    // Successor in the demonic completion; None = not enabled.
    let succ = |q: usize, l: LabelId| -> Option<usize> {
        if q == chaos {
            return Some(chaos);
        }
        match sa.after(StateId(q as u32), l) {
            Some(t) => Some(t.index()),
            None if sa.alphabet.is_input(l) => Some(chaos),
            None => None,
        }
    };
    let out_sig = |q: usize| -> Vec<bool> {
        labels
            .iter()
            .filter(|&&l| sa.alphabet.is_output(l))
            .map(|&l| succ(q, l).is_some())
            .collect()
    };
    let sigs: Vec<Vec<bool>> = (0..m).map(out_sig).collect();
    let mut rel = vec![false; m * m];
    for p in 0..m {
        for q in 0..m {
            rel[p * m + q] = sigs[p] == sigs[q];
        }
    }
    loop {
        let mut changed = false;
        for p in 0..m {
            for q in 0..m {
                if !rel[p * m + q] {
                    continue;
                }
                let ok = labels.iter().all(|&l| match (succ(p, l), succ(q, l)) {
                    (Some(p2), Some(q2)) => rel[p2 * m + q2],
                    _ => true,
                });
                if !ok {
                    rel[p * m + q] = false;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut out = vec![false; n * n];
    for p in 0..n {
        for q in 0..n {
            out[p * n + q] = rel[p * m + q];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::testkit::fig_2_1;
    use super::*;

    #[test]
    fn example_2_32_compatible_pairs() {
        // Van den Bos Example 2.32: 2◇3 and 4◇5 are the only non-trivial compatible pairs, and
        // 1 and 4 are found incompatible in the second iteration, through x.
        let sa = fig_2_1();
        let a = PairAnalysis::compute(&sa);
        let mut pairs = Vec::new();
        for p in sa.states() {
            for q in sa.states().filter(|&q| q > p) {
                if a.compatible(p, q) {
                    pairs.push((p.0 + 1, q.0 + 1));
                }
                assert!(!a.equivalent(p, q));
            }
        }
        assert_eq!(pairs, vec![(2, 3), (4, 5)]);
        let mut plan = Plan::default();
        let mut a = a;
        let Target::Node(g) = a.graph(&sa, &mut plan, StateId(0), StateId(3)) else {
            panic!("a graph")
        };
        // Root observes: x leads to the graph for {2, 6}.
        match &plan.moves(g)[0] {
            Move::Observe { branches, .. } => {
                let x = sa.alphabet.get("x").unwrap();
                assert!(matches!(
                    branches.iter().find(|(l, _)| *l == x),
                    Some((_, Target::Node(_)))
                ));
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn equivalence_uses_demonic_completion() {
        // 0 and 1 both only output x to themselves; 1 also accepts a input into chaos-like
        // state 2 that allows everything: equivalent to leaving a unspecified.
        let sa = crate::model::suspension_from_marked(
            "eq",
            3,
            &[
                (0, "!x", 0),
                (1, "!x", 1),
                (1, "?a", 2),
                (2, "!x", 2),
                (2, "delta", 2),
                (2, "?a", 2),
            ],
        )
        .unwrap();
        let a = PairAnalysis::compute(&sa);
        assert!(a.equivalent(StateId(0), StateId(1)));
        assert!(!a.equivalent(StateId(0), StateId(2)));
    }
}
