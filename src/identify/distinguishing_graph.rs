//! Pairwise distinguishing graphs (van den Bos Def. 2.26-2.27, Algorithm 1) and the harmonised
//! state identifiers they form (Lemma 2.33, Def. 2.31).
//!
//! Algorithm 1 finds incompatible pairs in rounds and builds each pair's graph from graphs of
//! earlier rounds. The round of a pair is the rank Algorithm 2 computes on `S‖S` (breadth-first
//! attractor levels), so we take compatibility and ranks from [`Compatibility`] and build a pair's
//! graph from its winning moves: wait for outputs (every common output leads to a pair of lower
//! rank, other outputs to a singleton) or apply an input whose successors have lower rank, with
//! racing outputs leading to `Reset` (retry). The graph of `{q, r}` has at most `O(|Q|²)` nodes.
//!
//! [`set_graph`] decides Def. 2.27 for an arbitrary set of states by brute force over the sets
//! reachable with injective labels; for three or more states a graph need not exist (Fig. 2.6).

use super::error::IdentifyError;
use super::experiment::{Experiment, ExperimentNode, PostOrder, Race, Step, assemble, post_order};
use crate::analysis::{Compatibility, Move, Preference};
use crate::model::{LabelId, StateId, SuspensionAutomaton};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Default budget on the total number of nodes of all pairwise graphs.
pub const DEFAULT_NODE_BUDGET: usize = 20_000_000;

/// Identifies an experiment in a [`StateIdentifiers`] set.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExperimentId(pub u32);

impl ExperimentId {
    /// The id as an index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A node of a pairwise graph: a pair of distinct states or a single state.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum PairKey {
    Pair(StateId, StateId),
    One(StateId),
}

fn key(a: StateId, b: StateId) -> PairKey {
    match a.cmp(&b) {
        std::cmp::Ordering::Less => PairKey::Pair(a, b),
        std::cmp::Ordering::Greater => PairKey::Pair(b, a),
        std::cmp::Ordering::Equal => PairKey::One(a),
    }
}

