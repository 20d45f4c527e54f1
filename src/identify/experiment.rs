//! Distinguishing experiments as explicit DAGs, shared by pairwise distinguishing graphs
//! (Def. 2.27), adaptive distinguishing graphs (Def. 3.21) and top-ups.
//!
//! Every node records its current set: the specification states the system may be in after the
//! labels on the path from the root, started from the root's set. A node either applies one input
//! (outputs that arrive first race it), waits for an output with one edge per output some state
//! of the current set allows, or is a leaf. Outputs without an edge are allowed by no state of the
//! current set: observing one refutes every state.
//!
//! [`Experiment::to_test_case`] turns an experiment into a suite JSON v1 test case (van den Bos
//! Def. 3.12 with race handling as in Sec. 2.7): pass at leaves, fail on an output no state of the
//! current set allows, retry when an allowed output wins the race against an input. Soundness: if
//! an input is applied in a state that does not specify it, anything may follow (demonic
//! completion), so from then on nothing fails in that branch.

use super::sets::after;
use crate::model::{LabelId, StateId, SuspensionAutomaton};
use crate::suite::{Next, SuiteModel, TestCase, TestNode};
use std::collections::HashMap;
use std::hash::Hash;

/// Where an output that races an input leads.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Race {
    /// Inconclusive: reset and run again (the `Reset` node of Def. 2.27).
    Retry,
    /// Continue at this node.
    Node(u32),
}

/// What a node of an experiment does.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// The experiment ends here (pass).
    Leaf,
    /// Apply `input` and continue at `then`; an output arriving first continues at its race entry.
    Input {
        /// The input (a label of the automaton).
        input: LabelId,
        /// Node after the input.
        then: u32,
        /// Outputs that may win the race (never quiescence), sorted by label.
        race: Vec<(LabelId, Race)>,
    },
    /// Wait for an output; one edge per output allowed by some state of the current set.
    Outputs {
        /// Continuations, sorted by label.
        branches: Vec<(LabelId, u32)>,
    },
}

/// One node of an experiment.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ExperimentNode {
    /// The current set, sorted.
    pub states: Vec<StateId>,
    /// What the tester does here.
    pub step: Step,
}

/// A distinguishing experiment: a rooted DAG of [`ExperimentNode`]s in topological order (node 0
/// is the root, every edge points to a later node).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Experiment {
    nodes: Vec<ExperimentNode>,
}

impl Experiment {
    /// Builds an experiment from nodes in topological order. Panics (a programming error) if an
    /// edge points backwards or out of range.
    pub fn from_nodes(nodes: Vec<ExperimentNode>) -> Experiment {
        for (k, node) in nodes.iter().enumerate() {
            for t in node.successors() {
                assert!(
                    (t as usize) > k && (t as usize) < nodes.len(),
                    "experiment edge {k} -> {t} is not forward"
                );
            }
        }
        assert!(!nodes.is_empty(), "an experiment has a root");
        Experiment { nodes }
    }

