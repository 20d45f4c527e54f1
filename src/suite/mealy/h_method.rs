//! The H method (Dorofeeva, El-Fakih, Maag, Cavalli, Yevtushenko 2005): an m-complete suite built
//! as a test tree in which separating sequences are chosen on the fly, per pair of traces that
//! must be told apart, preferring sequences the tree already holds or that extend its leaves.
//!
//! With `V` the shortest access sequences and `X` every input word of length 1 to `E + 1`, the
//! tree holds `V ∪ V·X`, and for every pair of traces `(α, β)` below that reach different states
//! of the specification, it holds `α·ω` and `β·ω` for some `ω` on which those states give
//! different outputs. The pairs are (the H condition in the form proved m-complete by
//! Sachtleben's Isabelle formalisation, AFP `FSM_Tests`, `satisfies_h_condition`):
//! - every two access sequences;
//! - every access sequence with every `V(q)·τ`, `τ ∈ X`;
//! - every `V(q)·τ` with every `V(q)·τ'`, `τ'` a proper prefix of `τ` (the empty one included).
//!
//! Under these conditions, an implementation with at most `n + E` states (deterministic, same
//! inputs, reliable reset) that passes the suite is equivalent to the specification.
//!
//! For each pair not yet told apart by the tree, the candidates are `π·σ` for every path `π` the
//! two subtrees share (or one of them has one step further), `σ` a shortest separating sequence
//! of the states reached; the one adding the fewest input symbols to the suite (extending a leaf
//! adds only the new inputs, branching off an inner node adds a whole new test) is inserted.
//! The work is one separation check per pair, so the method is offered only when the number of
//! pairs stays within [`H_PAIR_BUDGET`]; the tree is held in memory (18 bytes per node), and the
//! construction gives up when it grows past [`H_NODE_BUDGET`] nodes.

use crate::identify::mealy::{AccessTree, SplittingTree};
use crate::model::{LabelId, Mealy, StateId};

const NONE: u32 = u32::MAX;

/// Most pairs of traces the H method may have to separate (`|V|²/2 + |V·X|·(|V| + E + 1)`).
/// Derived from the time a check takes: about 0.3 µs per pair on the 2-core machine (m182 with no
/// extra states, 33 million pairs: 11 s of CPU; m173 with one extra state, 177 million: 54-57 s;
/// docs/src/benchmarks.md), so the budget stands for about two minutes of CPU.
pub const H_PAIR_BUDGET: u64 = 400_000_000;

/// Most nodes of an H tree (18 bytes each, so at most about 180 MB; m173 with one extra state
/// needs 3.7 million): past it the construction gives up ([`build_h`] returns `None`).
pub const H_NODE_BUDGET: usize = 10_000_000;

/// Most node pairs visited when looking below two traces for a separating observation; past it,
/// the pair is treated as not yet separated (a sequence is added, which is always sound).
const VISIT_CAP: usize = 4_096;

/// Bit of [`Node::input`] marking the end of a test word (used when prefixes are kept).
const END: u32 = 1 << 31;

/// One node of a [`TestTree`]: 16 bytes, so a tree of millions of nodes (SPY on large models with
/// extra states) stays within tens of megabytes.
#[derive(Clone, Debug)]
struct Node {
    state: u32,
    /// The input on the edge from the parent; [`END`] set when a test word ends here.
    input: u32,
    first_child: u32,
    next_sibling: u32,
}

impl Node {
    fn input(&self) -> u32 {
        self.input & !END
    }
}

/// A prefix tree of input words whose nodes carry the specification state they reach; children are
/// kept in input order, so a depth-first walk yields words in lexicographic order. Stored as
/// 16-byte nodes plus a 2-byte depth (saturating: it only steers the choice of where to add a
/// word; sizes are counted by walking the tree).
#[derive(Clone, Debug)]
pub struct TestTree {
    nodes: Vec<Node>,
    depth: Vec<u16>,
}

impl TestTree {
    pub(super) fn new(initial: StateId) -> TestTree {
        TestTree {
            nodes: vec![Node {
                state: initial.0,
                input: 0,
                first_child: NONE,
                next_sibling: NONE,
            }],
            depth: vec![0],
        }
    }

    pub(super) fn state(&self, u: u32) -> StateId {
        StateId(self.nodes[u as usize].state)
    }