/// Outputs enabled in `a` or `b`, in label order, with the successor key.
fn output_moves(sa: &SuspensionAutomaton, a: StateId, b: StateId) -> Vec<(LabelId, PairKey)> {
    let mut out: Vec<(LabelId, PairKey)> = Vec::new();
    let outs = |s: StateId| {
        sa.enabled(s)
            .iter()
            .filter(|(l, _)| sa.alphabet.is_output(*l))
            .copied()
            .collect::<Vec<_>>()
    };
    let (ea, eb) = (outs(a), outs(b));
    let (mut i, mut j) = (0, 0);
    while i < ea.len() || j < eb.len() {
        let la = ea.get(i).map(|e| e.0);
        let lb = eb.get(j).map(|e| e.0);
        match (la, lb) {
            (Some(x), Some(y)) if x == y => {
                out.push((x, key(ea[i].1, eb[j].1)));
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x < y => {
                out.push((x, PairKey::One(ea[i].1)));
                i += 1;
            }
            (Some(x), None) => {
                out.push((x, PairKey::One(ea[i].1)));
                i += 1;
            }
            (_, Some(y)) => {
                out.push((y, PairKey::One(eb[j].1)));
                j += 1;
            }
            (None, None) => break,
        }
    }
    out
}

/// The distinguishing graph of the incompatible pair `{q, r}` (Def. 2.27), or `None` if the
/// states are compatible (Lemma 2.29).
pub fn pairwise_graph(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    q: StateId,
    r: StateId,
    preference: Preference,
) -> Option<Experiment> {
    let moves = |k: &PairKey| pair_move(sa, compat, k, preference);
    let (order, index, _) = pair_order(sa, compat, q, r, preference)?;
    Some(assemble(&order, &index, |k, idx| {
        let states = match *k {
            PairKey::One(s) => vec![s],
            PairKey::Pair(a, b) => vec![a, b],
        };
        let step = match moves(k) {
            None => Step::Leaf,
            Some((Move::Outputs, a, b)) => Step::Outputs {
                branches: output_moves(sa, a, b)
                    .into_iter()
                    .map(|(x, c)| (x, idx(&c)))
                    .collect(),
            },
            Some((Move::Input(i), a, b)) => {
                let then = key(
                    sa.after(a, i).expect("winning input is enabled"),
                    sa.after(b, i).expect("winning input is enabled"),
                );
                Step::Input {
                    input: i,
                    then: idx(&then),
                    race: output_moves(sa, a, b)
                        .into_iter()
                        .filter(|&(x, _)| x != sa.quiescence())
                        .map(|(x, _)| (x, Race::Retry))
                        .collect(),
                }
            }
        };
        ExperimentNode { states, step }
    }))
}

/// The winning move of a pair key (none for a single state: a leaf).
fn pair_move(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    k: &PairKey,
    preference: Preference,
) -> Option<(Move, StateId, StateId)> {
    match *k {
        PairKey::One(_) => None,
        PairKey::Pair(a, b) => compat.winning_move(sa, a, b, preference).map(|m| (m, a, b)),
    }
}

/// The nodes of the pairwise graph of `{q, r}` in post-order; `None` if they are compatible.
fn pair_order(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    q: StateId,
    r: StateId,
    preference: Preference,
) -> Option<PostOrder<PairKey>> {
    compat.rank(q, r)?;
    Some(post_order(key(q, r), |k| {
        match pair_move(sa, compat, k, preference) {
            None => Vec::new(),
            Some((Move::Outputs, a, b)) => {
                output_moves(sa, a, b).into_iter().map(|(_, c)| c).collect()
            }
            Some((Move::Input(i), a, b)) => match (sa.after(a, i), sa.after(b, i)) {
                (Some(ta), Some(tb)) => vec![key(ta, tb)],
                _ => Vec::new(),
            },
        }
    }))
}

/// The number of nodes of [`pairwise_graph`]`(sa, compat, q, r, preference)`, without building it.
pub fn pairwise_graph_size(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    q: StateId,
    r: StateId,
    preference: Preference,
) -> Option<usize> {
    pair_order(sa, compat, q, r, preference).map(|(order, _, _)| order.len())
}

/// Harmonised state identifiers (Lemma 2.33(4)): one distinguishing graph per incompatible pair,
/// in both states' identifiers.
#[derive(Clone, Debug)]
pub struct StateIdentifiers {
    experiments: Vec<Experiment>,
    pairs: Vec<(StateId, StateId)>,
    of: Vec<Vec<ExperimentId>>,
}

impl StateIdentifiers {
    /// Builds a graph for every incompatible pair, in parallel, within [`DEFAULT_NODE_BUDGET`]
    /// nodes in total.
    pub fn compute(
        sa: &SuspensionAutomaton,
        compat: &Compatibility,
        preference: Preference,
    ) -> Result<StateIdentifiers, IdentifyError> {
        Self::compute_with_budget(sa, compat, preference, DEFAULT_NODE_BUDGET)
    }

    /// As [`StateIdentifiers::compute`], failing cleanly once the graphs exceed `node_budget` nodes.
    pub fn compute_with_budget(
        sa: &SuspensionAutomaton,
        compat: &Compatibility,
        preference: Preference,
        node_budget: usize,
    ) -> Result<StateIdentifiers, IdentifyError> {
        let pairs: Vec<(StateId, StateId)> = compat.incompatible_pairs().collect();
        let budget_error = || IdentifyError::Budget {
            what: format!(
                "the pairwise distinguishing graphs of {} incompatible state pairs",
                pairs.len()
            ),
            budget: node_budget,
            advice:
                "use the adaptive distinguishing graph with top-ups instead, or a smaller model"
                    .into(),
        };
        if pairs.len() > node_budget {
            return Err(budget_error());
        }
        let used = AtomicUsize::new(0);
        let experiments: Vec<Option<Experiment>> = pairs
            .par_iter()
            .map(|&(q, r)| {
                if used.load(Ordering::Relaxed) > node_budget {
                    return None;
                }
                let e = pairwise_graph(sa, compat, q, r, preference)?;
                used.fetch_add(e.len(), Ordering::Relaxed);
                Some(e)
            })
            .collect();
        if used.load(Ordering::Relaxed) > node_budget || experiments.iter().any(Option::is_none) {
            return Err(budget_error());
        }
        let experiments: Vec<Experiment> = experiments.into_iter().flatten().collect();
        let mut of = vec![Vec::new(); sa.num_states()];
        for (k, &(q, r)) in pairs.iter().enumerate() {
            of[q.index()].push(ExperimentId(k as u32));
            of[r.index()].push(ExperimentId(k as u32));
        }
        Ok(StateIdentifiers {
            experiments,
            pairs,
            of,
        })
    }

    /// The identifier `W(q)`: the graphs distinguishing `q` from each incompatible state.
    pub fn of(&self, q: StateId) -> &[ExperimentId] {
        &self.of[q.index()]
    }

    /// One experiment.
    pub fn experiment(&self, id: ExperimentId) -> &Experiment {
        &self.experiments[id.index()]
    }

    /// The pair `(q, r)`, `q < r`, an experiment distinguishes.
    pub fn pair(&self, id: ExperimentId) -> (StateId, StateId) {
        self.pairs[id.index()]
    }

    /// The experiment distinguishing `q` and `r`, if they are incompatible.
    pub fn for_pair(&self, q: StateId, r: StateId) -> Option<ExperimentId> {
        let p = if q < r { (q, r) } else { (r, q) };
        self.pairs
            .binary_search(&p)
            .ok()
            .map(|k| ExperimentId(k as u32))
    }

    /// Number of experiments (incompatible pairs).
    pub fn len(&self) -> usize {
        self.experiments.len()
    }

    /// Whether there are none (all states pairwise compatible).
    pub fn is_empty(&self) -> bool {
        self.experiments.is_empty()
    }

    /// Total number of nodes of all experiments.
    pub fn total_nodes(&self) -> usize {
        self.experiments.iter().map(Experiment::len).sum()
    }
}

fn set_after(sa: &SuspensionAutomaton, set: &[StateId], l: LabelId) -> Option<Vec<StateId>> {
    // Def. 2.26: the label must not merge two states of the set.
    let mut out: Vec<StateId> = set.iter().filter_map(|&s| sa.after(s, l)).collect();
    out.sort_unstable();
    let n = out.len();
    out.dedup();
    (out.len() == n).then_some(out)
}

/// Decides whether a distinguishing graph exists for the set `set` (Def. 2.27, any size) and
/// returns one, exploring at most `budget` sets. Exponential in general; meant for small sets.
pub fn set_graph(
    sa: &SuspensionAutomaton,
    set: &[StateId],
    budget: usize,
) -> Result<Option<Experiment>, IdentifyError> {
    let mut root = set.to_vec();
    root.sort_unstable();
    root.dedup();
    let inputs: Vec<LabelId> = sa.alphabet.inputs().collect();
    let outputs: Vec<LabelId> = sa.alphabet.outputs().collect();
    // Moves of a set: (None, children) for outputs if all injective; (Some(a), [child]) per input.
    type Moves = Vec<(Option<LabelId>, Vec<(LabelId, Vec<StateId>)>)>;
    let moves_of = |v: &[StateId]| -> Moves {
        let mut moves = Vec::new();
        if v.len() <= 1 {
            return moves;
        }
        let mut outs = Vec::new();
        let mut ok = true;
        for &x in &outputs {
            match set_after(sa, v, x) {
                Some(c) if c.is_empty() => {}
                Some(c) => outs.push((x, c)),
                None => ok = false,
            }
        }
        if ok {
            moves.push((None, outs));
        }
        for &a in &inputs {
            if v.iter().all(|&s| sa.after(s, a).is_some())
                && let Some(c) = set_after(sa, v, a)
            {
                moves.push((Some(a), vec![(a, c)]));
            }
        }
        moves
    };
    let mut sets: Vec<Vec<StateId>> = vec![root.clone()];
    let mut id: HashMap<Vec<StateId>, usize> = HashMap::new();
    id.insert(root, 0);
    let mut all_moves: Vec<Moves> = Vec::new();
    let mut head = 0;
    while head < sets.len() {
        let m = moves_of(&sets[head]);
        for (_, children) in &m {
            for (_, c) in children {
                if !id.contains_key(c) {
                    if sets.len() >= budget {
                        return Err(IdentifyError::Budget {
                            what: format!("the sets reachable from a set of {} states", set.len()),
                            budget,
                            advice: "try a smaller set of states".into(),
                        });
                    }
                    id.insert(c.clone(), sets.len());
                    sets.push(c.clone());
                }
            }
        }
        all_moves.push(m);
        head += 1;
    }
    // Least fixpoint: level[v] = the round in which v became distinguishable.
    let mut level: Vec<Option<usize>> = sets.iter().map(|s| (s.len() <= 1).then_some(0)).collect();
    let mut choice: Vec<Option<usize>> = vec![None; sets.len()];
    let mut round = 0;
    loop {
        round += 1;
        let mut changed = false;
        for v in 0..sets.len() {
            if level[v].is_some() {
                continue;
            }
            let found = all_moves[v].iter().position(|(_, children)| {
                children
                    .iter()
                    .all(|(_, c)| level[id[c]].is_some_and(|l| l < round))
            });
            if let Some(k) = found {
                level[v] = Some(round);
                choice[v] = Some(k);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    if level[0].is_none() {
        return Ok(None);
    }
    let (order, index, _) = post_order(0usize, |&v| match choice[v] {
        None => Vec::new(),
        Some(k) => all_moves[v][k].1.iter().map(|(_, c)| id[c]).collect(),
    });
    Ok(Some(assemble(&order, &index, |&v, idx| {
        let step = match choice[v] {
            None => Step::Leaf,
            Some(k) => match &all_moves[v][k] {
                (None, children) => Step::Outputs {
                    branches: children.iter().map(|(x, c)| (*x, idx(&id[c]))).collect(),
                },
                (Some(a), children) => Step::Input {
                    input: *a,
                    then: idx(&id[&children[0].1]),
                    race: outputs
                        .iter()
                        .filter(|&&x| {
                            x != sa.quiescence()
                                && sets[v].iter().any(|&s| sa.after(s, x).is_some())
                        })
                        .map(|&x| (x, Race::Retry))
                        .collect(),
                },
            },
        };
        ExperimentNode {
            states: sets[v].clone(),
            step,
        }
    })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::compatibility::tests::vdbos_fig_2_1 as fig_2_1;
    use crate::model::suspension_from_marked;
    use crate::suite::case::suite_model;
    use crate::suite::{Next, TestNode};

    fn s(k: u32) -> StateId {
        StateId(k)
    }

    #[test]
    fn fig_2_7_graphs() {
        let sa = fig_2_1();
        let c = Compatibility::compute(&sa);
        let l = |n: &str| sa.alphabet.get(n).unwrap();
        // Thesis {2, 6}: wait for an output; w reveals 2 (leaf {4}), quiescence reveals 6 (leaf
        // {6}).
        let g26 = pairwise_graph(&sa, &c, s(1), s(5), Preference::Outputs).unwrap();
        assert_eq!(g26.root_states(), &[s(1), s(5)]);
        let Step::Outputs { branches } = &g26.nodes()[0].step else {
            panic!("{g26:?}")
        };
        let labels: Vec<LabelId> = branches.iter().map(|b| b.0).collect();
        assert_eq!(labels, vec![l("w"), l("delta")]);
        assert_eq!(g26.nodes()[branches[0].1 as usize].states, vec![s(3)]);
        assert_eq!(g26.nodes()[branches[1].1 as usize].states, vec![s(5)]);
        assert_eq!(g26.depth(), 1);
        // Thesis {1, 4}: x leads to the graph of {2, 6}, y and z reveal 4.
        let g14 = pairwise_graph(&sa, &c, s(0), s(3), Preference::Outputs).unwrap();
        let Step::Outputs { branches } = &g14.nodes()[0].step else {
            panic!("{g14:?}")
        };
        let (x, tx) = branches[0];
        assert_eq!(x, l("x"));
        assert_eq!(g14.nodes()[tx as usize].states, vec![s(1), s(5)]);
        assert_eq!(branches.len(), 3);
        assert_eq!(branches[1].0, l("y"));
        assert_eq!(branches[2].0, l("z"));
        assert_eq!(g14.depth(), 2);
        assert!(pairwise_graph(&sa, &c, s(1), s(2), Preference::Outputs).is_none());

        // As a test case for a system that should be in 2 or 6.
        let model = suite_model(&sa);
        let t = g26.to_test_case(&sa, &[s(1), s(5)], &model);
        t.validate(model.inputs.len(), model.num_output_ids())
            .unwrap();
        assert_eq!(t.nodes.len(), 1);
        let w = model.outputs.iter().position(|o| o == "w").unwrap() as u32;
        let x = model.outputs.iter().position(|o| o == "x").unwrap() as u32;
        assert_eq!(t.nodes[0].on_output(LabelId(w)), Next::PASS);
        assert_eq!(t.nodes[0].on_output(LabelId(x)), Next::FAIL);
    }

    #[test]
    fn input_preference_races_outputs_into_retry() {
        // 0 and 1 share output x into the same state (so waiting does not distinguish them), but
        // input a leads to 2 and 3, which differ on outputs.
        let sa = suspension_from_marked(
            "t",
            4,
            &[
                (0, "!x", 0),
                (0, "?a", 2),
                (1, "!x", 0),
                (1, "?a", 3),
                (2, "!y", 2),
                (3, "!z", 3),
            ],
        )
        .unwrap();
        let c = Compatibility::compute(&sa);
        let g = pairwise_graph(&sa, &c, s(0), s(1), Preference::Outputs).unwrap();
        let Step::Input { race, then, .. } = &g.nodes()[0].step else {
            panic!("{g:?}")
        };
        assert_eq!(race, &vec![(sa.alphabet.get("x").unwrap(), Race::Retry)]);
        assert_eq!(g.nodes()[*then as usize].states, vec![s(2), s(3)]);
        let model = suite_model(&sa);
        let t = g.to_test_case(&sa, &[s(0)], &model);
        t.validate(model.inputs.len(), model.num_output_ids())
            .unwrap();
        let TestNode::Send { race, .. } = &t.nodes[0] else {
            panic!("{t:?}")
        };
        assert_eq!(race, &vec![(LabelId(0), Next::RETRY)]);
        // From 0 (after a: state 2) only y passes.
        let y = model.outputs.iter().position(|o| o == "y").unwrap() as u32;
        let z = model.outputs.iter().position(|o| o == "z").unwrap() as u32;
        assert_eq!(t.nodes[1].on_output(LabelId(y)), Next::PASS);
        assert_eq!(t.nodes[1].on_output(LabelId(z)), Next::FAIL);
    }

    #[test]
    fn preference_decides_when_both_moves_win() {
        let sa = suspension_from_marked(
            "t",
            4,
            &[
                (0, "!x", 2),
                (0, "?a", 2),
                (1, "!x", 3),
                (1, "?a", 3),
                (2, "!y", 2),
                (3, "!z", 3),
            ],
        )
        .unwrap();
        let c = Compatibility::compute(&sa);
        let by_outputs = pairwise_graph(&sa, &c, s(0), s(1), Preference::Outputs).unwrap();
        assert!(matches!(by_outputs.nodes()[0].step, Step::Outputs { .. }));
        let by_inputs = pairwise_graph(&sa, &c, s(0), s(1), Preference::Inputs).unwrap();
        assert!(matches!(by_inputs.nodes()[0].step, Step::Input { .. }));
    }

    #[test]
    fn harmonised_identifiers_cover_every_incompatible_pair() {
        let sa = fig_2_1();
        let c = Compatibility::compute(&sa);
        let ids = StateIdentifiers::compute(&sa, &c, Preference::Outputs).unwrap();
        assert_eq!(ids.len(), c.num_incompatible_pairs());
        for (q, r) in c.incompatible_pairs() {
            let e = ids.for_pair(q, r).unwrap();
            assert!(ids.of(q).contains(&e) && ids.of(r).contains(&e));
            assert_eq!(ids.pair(e), (q, r));
            assert_eq!(ids.experiment(e).root_states(), &[q, r]);
        }
        assert_eq!(ids.of(s(2)).len(), 4);
        assert!(ids.for_pair(s(2), s(1)).is_none());
        let err = StateIdentifiers::compute_with_budget(&sa, &c, Preference::Outputs, 3);
        assert!(matches!(err, Err(IdentifyError::Budget { .. })));
    }

    /// Fig. 2.6: 1, 3 and 5 are mutually incompatible, a merges 1 and 3, b merges 3 and 5, z
    /// loops. Thesis state k is `StateId(k - 1)`.
    fn fig_2_6() -> SuspensionAutomaton {
        suspension_from_marked(
            "fig2.6",
            5,
            &[
                (0, "!z", 0),
                (0, "?a", 1),
                (0, "?b", 1),
                (2, "!z", 2),
                (2, "?a", 1),
                (2, "?b", 3),
                (4, "!z", 4),
                (4, "?a", 3),
                (4, "?b", 3),
                (1, "!x", 1),
                (3, "!y", 3),
            ],
        )
        .unwrap()
    }

    #[test]
    fn fig_2_6_has_no_graph_for_1_3_5() {
        let sa = fig_2_6();
        let c = Compatibility::compute(&sa);
        for (q, r) in [(0, 2), (0, 4), (2, 4)] {
            assert!(!c.compatible(s(q), s(r)));
            assert!(set_graph(&sa, &[s(q), s(r)], 1000).unwrap().is_some());
        }
        assert!(set_graph(&sa, &[s(0), s(2), s(4)], 1000).unwrap().is_none());
        // Observations of a pairwise graph are disjoint for the two states (Def. 3.18).
        let g = pairwise_graph(&sa, &c, s(0), s(2), Preference::Inputs).unwrap();
        let o0 = g.observations(&sa, s(0), 100).unwrap();
        let o2 = g.observations(&sa, s(2), 100).unwrap();
        assert!(!o0.is_empty() && !o2.is_empty());
        assert!(o0.iter().all(|t| !o2.contains(t)));
    }

    #[test]
    fn pairwise_graphs_distinguish_on_random_automata() {
        for seed in 0..200u64 {
            let sa =
                crate::identify::random::random_suspension(seed, 3 + (seed % 6) as usize, 2, 3);
            let c = Compatibility::compute(&sa);
            for pref in [Preference::Outputs, Preference::Inputs] {
                for (q, r) in c.incompatible_pairs() {
                    let g = pairwise_graph(&sa, &c, q, r, pref).unwrap();
                    assert_eq!(pairwise_graph_size(&sa, &c, q, r, pref), Some(g.len()));
                    let oq = g.observations(&sa, q, 10_000).unwrap();
                    let or = g.observations(&sa, r, 10_000).unwrap();
                    assert!(oq.iter().all(|t| !or.contains(t)), "seed {seed} ({q},{r})");
                    for node in g.nodes() {
                        assert!(node.states.len() <= 2);
                    }
                }
            }
        }
    }
}