    /// The nodes, root first.
    pub fn nodes(&self) -> &[ExperimentNode] {
        &self.nodes
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: an experiment has a root.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The current set at the root.
    pub fn root_states(&self) -> &[StateId] {
        &self.nodes[0].states
    }

    /// Length of the longest path in labels (the depth of Table 3.2); races are not counted.
    pub fn depth(&self) -> usize {
        let mut depth = vec![0usize; self.nodes.len()];
        for k in (0..self.nodes.len()).rev() {
            depth[k] = match &self.nodes[k].step {
                Step::Leaf => 0,
                Step::Input { then, .. } => 1 + depth[*then as usize],
                Step::Outputs { branches } => {
                    1 + branches
                        .iter()
                        .map(|&(_, t)| depth[t as usize])
                        .max()
                        .unwrap_or(0)
                }
            };
        }
        depth[0]
    }

    /// The leaves' node indices.
    pub fn leaves(&self) -> impl Iterator<Item = usize> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.step == Step::Leaf)
            .map(|(k, _)| k)
    }

    /// The observations of this experiment run against `sa` started in `q` (Def. 3.13 applied to
    /// `A‖S/q`): the label sequences from the root to a leaf that `q` can produce, in label order.
    /// Paths on which `q` does not enable the applied input are not observations. Stops after
    /// `limit` observations (`None` then).
    pub fn observations(
        &self,
        sa: &SuspensionAutomaton,
        q: StateId,
        limit: usize,
    ) -> Option<Vec<Vec<LabelId>>> {
        let mut out = Vec::new();
        let mut stack = vec![(0u32, q, Vec::new())];
        while let Some((k, s, trace)) = stack.pop() {
            match &self.nodes[k as usize].step {
                Step::Leaf => {
                    out.push(trace);
                    if out.len() > limit {
                        return None;
                    }
                }
                Step::Input { input, then, .. } => {
                    if let Some(t) = sa.after(s, *input) {
                        let mut tr = trace;
                        tr.push(*input);
                        stack.push((*then, t, tr));
                    }
                }
                Step::Outputs { branches } => {
                    for &(x, target) in branches.iter().rev() {
                        if let Some(t) = sa.after(s, x) {
                            let mut tr = trace.clone();
                            tr.push(x);
                            stack.push((target, t, tr));
                        }
                    }
                }
            }
        }
        out.sort();
        Some(out)
    }

    /// The test case of this experiment for a system that should be in one of the states `start`
    /// (suite JSON v1 semantics; see the module documentation). Labels are mapped to `model` by
    /// name; `model` must name every label of `sa` (as [`suite_model`] does). The name is left
    /// empty for the caller.
    pub fn to_test_case(
        &self,
        sa: &SuspensionAutomaton,
        start: &[StateId],
        model: &SuiteModel,
    ) -> TestCase {
        let map = SuiteLabels::new(sa, model);
        TestCase {
            name: String::new(),
            nodes: self.test_nodes(sa, start, &map, 0),
        }
    }

    /// The nodes of [`Experiment::to_test_case`] from `start`, numbered from `first` on.
    fn test_nodes(
        &self,
        sa: &SuspensionAutomaton,
        start: &[StateId],
        map: &SuiteLabels,
        first: u32,
    ) -> Vec<TestNode> {
        let mut start = start.to_vec();
        start.sort_unstable();
        start.dedup();
        let mut builder = CaseBuilder {
            exp: self,
            sa,
            map,
            memo: HashMap::new(),
            post: Vec::new(),
        };
        let root = builder.build(0, start.clone(), false);
        let mut post = builder.post;
        if let Next::Verdict(_) = root {
            // A trivial experiment still checks the next output against the start states.
            post.push(TestNode::Expect {
                branches: map.allowed_outputs(sa, &start, false, |_| Next::PASS),
            });
        }
        // Post-order reversed: the root first, every reference to a later node.
        let last = first + post.len() as u32 - 1;
        let renumber = |n: Next| match n {
            Next::Node(i) => Next::Node(last - i),
            v => v,
        };
        post.into_iter()
            .rev()
            .map(|node| match node {
                TestNode::Send { input, then, race } => TestNode::Send {
                    input,
                    then: renumber(then),
                    race: race.into_iter().map(|(o, n)| (o, renumber(n))).collect(),
                },
                TestNode::Expect { branches } => TestNode::Expect {
                    branches: branches
                        .into_iter()
                        .map(|(o, n)| (o, renumber(n)))
                        .collect(),
                },
            })
            .collect()
    }
}

impl Experiment {
    /// The test case that first walks `access` from the initial state of `sa` and then runs this
    /// experiment from the state reached, which is then the only start state (suite JSON v1
    /// semantics). On the way, an input is raced by the outputs the current state allows (retry:
    /// the system went elsewhere, which the specification allows), and an awaited output by the
    /// other allowed outputs (retry); an output the current state forbids fails. So the test
    /// fails only on what the specification forbids after the trace observed. Labels are mapped
    /// by `map` (built once per suite). `None` if `sa` does not enable `access` from its initial
    /// state.
    pub fn to_test_case_after(
        &self,
        sa: &SuspensionAutomaton,
        access: &[LabelId],
        map: &SuiteLabels,
    ) -> Option<TestCase> {
        let quiescence = map.quiescence;
        let mut nodes = Vec::with_capacity(access.len());
        let mut s = sa.initial();
        for (k, &l) in access.iter().enumerate() {
            let next = Next::Node(k as u32 + 1);
            let node = if sa.alphabet.is_input(l) {
                let mut race = map.allowed_outputs(sa, &[s], false, |_| Next::RETRY);
                race.retain(|&(o, _)| Some(o) != quiescence);
                TestNode::Send {
                    input: LabelId(map.to_suite[l.index()]),
                    then: next,
                    race,
                }
            } else {
                TestNode::Expect {
                    branches: map.allowed_outputs(sa, &[s], false, |x| {
                        if x == l { next } else { Next::RETRY }
                    }),
                }
            };
            nodes.push(node);
            s = sa.after(s, l)?;
        }
        let shift = nodes.len() as u32;
        nodes.extend(self.test_nodes(sa, &[s], map, shift));
        Some(TestCase {
            name: String::new(),
            nodes,
        })
    }
}

