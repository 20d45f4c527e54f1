//! Shortest access sequences of a Mealy machine: the breadth-first spanning tree from the initial
//! state with inputs tried in id order, so the access sequence of every state is a shortest one
//! and, among those, the least in input order of discovery. The state cover is the set of access
//! sequences (prefix-closed); the transition cover extends each by every input.

use crate::model::{LabelId, Mealy, StateId};
use std::collections::VecDeque;

const NONE: u32 = u32::MAX;

/// The breadth-first spanning tree of the reachable states.
#[derive(Clone, Debug)]
pub struct AccessTree {
    k: usize,
    /// `(parent, input)` of every reached state except the initial one.
    parent: Vec<(u32, LabelId)>,
    depth: Vec<u32>,
    /// Reached states in breadth-first order.
    order: Vec<StateId>,
    /// `child[s * k + a]`: the state whose tree edge is `(s, a)`, or `NONE`.
    child: Vec<u32>,
}

impl AccessTree {
    /// The spanning tree of the states reachable from the initial state.
    pub fn new(m: &Mealy) -> AccessTree {
        let n = m.num_states();
        let k = m.num_inputs();
        let mut parent = vec![(NONE, LabelId(0)); n];
        let mut depth = vec![NONE; n];
        let mut child = vec![NONE; n * k];
        let mut order = Vec::new();
        let mut queue = VecDeque::new();
        let init = m.initial();
        depth[init.index()] = 0;
        queue.push_back(init);
        while let Some(s) = queue.pop_front() {
            order.push(s);
            for a in m.input_ids() {
                if let Some((t, _)) = m.step(s, a)
                    && depth[t.index()] == NONE
                {
                    depth[t.index()] = depth[s.index()] + 1;
                    parent[t.index()] = (s.0, a);
                    child[s.index() * k + a.index()] = t.0;
                    queue.push_back(t);
                }
            }
        }
        AccessTree {
            k,
            parent,
            depth,
            order,
            child,
        }
    }

    /// Whether `s` is reachable.
    pub fn reaches(&self, s: StateId) -> bool {
        self.depth[s.index()] != NONE
    }

    /// The length of the access sequence of `s` (`None` if unreachable).
    pub fn depth(&self, s: StateId) -> Option<usize> {
        self.reaches(s).then(|| self.depth[s.index()] as usize)
    }

    /// The access sequence of `s` (`None` if unreachable).
    pub fn access(&self, s: StateId) -> Option<Vec<LabelId>> {
        let d = self.depth(s)?;
        let mut w = vec![LabelId(0); d];
        let mut cur = s.0;
        for slot in w.iter_mut().rev() {
            let (p, a) = self.parent[cur as usize];
            *slot = a;
            cur = p;
        }
        Some(w)
    }

    /// Reachable states in breadth-first order.
    pub fn bfs_order(&self) -> &[StateId] {
        &self.order
    }

    /// The tree child of `s` under input `a`, if `(s, a)` is a tree edge.
    pub fn tree_child(&self, s: StateId, a: LabelId) -> Option<StateId> {
        let c = self.child[s.index() * self.k + a.index()];
        (c != NONE).then_some(StateId(c))
    }

    /// Reachable states in depth-first pre-order with children in input order: the
    /// lexicographic order of their access sequences.
    pub fn dfs_order(&self) -> Vec<StateId> {
        let mut out = Vec::with_capacity(self.order.len());
        let Some(&root) = self.order.first() else {
            return out;
        };
        let mut stack = vec![root];
        while let Some(s) = stack.pop() {
            out.push(s);
            for a in (0..self.k).rev() {
                let c = self.child[s.index() * self.k + a];
                if c != NONE {
                    stack.push(StateId(c));
                }
            }
        }
        out
    }

    /// The state cover: access sequences of all reachable states, in breadth-first order.
    pub fn state_cover(&self) -> Vec<Vec<LabelId>> {
        self.order
            .iter()
            .map(|&s| self.access(s).expect("ordered states are reachable"))
            .collect()
    }

    /// The transition cover: the empty word and every access sequence extended by every input
    /// defined there, in breadth-first order of the states, then input order.
    pub fn transition_cover(&self, m: &Mealy) -> Vec<Vec<LabelId>> {
        let mut out = vec![Vec::new()];
        for &s in &self.order {
            let p = self.access(s).expect("ordered states are reachable");
            for a in m.input_ids() {
                if m.step(s, a).is_some() {
                    let mut w = p.clone();
                    w.push(a);
                    out.push(w);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::mealy_from_named;

    #[test]
    fn access_sequences_are_shortest_and_in_input_order() {
        // 0 -a-> 1 -a-> 2, 0 -b-> 2 (b is later than a, but shorter), 3 unreachable.
        let m = mealy_from_named(
            "m",
            4,
            &[
                (0, "a", "x", 1),
                (0, "b", "x", 2),
                (1, "a", "x", 2),
                (1, "b", "x", 0),
                (2, "a", "x", 2),
                (2, "b", "x", 2),
                (3, "a", "x", 0),
                (3, "b", "x", 0),
            ],
        )
        .unwrap();
        let t = AccessTree::new(&m);
        let a = m.inputs.get("a").unwrap();
        let b = m.inputs.get("b").unwrap();
        assert_eq!(t.access(StateId(2)), Some(vec![b]));
        assert_eq!(t.access(StateId(1)), Some(vec![a]));
        assert_eq!(t.access(StateId(3)), None);
        assert_eq!(t.state_cover(), vec![vec![], vec![a], vec![b]]);
        assert_eq!(t.transition_cover(&m).len(), 1 + 3 * 2);
        assert_eq!(t.dfs_order(), vec![StateId(0), StateId(1), StateId(2)]);
        assert_eq!(t.tree_child(StateId(0), b), Some(StateId(2)));
        assert_eq!(t.tree_child(StateId(1), a), None);
    }
}