    pub(super) fn child(&self, u: u32, a: LabelId) -> Option<u32> {
        let mut c = self.nodes[u as usize].first_child;
        while c != NONE {
            let node = &self.nodes[c as usize];
            if node.input() == a.0 {
                return Some(c);
            }
            if node.input() > a.0 {
                return None;
            }
            c = node.next_sibling;
        }
        None
    }

    fn children(&self, u: u32) -> impl Iterator<Item = (LabelId, u32)> + '_ {
        let mut c = self.nodes[u as usize].first_child;
        std::iter::from_fn(move || {
            (c != NONE).then(|| {
                let here = c;
                c = self.nodes[here as usize].next_sibling;
                (LabelId(self.nodes[here as usize].input()), here)
            })
        })
    }

    /// Whether `u` has no children (a test ends there when prefixes are dropped).
    pub(super) fn is_leaf(&self, u: u32) -> bool {
        self.nodes[u as usize].first_child == NONE
    }

    /// The length of the word reaching `u` (saturating at `u16::MAX`).
    pub(super) fn depth(&self, u: u32) -> u64 {
        u64::from(self.depth[u as usize])
    }

    /// Marks `u` as the end of a test word.
    pub(super) fn mark_end(&mut self, u: u32) {
        self.nodes[u as usize].input |= END;
    }

    /// The child of `u` under `a`, created (in input order) if missing.
    pub(super) fn add_child(&mut self, m: &Mealy, u: u32, a: LabelId) -> u32 {
        let mut prev = NONE;
        let mut c = self.nodes[u as usize].first_child;
        while c != NONE && self.nodes[c as usize].input() < a.0 {
            prev = c;
            c = self.nodes[c as usize].next_sibling;
        }
        if c != NONE && self.nodes[c as usize].input() == a.0 {
            return c;
        }
        let (t, _) = m.step(self.state(u), a).expect("complete machine");
        let id = self.nodes.len() as u32;
        assert!(a.0 < END && id < NONE, "test tree limits");
        self.nodes.push(Node {
            state: t.0,
            input: a.0,
            first_child: NONE,
            next_sibling: c,
        });
        self.depth.push(self.depth[u as usize].saturating_add(1));
        if prev == NONE {
            self.nodes[u as usize].first_child = id;
        } else {
            self.nodes[prev as usize].next_sibling = id;
        }
        id
    }

    /// Inserts `word` below `u` and marks its end as a test word; returns the end node.
    pub(super) fn insert(&mut self, m: &Mealy, u: u32, word: &[LabelId]) -> u32 {
        let mut z = u;
        for &a in word {
            z = self.add_child(m, z, a);
        }
        self.mark_end(z);
        z
    }

    /// Input symbols that inserting `word` below `u` adds to the prefix-free suite.
    pub(super) fn cost(&self, u: u32, word: &[LabelId]) -> u64 {
        let mut z = u;
        for (i, &a) in word.iter().enumerate() {
            match self.child(z, a) {
                Some(c) => z = c,
                None => {
                    let rest = (word.len() - i) as u64;
                    return if self.nodes[z as usize].first_child == NONE {
                        rest
                    } else {
                        u64::from(self.depth[z as usize]) + rest
                    };
                }
            }
        }
        0
    }

    /// Tests, symbols and longest test of the suite the tree stands for: its leaves (prefixes
    /// dropped) or every marked word. One depth-first walk.
    pub fn size(&self, prune: bool) -> (u64, u64, usize) {
        let (mut tests, mut symbols, mut longest) = (0u64, 0u64, 0usize);
        let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
        while let Some((u, d)) = stack.pop() {
            let node = &self.nodes[u as usize];
            let counted = if prune {
                node.first_child == NONE
            } else {
                node.input & END != 0
            };
            if u != 0 && counted {
                tests += 1;
                symbols += d as u64;
                longest = longest.max(d);
            }
            stack.extend(self.children(u).map(|(_, c)| (c, d + 1)));
        }
        (tests, symbols, longest)
    }

    /// Number of nodes (the root included).
    pub fn num_nodes(&self) -> usize {
        self.nodes.len()
    }

    /// The test words in lexicographic order.
    pub fn words(&self, prune: bool) -> TreeWords<'_> {
        TreeWords {
            tree: self,
            next: self.nodes[0].first_child,
            path: Vec::new(),
            word: Vec::new(),
            prune,
        }
    }
}

/// The test words of a [`TestTree`], depth first in input order.
#[derive(Debug)]
pub struct TreeWords<'a> {
    tree: &'a TestTree,
    next: u32,
    path: Vec<u32>,
    word: Vec<LabelId>,
    prune: bool,
}