impl ExperimentNode {
    /// Node indices this node leads to.
    pub fn successors(&self) -> impl Iterator<Item = u32> + '_ {
        let empty_race: &[(LabelId, Race)] = &[];
        let empty_branches: &[(LabelId, u32)] = &[];
        let (a, b, c) = match &self.step {
            Step::Leaf => (None, empty_race, empty_branches),
            Step::Input { then, race, .. } => (Some(*then), race.as_slice(), empty_branches),
            Step::Outputs { branches } => (None, empty_race, branches.as_slice()),
        };
        a.into_iter()
            .chain(b.iter().filter_map(|&(_, r)| match r {
                Race::Node(k) => Some(k),
                Race::Retry => None,
            }))
            .chain(c.iter().map(|&(_, k)| k))
    }
}

/// The suite model of a suspension automaton: inputs and outputs in label order, quiescence last.
pub fn suite_model(sa: &SuspensionAutomaton) -> SuiteModel {
    let q = sa.quiescence();
    SuiteModel {
        name: sa.name.clone(),
        inputs: sa
            .alphabet
            .inputs()
            .map(|l| sa.alphabet.name(l).to_owned())
            .collect(),
        outputs: sa
            .alphabet
            .outputs()
            .filter(|&l| l != q)
            .map(|l| sa.alphabet.name(l).to_owned())
            .collect(),
        quiescence: Some(sa.alphabet.name(q).to_owned()),
    }
}

/// Automaton labels to the label ids of a suite model, built once per suite and shared by its
/// tests ([`Experiment::to_test_case_after`]).
pub struct SuiteLabels {
    /// Suite id per automaton label (`u32::MAX` for internal labels).
    to_suite: Vec<u32>,
    /// Automaton output label per suite output id.
    outputs: Vec<LabelId>,
    /// The suite id of quiescence, if the model has it.
    quiescence: Option<LabelId>,
}

impl SuiteLabels {
    /// The map from the labels of `sa` to those of `model`, which must name every label of `sa`
    /// (as [`suite_model`] does).
    pub fn new(sa: &SuspensionAutomaton, model: &SuiteModel) -> SuiteLabels {
        let mut to_suite = vec![u32::MAX; sa.alphabet.len()];
        let mut outputs = vec![LabelId(u32::MAX); model.num_output_ids()];
        for l in sa.alphabet.ids() {
            let name = sa.alphabet.name(l);
            let id = if sa.alphabet.is_input(l) {
                model.inputs.iter().position(|n| n == name)
            } else if l == sa.quiescence() && model.quiescence.as_deref() == Some(name) {
                Some(model.outputs.len())
            } else {
                model.outputs.iter().position(|n| n == name)
            };
            let id = id.unwrap_or_else(|| {
                panic!(
                    "suite model `{}` lacks label `{name}` of the automaton",
                    model.name
                )
            });
            to_suite[l.index()] = id as u32;
            if sa.alphabet.is_output(l) {
                outputs[id] = l;
            }
        }
        SuiteLabels {
            to_suite,
            outputs,
            quiescence: model.quiescence_id(),
        }
    }

    /// Branches in suite order for the outputs allowed by `set` (all outputs if `unconstrained`).
    fn allowed_outputs(
        &self,
        sa: &SuspensionAutomaton,
        set: &[StateId],
        unconstrained: bool,
        mut next: impl FnMut(LabelId) -> Next,
    ) -> Vec<(LabelId, Next)> {
        let mut out = Vec::new();
        for (o, &l) in self.outputs.iter().enumerate() {
            if l.0 == u32::MAX {
                continue;
            }
            if unconstrained || set.iter().any(|&s| sa.after(s, l).is_some()) {
                out.push((LabelId(o as u32), next(l)));
            }
        }
        out
    }
}

