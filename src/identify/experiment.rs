//! Distinguishing experiments as explicit DAGs, shared by pairwise distinguishing graphs
//! (Def. 2.27), adaptive distinguishing graphs (Def. 3.21) and top-ups.
//!
//! Every node records its current set: the specification states the system may be in after the
//! labels on the path from the root, started from the root's set. A node either applies one input
//! (outputs that arrive first race it), waits for an output with one edge per output some state
//! of the current set allows, or is a leaf. Outputs without an edge are allowed by no state of the
//! current set: observing one refutes every state.
//!
//! The suite layer turns experiments into test cases ([`Experiment::to_test_case`], in
//! [`crate::suite::distinguish`]).

use crate::model::{LabelId, StateId, SuspensionAutomaton};
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
