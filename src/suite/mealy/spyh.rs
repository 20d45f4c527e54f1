//! The SPYH method (Soucha and Bogdanov, "SPYH-method: an improvement in testing of finite-state
//! machines", 2018): SPY's convergence-preserving placement combined with the H method's choice
//! of separating sequences per pair, made on the fly against what the test tree already holds.
//!
//! The test tree's nodes are grouped into *convergence classes*: traces that every implementation
//! passing the tests (within the bound) must bring to one state. A class has at most one
//! successor class per input (the classes of its members' children), so the classes form a graph
//! that is a quotient of the tree. The construction, for `E` extra states:
//! 1. the access sequences `V(q)`; every two of them are *separated*: some word `w` is in the
//!    class graph after both classes and the specification gives different outputs on its last
//!    input (the word may be split over different members of a class);
//! 2. for every transition `(s, a)` to `t` outside the spanning tree (by the lengths of `V(s)` and
//!    `V(t)`, shortest first): the class `C` of `V(s)·a` (added after the shallowest member of the
//!    class of `V(s)` if missing) and, recursively for every word `γ` of up to `E` inputs, the
//!    classes `C·γ` and `V(t)·γ` are separated from the class of every access sequence and from
//!    the classes of the shorter `C·γ'` and `V(t)·γ'` on their chain (whenever the specification
//!    states differ); then `C` is merged into the class of `V(t)` (the transition is verified),
//!    and merging propagates to successors (congruence).
//!
//! Separating a pair that is not yet separated adds the cheapest of: for every pair of classes
//! reached from both by a common path `π` in the class graph, `π·σ` with `σ` a shortest
//! separating word of their states, and `π·b` (with `σ` after it when the outputs agree) for an
//! input `b` only one side has; a word is added to a class after a member that is a leaf, where it
//! extends an existing test, or else after the shallowest member.
//!
//! Why it is m-complete (deterministic implementations with at most `n + E` states, same inputs,
//! reliable reset), in outline; Soucha and Bogdanov give the proof:
//! 1. The access-sequence classes are pairwise separated, so they reach `n` different
//!    implementation states (a passing implementation shows the specification's outputs).
//! 2. When transition `(s, a)` to `t` is processed, every class in play reaches one
//!    implementation state (induction: true for the access sequences, kept by merging only
//!    verified transitions). The class of `V(s)·a`, and its extensions by up to `E` inputs, are
//!    separated from all `n` access-sequence classes and from their shorter extensions; the
//!    extensions of `V(t)` likewise. This is the H condition of [`super::h_method`] for the pair
//!    `V(s)·a`, `V(t)`, and its counting argument (along any `E` inputs, either a state outside the
//!    `n` is left behind, or two different classes of the chain would share a state) shows
//!    that `V(s)·a` and `V(t)` reach the same implementation state, so merging them is sound.
//! 3. With every transition merged, the `n` states reached by the access sequences are closed
//!    under inputs with the specification's outputs: the implementation is equivalent.
//!
//! Separation across class members is sound by 2: all members reach one state, so an output
//! observed after any member is the output after all of them. The oracle tests run the method
//! against every mutant within the bound at `E = 0, 1, 2` and against every machine with 3
//! states, 2 inputs and 2 outputs for specifications of 1 to 3 states
//! (`src/suite/mealy/tests.rs`).

use super::h_method::{PairStep, SeparatingWords, TestTree};
use crate::identify::mealy::{AccessTree, SplittingTree};
use crate::model::{LabelId, Mealy, StateId};
use std::collections::HashSet;

/// Most nodes of a SPYH tree: the classes take 60 bytes of fixed fields per node, plus their
/// member and successor entries (4 and 8 bytes each, more while vectors grow), beside the tree's
/// 18: about 85 bytes a node as measured (m173 with one extra state: 3.7 million nodes, 305 MiB
/// peak), so a tree at the limit takes about 420 MB.
pub const SPYH_NODE_BUDGET: usize = 5_000_000;

