//! The state identification `T(S, n)` and `ioco-ads` rely on, taken from the analysis and
//! identification layers and turned into test plans: compatibility ([`Compatibility`], van den
//! Bos Def. 2.15), equivalence on the demonic completion ([`equivalence_classes`], Def. 2.13),
//! harmonised pairwise distinguishing graphs ([`StateIdentifiers`], Algorithm 1 / Lemma 2.33) and
//! the adaptive distinguishing graph with top-ups ([`AdaptiveIdentification`], Algorithm 5).
//!
//! An [`Experiment`] becomes plan nodes one to one: a leaf is `pass`, an input step a `Send`
//! (outputs racing it: `retry`, the Reset of Def. 2.27, or `fail` when the specification forbids
//! them), an output step an `Observe`.

use super::error::IocoSuiteError;
use super::plan::{Move, Plan, Target};
use crate::analysis::{
    Compatibility, DEFAULT_PAIR_BUDGET, Equivalence, Preference, equivalence_classes,
};
use crate::identify::{
    AdaptiveIdentification, Experiment, ExperimentId, IdentifyError, SplittingGraph,
    StateIdentifiers, Step,
};
use crate::model::{StateId, SuspensionAutomaton};
use crate::suite::Verdict;
use std::collections::HashMap;

fn budget_error(e: IdentifyError) -> IocoSuiteError {
    match e {
        IdentifyError::Budget {
            what,
            budget,
            advice,
        } => IocoSuiteError::Budget {
            what: format!("{what}, which"),
            budget: budget as u128,
            advice,
        },
        other => IocoSuiteError::Budget {
            what: other.to_string(),
            budget: 0,
            advice: "use --method ioco-complete".into(),
        },
    }
}

/// The compatibility relation of `sa` (Def. 2.15) within the pair budget, without the graphs.
pub(crate) fn compatibility(sa: &SuspensionAutomaton) -> Result<Compatibility, IocoSuiteError> {
    Compatibility::compute_within(sa, DEFAULT_PAIR_BUDGET).map_err(|e| budget_error(e.into()))
}

/// Compatibility, equivalence and harmonised distinguishing graphs of one automaton.
pub(crate) struct PairAnalysis {
    compat: Compatibility,
    equivalence: Equivalence,
    identifiers: StateIdentifiers,
    graphs: HashMap<ExperimentId, Target>,
}

impl PairAnalysis {
    pub(crate) fn compute(sa: &SuspensionAutomaton) -> Result<Self, IocoSuiteError> {
        let compat = compatibility(sa)?;
        let identifiers =
            StateIdentifiers::compute(sa, &compat, Preference::Outputs).map_err(budget_error)?;
        Ok(PairAnalysis {
            equivalence: equivalence_classes(sa),
            compat,
            identifiers,
            graphs: HashMap::new(),
        })
    }

    /// `p ◇ q` (compatible).
    pub(crate) fn compatible(&self, p: StateId, q: StateId) -> bool {
        self.compat.compatible(p, q)
    }

    /// `p ≈ q`.
    pub(crate) fn equivalent(&self, p: StateId, q: StateId) -> bool {
        self.equivalence.equivalent(p, q)
    }

    /// The plan of the distinguishing graph for the incompatible pair `{p, q}` (the same plan for
    /// `{q, p}`: harmonised), adding it to `plan` on first use.
    pub(crate) fn graph(&mut self, plan: &mut Plan, p: StateId, q: StateId) -> Target {
        let id = self
            .identifiers
            .for_pair(p, q)
            .expect("distinguishing graphs exist for incompatible pairs");
        if let Some(&t) = self.graphs.get(&id) {
            return t;
        }
        let t = experiment_plan(plan, self.identifiers.experiment(id));
        self.graphs.insert(id, t);
        t
    }

    /// The adaptive distinguishing graph and top-ups as plans: per state, the experiments that
    /// identify it (the ADG first). `None` if the splitting graph or ADG cannot be built.
    pub(crate) fn adaptive(
        &self,
        sa: &SuspensionAutomaton,
        plan: &mut Plan,
    ) -> Option<Vec<Vec<Target>>> {
        let graph = SplittingGraph::build(sa, &self.compat).ok()?;
        let ident =
            AdaptiveIdentification::compute(sa, &self.compat, &graph, Preference::Outputs).ok()?;
        let adg = experiment_plan(plan, ident.adg());
        let topups: Vec<Target> = ident
            .topups(sa, &self.compat)
            .map(|e| experiment_plan(plan, &e))
            .collect();
        let mut per_state = vec![vec![adg]; sa.num_states()];
        for (k, &(q, r)) in ident.undistinguished_pairs().iter().enumerate() {
            per_state[q.index()].push(topups[k]);
            per_state[r.index()].push(topups[k]);
        }
        Some(per_state)
    }
}

/// Adds an experiment's nodes to `plan`; returns its root.
pub(crate) fn experiment_plan(plan: &mut Plan, e: &Experiment) -> Target {
    let nodes = e.nodes();
    let mut at = vec![Target::Verdict(Verdict::Pass); nodes.len()];
    for k in (0..nodes.len()).rev() {
        at[k] = match &nodes[k].step {
            Step::Leaf => Target::Verdict(Verdict::Pass),
            Step::Input { input, then, .. } => Target::Node(plan.push(vec![Move::Send {
                input: *input,
                then: at[*then as usize],
            }])),
            Step::Outputs { branches } => Target::Node(plan.push(vec![Move::Observe {
                branches: branches.iter().map(|&(x, c)| (x, at[c as usize])).collect(),
                otherwise: Verdict::Pass,
            }])),
        };
    }
    at.first()
        .copied()
        .unwrap_or(Target::Verdict(Verdict::Pass))
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
        let a = PairAnalysis::compute(&sa).unwrap();
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
        let Target::Node(g) = a.graph(&mut plan, StateId(0), StateId(3)) else {
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
        let a = PairAnalysis::compute(&sa).unwrap();
        assert!(a.equivalent(StateId(0), StateId(1)));
        assert!(!a.equivalent(StateId(0), StateId(2)));
    }
}