struct CaseBuilder<'a> {
    exp: &'a Experiment,
    sa: &'a SuspensionAutomaton,
    map: &'a SuiteLabels,
    memo: HashMap<(u32, Vec<StateId>, bool), Next>,
    /// Test nodes in post-order (children before parents).
    post: Vec<TestNode>,
}

impl CaseBuilder<'_> {
    fn build(&mut self, k: u32, set: Vec<StateId>, unconstrained: bool) -> Next {
        if set.is_empty() {
            // Only reachable when unconstrained: anything goes.
            return Next::PASS;
        }
        let key = (k, set, unconstrained);
        if let Some(&n) = self.memo.get(&key) {
            return n;
        }
        let (k, set, unconstrained) = key;
        let sa = self.sa;
        let node = match &self.exp.nodes[k as usize].step {
            Step::Leaf => {
                self.memo.insert((k, set, unconstrained), Next::PASS);
                return Next::PASS;
            }
            Step::Outputs { branches } => {
                let branches = branches.clone();
                let mut list = Vec::new();
                for (o, &l) in self.map.outputs.iter().enumerate() {
                    if l.0 == u32::MAX {
                        continue;
                    }
                    let next_set = after(sa, &set, l);
                    if next_set.is_empty() && !unconstrained {
                        continue;
                    }
                    let next = match branches.binary_search_by_key(&l, |&(x, _)| x) {
                        Ok(j) => self.build(branches[j].1, next_set, unconstrained),
                        Err(_) => Next::PASS,
                    };
                    list.push((LabelId(o as u32), next));
                }
                TestNode::Expect { branches: list }
            }
            Step::Input { input, then, race } => {
                let (input, then, race) = (*input, *then, race.clone());
                let escapes = set.iter().any(|&s| sa.after(s, input).is_none());
                let next_set = after(sa, &set, input);
                let then = self.build(then, next_set, unconstrained || escapes);
                let mut list = Vec::new();
                for (o, &l) in self.map.outputs.iter().enumerate() {
                    // Quiescence never races an input.
                    if l.0 == u32::MAX || l == sa.quiescence() {
                        continue;
                    }
                    let next_set = after(sa, &set, l);
                    if next_set.is_empty() && !unconstrained {
                        continue;
                    }
                    let next = match race.binary_search_by_key(&l, |&(x, _)| x) {
                        Ok(j) => match race[j].1 {
                            Race::Node(t) => self.build(t, next_set, unconstrained),
                            Race::Retry => Next::RETRY,
                        },
                        Err(_) => Next::RETRY,
                    };
                    list.push((LabelId(o as u32), next));
                }
                TestNode::Send {
                    input: LabelId(self.map.to_suite[input.index()]),
                    then,
                    race: list,
                }
            }
        };
        let id = Next::Node(self.post.len() as u32);
        self.post.push(node);
        self.memo.insert((k, set, unconstrained), id);
        id
    }
}

/// Keys in post-order, the index of each key in that order, and each key's children.
pub(crate) type PostOrder<K> = (Vec<K>, HashMap<K, usize>, Vec<Vec<K>>);

/// Iterative depth-first post-order over a DAG given by `children` (no recursion, so deep
/// experiments do not exhaust the stack). Returns the keys in post-order and each key's children.
pub(crate) fn post_order<K: Clone + Eq + Hash>(
    root: K,
    mut children: impl FnMut(&K) -> Vec<K>,
) -> PostOrder<K> {
    let mut index: HashMap<K, usize> = HashMap::new();
    let mut order: Vec<K> = Vec::new();
    let mut kids: Vec<Vec<K>> = Vec::new();
    let mut on_stack: HashMap<K, ()> = HashMap::new();
    let mut stack: Vec<(K, Vec<K>, usize)> = Vec::new();
    let first = children(&root);
    on_stack.insert(root.clone(), ());
    stack.push((root, first, 0));
    while let Some(top) = stack.last_mut() {
        if top.2 < top.1.len() {
            let child = top.1[top.2].clone();
            top.2 += 1;
            if index.contains_key(&child) || on_stack.contains_key(&child) {
                continue;
            }
            let grand = children(&child);
            on_stack.insert(child.clone(), ());
            stack.push((child, grand, 0));
        } else {
            let (key, ch, _) = stack.pop().expect("non-empty stack");
            on_stack.remove(&key);
            index.insert(key.clone(), order.len());
            order.push(key);
            kids.push(ch);
        }
    }
    (order, index, kids)
}