/// Most class pairs visited when looking for a separating observation; past it the pair counts
/// as not yet separated (a word is added, which is always sound).
const VISIT_CAP: usize = 4_096;

/// Convergence classes over the nodes of a test tree (union-find with member lists).
struct Classes {
    parent: Vec<u32>,
    /// Per class root: its successor classes as (input, any member node of that class), by input.
    next: Vec<Vec<(u32, u32)>>,
    /// Per class root: its members.
    members: Vec<Vec<u32>>,
    /// Per class root: its shallowest member.
    shallow: Vec<u32>,
    /// Per class root: an index into its members before which no member is a leaf (nodes only
    /// stop being leaves), so finding its first leaf resumes there.
    leaf_from: Vec<u32>,
}

impl Classes {
    fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let p = self.parent[x as usize];
            self.parent[x as usize] = self.parent[p as usize];
            x = p;
        }
        x
    }

    fn add_singleton(&mut self, u: u32) {
        debug_assert_eq!(self.parent.len(), u as usize);
        self.parent.push(u);
        self.next.push(Vec::new());
        self.members.push(vec![u]);
        self.shallow.push(u);
        self.leaf_from.push(0);
    }

    /// The first member of class root `root`, in member order, that is a leaf of `tree`. Each
    /// member is passed over once per class it moves into as part of the smaller class, so the
    /// calls take O(n log n) steps in all over a tree of n nodes.
    fn first_leaf(&mut self, root: u32, tree: &TestTree) -> Option<u32> {
        let members = &self.members[root as usize];
        let mut k = self.leaf_from[root as usize] as usize;
        while k < members.len() && !tree.is_leaf(members[k]) {
            k += 1;
        }
        self.leaf_from[root as usize] = k as u32;
        let found = members.get(k).copied();
        // Checked on small classes only, so debug builds keep the O(n log n).
        debug_assert!(
            members.len() > 64 || found == members.iter().copied().find(|&u| tree.is_leaf(u)),
            "the skipped members are no leaves"
        );
        found
    }

    fn successor(&mut self, class: u32, a: LabelId) -> Option<u32> {
        let root = self.find(class);
        let at = self.next[root as usize]
            .binary_search_by_key(&a.0, |e| e.0)
            .ok()?;
        let member = self.next[root as usize][at].1;
        Some(self.find(member))
    }
}

struct Builder<'a> {
    m: &'a Mealy,
    tree: TestTree,
    classes: Classes,
    sep: SeparatingWords<'a>,
}

