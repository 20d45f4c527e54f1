//! The Lee–Yannakakis splitting tree and the adaptive distinguishing sequence (ADS) it yields
//! (Lee and Yannakakis, "Testing finite-state machines: state identification and verification",
//! IEEE TC 1994).
//!
//! An input `a` is *valid* for a block `B` if no two states of `B` produce the same output on `a`
//! and move to the same state (applying it never loses the identity of a state). Blocks are
//! refined largest first: (a) by a valid input with different outputs on `B`; (b) by a valid `a`
//! whose image `δ(B, a)` is split by an existing node `v`, with sequence `a·σ(v)`; (c) by a valid
//! `a` that maps `B` onto a block of the same size that is split later in the same round,
//! propagated backwards through these implications. A block none of these splits stays a leaf:
//! its states have no ADS. The machine has an ADS iff every leaf is a single state.
//!
//! The ADS is built top-down from the tree: for the current states of a set of initial states,
//! apply `σ` of the lowest node containing all of them and branch on the output word. When the
//! tree is incomplete the result is a partial ADS whose leaves may hold several states; the
//! hybrid-ADS family tops those up with separating sequences.

use super::splitting::Table;
use crate::model::{LabelId, Mealy, StateId};

const NONE: u32 = u32::MAX;

#[derive(Clone, Debug)]
struct LyNode {
    block: Vec<u32>,
    parent: u32,
    depth: u32,
    sigma: Option<Vec<LabelId>>,
    children: Vec<u32>,
}

/// The Lee–Yannakakis splitting tree of a complete Mealy machine.
#[derive(Clone, Debug)]
pub struct LySplittingTree {
    nodes: Vec<LyNode>,
    leaf_of: Vec<u32>,
    /// A preorder number of every node: a subtree's nodes are a range of numbers, so the lowest
    /// node containing a set of states is the common ancestor of its first and last leaf.
    preorder: Vec<u32>,
}

impl LySplittingTree {
    /// Builds the tree for a complete machine (undefined transitions are treated as a distinct
    /// output leading to a sink, as in [`super::SplittingTree`]).
    pub fn new(m: &Mealy) -> LySplittingTree {
        let table = Table::new(m);
        let n = m.num_states();
        let mut t = LySplittingTree {
            nodes: vec![LyNode {
                block: (0..n as u32).collect(),
                parent: NONE,
                depth: 0,
                sigma: None,
                children: Vec::new(),
            }],
            leaf_of: vec![0; table.n],
            preorder: Vec::new(),
        };
        if table.n > n {
            t.leaf_of[n] = NONE;
        }
        t.build(&table);
        t.preorder = super::preorder(t.nodes.len(), |v| &t.nodes[v as usize].children).0;
        t
    }

    fn lca(&self, mut x: u32, mut y: u32) -> u32 {
        let d = |v: u32| self.nodes[v as usize].depth;
        while d(x) > d(y) {
            x = self.nodes[x as usize].parent;
        }
        while d(y) > d(x) {
            y = self.nodes[y as usize].parent;
        }
        while x != y {
            x = self.nodes[x as usize].parent;
            y = self.nodes[y as usize].parent;
        }
        x
    }

    /// The lowest node whose block contains all `states` (`None` if one is the sink), in a tree
    /// still growing (no preorder yet): one walk up per state.
    fn lowest_containing_while_building(&self, states: &[u32]) -> Option<u32> {
        let mut it = states.iter().map(|&s| self.leaf_of[s as usize]);
        let first = it.next()?;
        if first == NONE {
            return None;
        }
        let mut v = first;
        for l in it {
            if l == NONE {
                return None;
            }
            v = self.lca(v, l);
        }
        Some(v)
    }

    /// The lowest node whose block contains all `states` (`None` if one is the sink) once the
    /// tree is built: the common ancestor of the leaves first and last in preorder, so one walk
    /// up the tree.
    fn lowest_containing(&self, states: &[u32]) -> Option<u32> {
        let mut it = states.iter().map(|&s| self.leaf_of[s as usize]);
        let first = it.next()?;
        let (mut lo, mut hi) = (first, first);
        for l in std::iter::once(first).chain(it) {
            if l == NONE {
                return None;
            }
            if self.preorder[l as usize] < self.preorder[lo as usize] {
                lo = l;
            } else if self.preorder[l as usize] > self.preorder[hi as usize] {
                hi = l;
            }
        }
        Some(self.lca(lo, hi))
    }