impl Iterator for TreeWords<'_> {
    type Item = Vec<LabelId>;

    fn next(&mut self) -> Option<Vec<LabelId>> {
        loop {
            if self.next == NONE {
                return None;
            }
            let u = self.next;
            let node = &self.tree.nodes[u as usize];
            self.word.push(LabelId(node.input()));
            self.path.push(u);
            let leaf = node.first_child == NONE;
            let emit = if self.prune {
                leaf
            } else {
                node.input & END != 0
            };
            let out = emit.then(|| self.word.clone());
            if leaf {
                self.next = NONE;
                while let Some(top) = self.path.pop() {
                    self.word.pop();
                    let sibling = self.tree.nodes[top as usize].next_sibling;
                    if sibling != NONE {
                        self.next = sibling;
                        break;
                    }
                }
            } else {
                self.next = node.first_child;
            }
            if out.is_some() {
                return out;
            }
        }
    }
}

/// The number of pairs the H method separates for `extra` extra states (saturating).
pub fn h_pairs(m: &Mealy, extra: usize) -> u64 {
    let n = m.num_states() as u64;
    let k = m.num_inputs() as u64;
    let mut per_state = 0u64;
    let mut layer = 1u64;
    for _ in 0..=extra {
        layer = layer.saturating_mul(k);
        per_state = per_state.saturating_add(layer);
    }
    let traversal = n.saturating_mul(per_state);
    (n.saturating_mul(n) / 2)
        .saturating_add(traversal.saturating_mul(n.saturating_add(extra as u64 + 1)))
}

/// What one input shows for a pair of traces being separated ([`SeparatingWords::pair_step`]).
pub(super) enum PairStep {
    /// Nothing to learn: neither side continues, or both reach one state with equal outputs.
    Skip,
    /// Both sides continue and the outputs differ: the pair is already separated.
    Separated,
    /// Both sides continue to different states: look below them.
    Deeper(u32, u32),
    /// Only one side continues: this word after the path would separate the pair.
    Tail(Vec<LabelId>),
}

/// Separating words of pairs of states, from the splitting tree, cached by tree node.
pub(super) struct SeparatingWords<'a> {
    tree: &'a SplittingTree,
    cache: Vec<Option<Vec<LabelId>>>,
}

impl<'a> SeparatingWords<'a> {
    pub(super) fn new(tree: &'a SplittingTree) -> Self {
        SeparatingWords {
            tree,
            cache: vec![None; tree.num_nodes()],
        }
    }

    /// What input `a` shows for a pair of traces at states `s` whose continuations under `a` are
    /// `next` (tree nodes or classes; `None` when absent).
    pub(super) fn pair_step(
        &mut self,
        m: &Mealy,
        s: (StateId, StateId),
        a: LabelId,
        next: (Option<u32>, Option<u32>),
    ) -> PairStep {
        let (tx, ox) = m.step(s.0, a).expect("complete");
        let (ty, oy) = m.step(s.1, a).expect("complete");
        match next {
            (None, None) => PairStep::Skip,
            (Some(_), Some(_)) if ox != oy => PairStep::Separated,
            (Some(nx), Some(ny)) if tx != ty => PairStep::Deeper(nx, ny),
            (Some(_), Some(_)) => PairStep::Skip,
            _ if ox == oy && tx == ty => PairStep::Skip,
            _ => {
                // One side has the step, the other lacks it: completing it there separates.
                let mut tail = vec![a];
                if ox == oy {
                    tail.extend_from_slice(self.get(tx, ty));
                }
                PairStep::Tail(tail)
            }
        }
    }

    /// A shortest word on which `s` and `t` (different states) give different outputs.
    pub(super) fn get(&mut self, s: StateId, t: StateId) -> &[LabelId] {
        let node = self.tree.lca(self.tree.leaf(s), self.tree.leaf(t));
        let tree = self.tree;
        self.cache[node as usize].get_or_insert_with(|| tree.word(node))
    }
}

struct Builder<'a> {
    m: &'a Mealy,
    tree: TestTree,
    sep: SeparatingWords<'a>,
}