/// Assembles an experiment from a post-order of keys: `make(key, child_index)` builds the node,
/// where `child_index` maps a child key to its final (topological) index.
pub(crate) fn assemble<K: Clone + Eq + Hash>(
    order: &[K],
    index: &HashMap<K, usize>,
    mut make: impl FnMut(&K, &dyn Fn(&K) -> u32) -> ExperimentNode,
) -> Experiment {
    let len = order.len();
    let final_index = |k: &K| (len - 1 - index[k]) as u32;
    let nodes = order.iter().rev().map(|k| make(k, &final_index)).collect();
    Experiment::from_nodes(nodes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Compatibility, Preference};
    use crate::identify::{AdaptiveIdentification, SplittingGraph, pairwise_graph};

    /// Whether some run of `sa` from `q` reaches `fail` in `t` (outputs chosen by the system,
    /// races included); a state not specifying an input ends the exploration (anything allowed).
    fn can_fail(sa: &SuspensionAutomaton, model: &SuiteModel, t: &TestCase, q: StateId) -> bool {
        let map = SuiteLabels::new(sa, model);
        let mut stack = vec![(0u32, q)];
        let mut seen = std::collections::HashSet::new();
        while let Some((k, s)) = stack.pop() {
            if !seen.insert((k, s)) {
                continue;
            }
            let node = &t.nodes[k as usize];
            let follow = |n: Next, s2: StateId, stack: &mut Vec<(u32, StateId)>| match n {
                Next::Node(j) => {
                    stack.push((j, s2));
                    false
                }
                Next::Verdict(v) => v == crate::suite::Verdict::Fail,
            };
            for &(l, s2) in sa.enabled(s) {
                if !sa.alphabet.is_output(l) {
                    continue;
                }
                let o = LabelId(map.to_suite[l.index()]);
                let racing = matches!(node, TestNode::Send { .. });
                if racing && l == sa.quiescence() {
                    continue;
                }
                if follow(node.on_output(o), s2, &mut stack) {
                    return true;
                }
            }
            if let TestNode::Send { input, then, .. } = node {
                let a = sa
                    .alphabet
                    .inputs()
                    .find(|&a| map.to_suite[a.index()] == input.0)
                    .expect("input of the model");
                if let Some(s2) = sa.after(s, a)
                    && follow(*then, s2, &mut stack)
                {
                    return true;
                }
            }
        }
        false
    }

    #[test]
    fn test_cases_never_fail_the_specification_itself() {
        let mut refuted = 0;
        for seed in 0..150u64 {
            let n = 2 + (seed % 7) as usize;
            let sa = crate::identify::random::random_suspension(seed, n, 2, 3);
            let model = suite_model(&sa);
            let c = Compatibility::compute(&sa);
            let g = SplittingGraph::build(&sa, &c).unwrap();
            let a = AdaptiveIdentification::compute(&sa, &c, &g, Preference::Inputs).unwrap();
            for q in sa.states() {
                let t = a.adg().to_test_case(&sa, &[q], &model);
                t.validate(model.inputs.len(), model.num_output_ids())
                    .unwrap();
                assert!(
                    !can_fail(&sa, &model, &t, q),
                    "seed {seed}: ADG fails state {q}"
                );
                let all: Vec<StateId> = sa.states().collect();
                let t = a.adg().to_test_case(&sa, &all, &model);
                assert!(
                    !can_fail(&sa, &model, &t, q),
                    "seed {seed}: ADG fails {q} in Q"
                );
            }
            for (q, r) in c.incompatible_pairs() {
                let e = pairwise_graph(&sa, &c, q, r, Preference::Inputs).unwrap();
                let t = e.to_test_case(&sa, &[q, r], &model);
                t.validate(model.inputs.len(), model.num_output_ids())
                    .unwrap();
                assert!(!can_fail(&sa, &model, &t, q) && !can_fail(&sa, &model, &t, r));
                // Run for a system that should be in q, the graph can refute r.
                let only_q = e.to_test_case(&sa, &[q], &model);
                refuted += usize::from(can_fail(&sa, &model, &only_q, r));
            }
        }
        assert!(refuted > 100, "the checker finds failures: {refuted}");
    }
}