    /// Whether `a` keeps the states of `block` apart (no two with equal output and target).
    fn valid(table: &Table, block: &[u32], a: usize) -> bool {
        let mut pairs: Vec<(u32, u32)> = block
            .iter()
            .map(|&s| {
                let (t, o) = table.step(s, a);
                (o, t)
            })
            .collect();
        pairs.sort_unstable();
        pairs.windows(2).all(|w| w[0] != w[1])
    }

    fn split(&mut self, table: &Table, node: u32, sigma: Vec<LabelId>) {
        let mut keyed: Vec<(Vec<u32>, u32)> = self.nodes[node as usize]
            .block
            .iter()
            .map(|&s| {
                let mut q = s;
                let mut outs = Vec::with_capacity(sigma.len());
                for &a in &sigma {
                    let (t, o) = table.step(q, a.index());
                    outs.push(o);
                    q = t;
                }
                (outs, s)
            })
            .collect();
        keyed.sort();
        let depth = self.nodes[node as usize].depth + 1;
        let mut children = Vec::new();
        let mut k = 0;
        while k < keyed.len() {
            let mut j = k;
            while j < keyed.len() && keyed[j].0 == keyed[k].0 {
                j += 1;
            }
            let id = self.nodes.len() as u32;
            let block: Vec<u32> = keyed[k..j].iter().map(|x| x.1).collect();
            for &s in &block {
                self.leaf_of[s as usize] = id;
            }
            self.nodes.push(LyNode {
                block,
                parent: node,
                depth,
                sigma: None,
                children: Vec::new(),
            });
            children.push(id);
            k = j;
        }
        debug_assert!(children.len() > 1, "a split separates the block");
        let nd = &mut self.nodes[node as usize];
        nd.sigma = Some(sigma);
        nd.children = children;
    }

    /// Refines the blocks in rounds, largest first. The blocks still to refine (unsplit, two or
    /// more states, not found unsplittable) wait in buckets by size: a round takes the largest
    /// bucket whole, in node order, and every block of it ends split or stuck, while the blocks
    /// a round makes are smaller, so no round scans the whole tree.
    fn build(&mut self, table: &Table) {
        let mut by_size: Vec<Vec<u32>> = vec![Vec::new(); self.nodes[0].block.len() + 1];
        if self.nodes[0].block.len() > 1 {
            by_size[self.nodes[0].block.len()].push(0);
        }
        let mut max = by_size.len() - 1;
        loop {
            while max > 0 && by_size[max].is_empty() {
                max -= 1;
            }
            if max == 0 {
                break;
            }
            let work = std::mem::take(&mut by_size[max]);
            let made_from = self.nodes.len();
            let mut split_now: Vec<u32> = Vec::new();
            // Blocks that could be split later in this round through an implication (c):
            // `waiting[target]` lists `(block, input)` with `δ(block, input) = target`.
            let mut waiting: Vec<(u32, u32, u32)> = Vec::new();
            for &b in &work {
                let block = self.nodes[b as usize].block.clone();
                let mut done = false;
                // (a) a valid input with different outputs.
                for a in 0..table.k {
                    let o0 = table.step(block[0], a).1;
                    if block.iter().any(|&s| table.step(s, a).1 != o0)
                        && Self::valid(table, &block, a)
                    {
                        self.split(table, b, vec![LabelId(a as u32)]);
                        done = true;
                        break;
                    }
                }
                if done {
                    split_now.push(b);
                    continue;
                }
                // (b) a valid input whose image is split by an existing node.
                for a in 0..table.k {
                    if !Self::valid(table, &block, a) {
                        continue;
                    }
                    let image: Vec<u32> = block.iter().map(|&s| table.step(s, a).0).collect();
                    let Some(v) = self.lowest_containing_while_building(&image) else {
                        continue;
                    };
                    if let Some(sv) = self.nodes[v as usize].sigma.clone() {
                        let mut sigma = vec![LabelId(a as u32)];
                        sigma.extend(sv);
                        self.split(table, b, sigma);
                        done = true;
                        break;
                    } else if v != b {
                        waiting.push((v, b, a as u32));
                    }
                }
                if done {
                    split_now.push(b);
                }
            }
            // (c) propagate splits backwards through the implications.
            waiting.sort_unstable();
            let mut queue = split_now.clone();
            let mut head = 0;
            while head < queue.len() {
                let c = queue[head];
                head += 1;
                let lo = waiting.partition_point(|w| w.0 < c);
                let mut k = lo;
                while k < waiting.len() && waiting[k].0 == c {
                    let (_, b, a) = waiting[k];
                    k += 1;
                    if self.nodes[b as usize].sigma.is_some() {
                        continue;
                    }
                    let mut sigma = vec![LabelId(a)];
                    sigma.extend(
                        self.nodes[c as usize]
                            .sigma
                            .clone()
                            .expect("queued nodes are split"),
                    );
                    self.split(table, b, sigma);
                    queue.push(b);
                }
            }
            for (v, node) in self.nodes.iter().enumerate().skip(made_from) {
                if node.block.len() > 1 {
                    by_size[node.block.len()].push(v as u32);
                }
            }
        }
    }