impl Builder<'_> {
    /// Whether the subtrees below `u` and `v` already show different outputs on a common word;
    /// otherwise, the cheapest word `ω` (with its cost) to insert below both.
    fn separation(&mut self, u: u32, v: u32) -> Option<Vec<LabelId>> {
        let m = self.m;
        let mut best: Option<(u64, Vec<LabelId>)> = None;
        // The word `path·tail` is built only when it is cheaper than the best so far.
        let mut consider = |b: &Builder, x: u32, y: u32, path: &[LabelId], tail: &[LabelId]| {
            let c = b.tree.cost(x, tail) + b.tree.cost(y, tail);
            if best.as_ref().is_none_or(|(bc, _)| c < *bc) {
                let mut word = Vec::with_capacity(path.len() + tail.len());
                word.extend_from_slice(path);
                word.extend_from_slice(tail);
                best = Some((c, word));
            }
        };
        // (node below u, node below v, path from u)
        let mut stack: Vec<(u32, u32, Vec<LabelId>)> = vec![(u, v, Vec::new())];
        let mut visited = 0usize;
        while let Some((x, y, path)) = stack.pop() {
            visited += 1;
            let (sx, sy) = (self.tree.state(x), self.tree.state(y));
            let sep = self.sep.get(sx, sy).to_vec();
            consider(self, x, y, &path, &sep);
            let xs: Vec<(LabelId, u32)> = self.tree.children(x).collect();
            let ys: Vec<(LabelId, u32)> = self.tree.children(y).collect();
            let mut deeper = Vec::new();
            let (mut i, mut j) = (0, 0);
            while i < xs.len() || j < ys.len() {
                let a = match (xs.get(i), ys.get(j)) {
                    (Some(&(a, _)), Some(&(b, _))) => a.min(b),
                    (Some(&(a, _)), None) => a,
                    (None, Some(&(b, _))) => b,
                    (None, None) => break,
                };
                let cx = xs.get(i).filter(|c| c.0 == a).map(|c| c.1);
                let cy = ys.get(j).filter(|c| c.0 == a).map(|c| c.1);
                i += usize::from(cx.is_some());
                j += usize::from(cy.is_some());
                match self.sep.pair_step(m, (sx, sy), a, (cx, cy)) {
                    PairStep::Separated => return None,
                    PairStep::Deeper(cx, cy) => {
                        let mut p = path.clone();
                        p.push(a);
                        deeper.push((cx, cy, p));
                    }
                    PairStep::Tail(tail) => consider(self, x, y, &path, &tail),
                    PairStep::Skip => {}
                }
            }
            if visited < VISIT_CAP {
                stack.extend(deeper.into_iter().rev());
            }
        }
        best.map(|(_, w)| w)
    }

    fn ensure_apart(&mut self, u: u32, v: u32) {
        if self.tree.state(u) == self.tree.state(v) {
            return;
        }
        if let Some(w) = self.separation(u, v) {
            self.tree.insert(self.m, u, &w);
            self.tree.insert(self.m, v, &w);
        }
    }
}