impl Builder<'_> {
    fn state(&self, class: u32) -> StateId {
        self.tree.state(class)
    }

    /// The child of tree node `u` under `a`, created if missing, with its class kept congruent.
    fn child(&mut self, u: u32, a: LabelId) -> u32 {
        if let Some(c) = self.tree.child(u, a) {
            return c;
        }
        let c = self.tree.add_child(self.m, u, a);
        self.classes.add_singleton(c);
        let class = self.classes.find(u);
        match self.classes.successor(class, a) {
            Some(succ) => self.union(succ, c),
            None => {
                let list = &mut self.classes.next[class as usize];
                let at = list.partition_point(|e| e.0 < a.0);
                list.insert(at, (a.0, c));
            }
        }
        c
    }

    /// Merges the classes of `x` and `y` and, for congruence, their successors.
    fn union(&mut self, x: u32, y: u32) {
        let mut work = vec![(x, y)];
        while let Some((x, y)) = work.pop() {
            let (rx, ry) = (self.classes.find(x), self.classes.find(y));
            if rx == ry {
                continue;
            }
            let (big, small) = if self.classes.members[rx as usize].len()
                >= self.classes.members[ry as usize].len()
            {
                (rx, ry)
            } else {
                (ry, rx)
            };
            self.classes.parent[small as usize] = big;
            // The small class's members go after the big one's: its leaf search resumes where
            // the big one's stopped, or, if no leaf is left there, where the small one's did.
            let big_len = self.classes.members[big as usize].len() as u32;
            if self.classes.leaf_from[big as usize] == big_len {
                self.classes.leaf_from[big as usize] =
                    big_len + self.classes.leaf_from[small as usize];
            }
            let moved = std::mem::take(&mut self.classes.members[small as usize]);
            self.classes.members[big as usize].extend(moved);
            let (sb, ss) = (
                self.classes.shallow[big as usize],
                self.classes.shallow[small as usize],
            );
            if (self.tree.depth(ss), ss) < (self.tree.depth(sb), sb) {
                self.classes.shallow[big as usize] = ss;
            }
            for (a, n) in std::mem::take(&mut self.classes.next[small as usize]) {
                let list = &mut self.classes.next[big as usize];
                match list.binary_search_by_key(&a, |e| e.0) {
                    Ok(at) => work.push((list[at].1, n)),
                    Err(at) => list.insert(at, (a, n)),
                }
            }
        }
    }

    /// Input symbols that adding `word` after class `class` adds to the suite, and the class
    /// step and member after which the rest is appended (`None`: already in the class graph).
    fn placement(&mut self, class: u32, word: &[LabelId]) -> (u64, Option<(usize, u32)>) {
        let start = self.classes.find(class);
        let shallow = self.classes.shallow[start as usize];
        let mut best = (
            self.tree.depth(shallow) + word.len() as u64,
            Some((0, shallow)),
        );
        let mut cur = start;
        for (j, &a) in word.iter().enumerate() {
            let rest = (word.len() - j) as u64;
            if rest < best.0
                && let Some(leaf) = self.classes.first_leaf(cur, &self.tree)
            {
                best = (rest, Some((j, leaf)));
            }
            match self.classes.successor(cur, a) {
                Some(next) => cur = next,
                None => return best,
            }
        }
        (0, None)
    }

    /// Adds `word` after class `class` where it is cheapest.
    fn add(&mut self, class: u32, word: &[LabelId]) {
        if let (_, Some((j, mut u))) = self.placement(class, word) {
            for &a in &word[j..] {
                u = self.child(u, a);
            }
            self.tree.mark_end(u);
        }
    }

    /// Whether the class graph already separates classes `x` and `y`; otherwise the cheapest word
    /// to add after both.
    fn separation(&mut self, x: u32, y: u32) -> Option<Vec<LabelId>> {
        let m = self.m;
        let (x, y) = (self.classes.find(x), self.classes.find(y));
        let mut best: Option<(u64, Vec<LabelId>)> = None;
        let mut seen: HashSet<(u32, u32)> = HashSet::new();
        let mut stack: Vec<(u32, u32, Vec<LabelId>)> = vec![(x, y, Vec::new())];
        let mut candidates: Vec<Vec<LabelId>> = Vec::new();
        while let Some((cx, cy, path)) = stack.pop() {
            if !seen.insert((cx, cy)) {
                continue;
            }
            let (sx, sy) = (self.state(cx), self.state(cy));
            let mut w = path.clone();
            w.extend_from_slice(self.sep.get(sx, sy));
            candidates.push(w);
            let mut deeper = Vec::new();
            for a in m.input_ids() {
                let nx = self.classes.successor(cx, a);
                let ny = self.classes.successor(cy, a);
                match self.sep.pair_step(m, (sx, sy), a, (nx, ny)) {
                    PairStep::Separated => return None,
                    PairStep::Deeper(nx, ny) => {
                        let mut p = path.clone();
                        p.push(a);
                        deeper.push((nx, ny, p));
                    }
                    PairStep::Tail(tail) => {
                        let mut w = path.clone();
                        w.extend_from_slice(&tail);
                        candidates.push(w);
                    }
                    PairStep::Skip => {}
                }
            }
            if seen.len() < VISIT_CAP {
                stack.extend(deeper.into_iter().rev());
            }
        }
        for w in candidates {
            let c = self.placement(x, &w).0 + self.placement(y, &w).0;
            if best.as_ref().is_none_or(|(bc, _)| c < *bc) {
                best = Some((c, w));
            }
        }
        best.map(|(_, w)| w)
    }

    fn ensure_apart(&mut self, x: u32, y: u32) {
        let (x, y) = (self.classes.find(x), self.classes.find(y));
        if x == y || self.state(x) == self.state(y) {
            return;
        }
        if let Some(w) = self.separation(x, y) {
            self.add(x, &w);
            self.add(y, &w);
        }
    }

    /// Separates `c` and `r` (and, `depth` more inputs deep, every extension of them) from the
    /// classes of the access sequences and from each other along the chain.
    fn separate_chain(
        &mut self,
        c: u32,
        r: u32,
        reference: &[u32],
        chain: &mut Vec<u32>,
        depth: usize,
    ) {
        let is_reference = |b: &mut Self, x: u32| {
            let root = b.classes.find(x);
            let q = b.state(root);
            b.classes.find(reference[q.index()]) == root
        };
        let r_ref = is_reference(self, r);
        for &q in reference.iter().chain(chain.iter()) {
            self.ensure_apart(c, q);
            if !r_ref {
                self.ensure_apart(r, q);
            }
        }
        if depth == 0 {
            return;
        }
        let before = chain.len();
        chain.push(c);
        if !r_ref {
            chain.push(r);
        }
        for a in self.m.input_ids() {
            let cn = self.step_class(c, a);
            let rn = self.step_class(r, a);
            self.separate_chain(cn, rn, reference, chain, depth - 1);
        }
        chain.truncate(before);
    }

    /// The successor class of `class` under `a`, adding the input where cheapest if missing.
    fn step_class(&mut self, class: u32, a: LabelId) -> u32 {
        if let Some(n) = self.classes.successor(class, a) {
            return n;
        }
        self.add(class, &[a]);
        self.classes
            .successor(class, a)
            .expect("the input was just added")
    }
}