    /// The sequence of the lowest node containing all `states`, if that node is split: a valid
    /// word (it never merges two of them) on which they do not all answer alike.
    pub(crate) fn sigma_for(&self, states: &[u32]) -> Option<&[LabelId]> {
        self.lowest_containing(states)
            .and_then(|v| self.nodes[v as usize].sigma.as_deref())
    }

    /// Whether every leaf is a single state, i.e. the machine has an adaptive distinguishing
    /// sequence.
    pub fn is_complete(&self) -> bool {
        self.nodes
            .iter()
            .all(|nd| nd.sigma.is_some() || nd.block.len() <= 1)
    }

    /// The (possibly partial) adaptive distinguishing sequence for all states.
    pub fn ads(&self, m: &Mealy) -> Ads {
        let table = Table::new(m);
        let mut ads = Ads {
            nodes: Vec::new(),
            leaf_of: vec![NONE; m.num_states()],
        };
        let all: Vec<(u32, u32)> = (0..m.num_states() as u32).map(|s| (s, s)).collect();
        // Explicit stack of (ads node to fill, pairs of (initial, current)).
        ads.nodes.push(AdsNode::Leaf(Vec::new()));
        let mut stack = vec![(0usize, all)];
        while let Some((slot, set)) = stack.pop() {
            let currents: Vec<u32> = set.iter().map(|x| x.1).collect();
            let sigma = if set.len() > 1 {
                self.lowest_containing(&currents)
                    .and_then(|v| self.nodes[v as usize].sigma.clone())
            } else {
                None
            };
            let Some(sigma) = sigma else {
                let states: Vec<StateId> = set.iter().map(|x| StateId(x.0)).collect();
                for &s in &states {
                    ads.leaf_of[s.index()] = slot as u32;
                }
                ads.nodes[slot] = AdsNode::Leaf(states);
                continue;
            };
            let mut keyed: Vec<(Vec<LabelId>, u32, u32)> = set
                .iter()
                .map(|&(init, cur)| {
                    let mut q = cur;
                    let mut outs = Vec::with_capacity(sigma.len());
                    for &a in &sigma {
                        let (t, o) = table.step(q, a.index());
                        outs.push(LabelId(o));
                        q = t;
                    }
                    (outs, init, q)
                })
                .collect();
            keyed.sort();
            let mut branches = Vec::new();
            let mut k = 0;
            while k < keyed.len() {
                let mut j = k;
                while j < keyed.len() && keyed[j].0 == keyed[k].0 {
                    j += 1;
                }
                let child = ads.nodes.len();
                ads.nodes.push(AdsNode::Leaf(Vec::new()));
                branches.push((keyed[k].0.clone(), child as u32));
                stack.push((child, keyed[k..j].iter().map(|x| (x.1, x.2)).collect()));
                k = j;
            }
            ads.nodes[slot] = AdsNode::Apply {
                inputs: sigma,
                branches,
            };
        }
        ads
    }
}