/// Builds the H-method tree for the complete minimal machine `m` with `extra` extra states;
/// `None` as soon as the tree exceeds `node_budget` nodes ([`H_NODE_BUDGET`] outside tests).
pub fn build_h(
    m: &Mealy,
    access: &AccessTree,
    splitting: &SplittingTree,
    extra: usize,
    node_budget: usize,
) -> Option<TestTree> {
    let mut b = Builder {
        m,
        tree: TestTree::new(m.initial()),
        sep: SeparatingWords::new(splitting),
    };
    let order = access.bfs_order().to_vec();
    let cover: Vec<u32> = order
        .iter()
        .map(|&s| {
            let w = access.access(s).expect("reachable");
            b.tree.insert(m, 0, &w)
        })
        .collect();
    // V·X: every word of 1..=E+1 inputs after every access sequence.
    for &c in &cover {
        let mut frontier = vec![c];
        for _ in 0..=extra {
            let mut next = Vec::with_capacity(frontier.len() * m.num_inputs());
            for &x in &frontier {
                for a in m.input_ids() {
                    let y = b.tree.add_child(m, x, a);
                    b.tree.mark_end(y);
                    next.push(y);
                }
            }
            frontier = next;
        }
        if b.tree.num_nodes() > node_budget {
            return None;
        }
    }
    for i in 0..cover.len() {
        for j in i + 1..cover.len() {
            b.ensure_apart(cover[i], cover[j]);
        }
        if b.tree.num_nodes() > node_budget {
            return None;
        }
    }
    let mut checked = vec![false; b.tree.nodes.len()];
    for &c in &cover {
        // Depth-first over τ, keeping the chain V(q), V(q)·τ1, ... of ancestors.
        let mut chain = vec![c];
        let k = m.num_inputs() as u32;
        let mut stack: Vec<(usize, u32)> = (0..k).rev().map(|a| (1usize, a)).collect();
        while let Some((d, a)) = stack.pop() {
            chain.truncate(d);
            let parent = chain[d - 1];
            let x = b
                .tree
                .child(parent, LabelId(a))
                .expect("V·X is in the tree");
            if !checked[x as usize] {
                checked[x as usize] = true;
                for &q in &cover {
                    b.ensure_apart(x, q);
                }
            }
            for &y in &chain[..d] {
                b.ensure_apart(y, x);
            }
            chain.push(x);
            if d <= extra {
                stack.extend((0..k).rev().map(|a| (d + 1, a)));
            }
        }
        if b.tree.num_nodes() > node_budget {
            return None;
        }
    }
    Some(b.tree)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identify::mealy::minimize_mealy;
    use crate::identify::mealy::tests_support::random_mealy;

    #[test]
    fn tree_words_are_sorted_leaves_and_size_counts_them() {
        let m = minimize_mealy(&random_mealy(3, 7, 3, 2));
        let access = AccessTree::new(&m);
        let split = SplittingTree::new(&m);
        let t = build_h(&m, &access, &split, 1, H_NODE_BUDGET).unwrap();
        let words: Vec<_> = t.words(true).collect();
        for p in words.windows(2) {
            assert!(p[0] < p[1] && !p[1].starts_with(&p[0]));
        }
        let (tests, symbols, longest) = t.size(true);
        assert_eq!(tests, words.len() as u64);
        assert_eq!(symbols, words.iter().map(|w| w.len() as u64).sum::<u64>());
        assert_eq!(longest, words.iter().map(Vec::len).max().unwrap());
        let all: Vec<_> = t.words(false).collect();
        assert!(all.len() >= words.len());
        assert_eq!(t.size(false).0, all.len() as u64);
    }

    #[test]
    fn a_tree_over_its_node_budget_is_given_up() {
        let m = minimize_mealy(&random_mealy(8, 6, 2, 2));
        let access = AccessTree::new(&m);
        let split = SplittingTree::new(&m);
        let nodes = build_h(&m, &access, &split, 1, H_NODE_BUDGET)
            .unwrap()
            .num_nodes();
        assert!(build_h(&m, &access, &split, 1, nodes).is_some());
        assert!(build_h(&m, &access, &split, 1, nodes - 1).is_none());
    }

    #[test]
    fn every_required_pair_is_separated_by_common_words() {
        let m = minimize_mealy(&random_mealy(8, 6, 2, 2));
        let access = AccessTree::new(&m);
        let split = SplittingTree::new(&m);
        let t = build_h(&m, &access, &split, 1, H_NODE_BUDGET).unwrap();
        let words: Vec<_> = t.words(true).collect();
        let covers: Vec<Vec<LabelId>> = access.state_cover();
        // Two traces are told apart when some common continuation of both is a prefix of tests
        // and gives different outputs.
        let in_tree = |w: &[LabelId]| words.iter().any(|t| t.starts_with(w));
        let apart = |a: &[LabelId], b: &[LabelId]| {
            words.iter().any(|t| {
                t.starts_with(a) && {
                    let suffix = &t[a.len()..];
                    (1..=suffix.len()).any(|l| {
                        let mut bw = b.to_vec();
                        bw.extend_from_slice(&suffix[..l]);
                        in_tree(&bw) && {
                            let mut aw = a.to_vec();
                            aw.extend_from_slice(&suffix[..l]);
                            m.run(m.initial(), &aw)[a.len()..] != m.run(m.initial(), &bw)[b.len()..]
                        }
                    })
                }
            })
        };
        let reach = |w: &[LabelId]| {
            w.iter()
                .fold(m.initial(), |s, &a| m.step(s, a).expect("complete").0)
        };
        for a in &covers {
            for b in &covers {
                if reach(a) != reach(b) {
                    assert!(apart(a, b), "{a:?} {b:?}");
                }
            }
            for x in m.input_ids() {
                let mut ax = a.clone();
                ax.push(x);
                for b in &covers {
                    if reach(&ax) != reach(b) {
                        assert!(apart(&ax, b), "{ax:?} {b:?}");
                    }
                }
            }
        }
    }
}