/// Builds the SPYH tree for the complete minimal machine `m` with `extra` extra states; `None` as
/// soon as the tree exceeds [`SPYH_NODE_BUDGET`] nodes.
pub fn build_spyh(
    m: &Mealy,
    access: &AccessTree,
    splitting: &SplittingTree,
    extra: usize,
) -> Option<TestTree> {
    let mut b = Builder {
        m,
        tree: TestTree::new(m.initial()),
        classes: Classes {
            parent: Vec::new(),
            next: Vec::new(),
            members: Vec::new(),
            shallow: Vec::new(),
            leaf_from: Vec::new(),
        },
        sep: SeparatingWords::new(splitting),
    };
    b.classes.add_singleton(0);
    let mut reference = vec![0u32; m.num_states()];
    for &s in access.bfs_order() {
        let mut u = 0;
        for a in access.access(s).expect("reachable") {
            u = b.child(u, a);
        }
        b.tree.mark_end(u);
        reference[s.index()] = u;
    }
    let order = access.bfs_order();
    for (i, &s) in order.iter().enumerate() {
        for &r in &order[i + 1..] {
            b.ensure_apart(reference[s.index()], reference[r.index()]);
        }
        if b.tree.num_nodes() > SPYH_NODE_BUDGET {
            return None;
        }
    }
    let mut transitions: Vec<(u64, StateId, LabelId, StateId)> = Vec::new();
    for &s in order {
        for a in m.input_ids() {
            if access.tree_child(s, a).is_none() {
                let t = m.step(s, a).expect("complete").0;
                let len = b.tree.depth(reference[s.index()]) + b.tree.depth(reference[t.index()]);
                transitions.push((len, s, a, t));
            }
        }
    }
    // Stable: equal lengths keep breadth-first order of the source, then input order.
    transitions.sort_by_key(|e| e.0);
    let mut chain = Vec::new();
    for (_, s, a, t) in transitions {
        let c = b.step_class(reference[s.index()], a);
        let r = reference[t.index()];
        b.separate_chain(c, r, &reference, &mut chain, extra);
        b.union(c, r);
        if b.tree.num_nodes() > SPYH_NODE_BUDGET {
            return None;
        }
    }
    Some(b.tree)
}