/// A node of an adaptive distinguishing sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdsNode {
    /// Apply `inputs`, then continue at the branch of the observed output word.
    Apply {
        /// The preset sequence applied at this node.
        inputs: Vec<LabelId>,
        /// `(output word, child node)`, sorted by output word.
        branches: Vec<(Vec<LabelId>, u32)>,
    },
    /// The initial states the observations so far leave possible.
    Leaf(Vec<StateId>),
}

/// An adaptive distinguishing sequence (complete when every leaf holds one state).
#[derive(Clone, Debug)]
pub struct Ads {
    nodes: Vec<AdsNode>,
    leaf_of: Vec<u32>,
}

impl Ads {
    /// The nodes; node 0 is the root.
    pub fn nodes(&self) -> &[AdsNode] {
        &self.nodes
    }

    /// Whether every leaf identifies a single state.
    pub fn is_complete(&self) -> bool {
        self.nodes.iter().all(|n| match n {
            AdsNode::Leaf(s) => s.len() <= 1,
            AdsNode::Apply { .. } => true,
        })
    }

    /// The states that `s` cannot be told apart from by the ADS (itself included).
    pub fn leaf_states(&self, s: StateId) -> &[StateId] {
        match &self.nodes[self.leaf_of[s.index()] as usize] {
            AdsNode::Leaf(states) => states,
            AdsNode::Apply { .. } => unreachable!("states map to leaves"),
        }
    }

    /// The input word the ADS applies when started in `s`.
    pub fn word(&self, m: &Mealy, s: StateId) -> Vec<LabelId> {
        let mut w = Vec::new();
        let mut node = 0usize;
        let mut q = s;
        while let AdsNode::Apply { inputs, branches } = &self.nodes[node] {
            let mut outs = Vec::with_capacity(inputs.len());
            for &a in inputs {
                let (t, o) = m.step(q, a).expect("the ADS is built on complete machines");
                outs.push(o);
                q = t;
            }
            w.extend_from_slice(inputs);
            let k = branches
                .binary_search_by(|b| b.0.cmp(&outs))
                .expect("the state's own output word is a branch");
            node = branches[k].1 as usize;
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identify::mealy::tests_support::{
        ly_distinguishable, ly_non_distinguishable, random_mealy,
    };

    fn check_ads(m: &Mealy, ads: &Ads) {
        for s in m.states() {
            for t in m.states() {
                if s == t || ads.leaf_states(s).contains(&t) {
                    continue;
                }
                let ws = ads.word(m, s);
                let wt = ads.word(m, t);
                let common = ws.iter().zip(&wt).take_while(|(x, y)| x == y).count();
                assert_ne!(
                    m.run(s, &ws[..common]),
                    m.run(t, &ws[..common]),
                    "ADS words of {s} and {t} must separate on their common prefix"
                );
            }
        }
    }

    #[test]
    fn adaptive_sequences_separate_the_states_they_claim_to() {
        for seed in 0..60u64 {
            let m = random_mealy(seed, 2 + seed as usize % 10, 2 + seed as usize % 3, 2);
            let ly = LySplittingTree::new(&m);
            let ads = ly.ads(&m);
            assert_eq!(ads.is_complete(), ly.is_complete() || m.num_states() == 1);
            check_ads(&m, &ads);
        }
    }

    #[test]
    fn ly_example_has_an_ads() {
        let m = ly_distinguishable();
        let ly = LySplittingTree::new(&m);
        assert!(ly.is_complete());
        let ads = ly.ads(&m);
        assert!(ads.is_complete());
        check_ads(&m, &ads);
    }

    #[test]
    fn ly_non_distinguishable_example_has_none() {
        let m = ly_non_distinguishable();
        let ly = LySplittingTree::new(&m);
        assert!(!ly.is_complete());
        let ads = ly.ads(&m);
        assert!(!ads.is_complete());
        check_ads(&m, &ads);
    }
}
