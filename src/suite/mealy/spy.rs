//! The SPY method (Simão, Petrenko, Yevtushenko 2009) for no extra states: the identifier of the
//! target of a transition `(s, a)` is appended not only after `V(s)·a` but, word by word, after
//! `u·a` for any trace `u` of the test tree already shown to reach the implementation state of
//! `s`, choosing the one that adds the fewest input symbols (typically extending an existing
//! test instead of starting a new one).
//!
//! Why the suite stays n-complete (deterministic implementations with at most `n` states, same
//! inputs, reliable reset), for a harmonised family `H`:
//! 1. The tree holds `V(s)·h` for every state `s` and `h ∈ H(s)`; harmonisation makes every two
//!    access sequences end in different implementation states, so with at most `n` states they
//!    reach all of them: a bijection `f` from specification to implementation states.
//! 2. A trace is *convergent* when every transition along it is verified; it reaches `f` of its
//!    specification state. Tree edges of the access sequences are verified from the start.
//! 3. A transition `(s, a)` to `t` is verified once, for every `h ∈ H(t)`, some convergent `u`
//!    reaching `s` has `u·a·h` in the suite: the implementation state `r` after `u·a` is the same
//!    for every such `u` and answers every `h ∈ H(t)` like `t`; if `r = f(s')` with `s' ≠ t`, the
//!    word of `H(t)` and `H(s')` separating `t` from `s'` (harmonisation) would give two answers.
//!    So `r = f(t)`, and the output of `a` is observed on the way.
//!
//! Every transition verified means the implementation is isomorphic to the specification. Only
//! `E = 0` is covered by this argument; with extra states `auto` uses the other methods.

use super::h_method::TestTree;
use crate::identify::mealy::{AccessTree, Family};
use crate::model::{LabelId, Mealy, StateId};

/// Convergent traces per state scanned (most recent first) when choosing where to append.
const CANDIDATES: usize = 256;

struct Spy<'a> {
    m: &'a Mealy,
    tree: TestTree,
    /// Per tree node: whether every transition on its path is verified.
    conv: Vec<bool>,
    /// Per state: its convergent tree nodes, in the order they were found.
    conv_nodes: Vec<Vec<u32>>,
    /// Per transition `s * k + a`: verified.
    verified: Vec<bool>,
}

impl Spy<'_> {
    fn k(&self) -> usize {
        self.m.num_inputs()
    }

    fn mark(&mut self, u: u32) {
        if self.conv.len() <= u as usize {
            self.conv.resize(u as usize + 1, false);
        }
        if !self.conv[u as usize] {
            self.conv[u as usize] = true;
            self.conv_nodes[self.tree.state(u).index()].push(u);
        }
    }

    fn is_conv(&self, u: u32) -> bool {
        self.conv.get(u as usize).copied().unwrap_or(false)
    }

    /// Marks `u` and every node below it reached through verified transitions.
    fn spread(&mut self, u: u32) {
        let mut stack = vec![u];
        while let Some(x) = stack.pop() {
            if self.is_conv(x) {
                continue;
            }
            self.mark(x);
            let s = self.tree.state(x).index();
            let k = self.k();
            for a in self.m.input_ids() {
                if self.verified[s * k + a.index()]
                    && let Some(c) = self.tree.child(x, a)
                {
                    stack.push(c);
                }
            }
        }
    }

    /// Inserts `word` below `u`, marking new nodes that are convergent.
    fn insert(&mut self, u: u32, word: &[LabelId]) {
        let mut z = u;
        for &a in word {
            let c = self.tree.add_child(self.m, z, a);
            let s = self.tree.state(z).index();
            if self.is_conv(z) && self.verified[s * self.k() + a.index()] && !self.is_conv(c) {
                self.spread(c);
            }
            z = c;
        }
        self.tree.insert(self.m, z, &[]);
    }

    fn verify(&mut self, s: StateId, a: LabelId) {
        let k = self.k();
        self.verified[s.index() * k + a.index()] = true;
        let sources = self.conv_nodes[s.index()].clone();
        for u in sources {
            if let Some(c) = self.tree.child(u, a) {
                self.spread(c);
            }
        }
    }

    /// The convergent node reaching `s` below which `word` is cheapest to add.
    fn cheapest(&self, s: StateId, word: &[LabelId]) -> u32 {
        let nodes = &self.conv_nodes[s.index()];
        let mut best = (u64::MAX, u32::MAX);
        for &u in nodes.iter().rev().take(CANDIDATES) {
            let c = self.tree.cost(u, word);
            if c < best.0 || (c == best.0 && u < best.1) {
                best = (c, u);
            }
        }
        best.1
    }
}

/// Every input word of length at most `extra`, shortest first, each in input order.
fn traversal_words(m: &Mealy, extra: usize) -> Vec<Vec<LabelId>> {
    let mut out = vec![Vec::new()];
    let mut layer = vec![Vec::new()];
    for _ in 0..extra {
        let mut next = Vec::with_capacity(layer.len() * m.num_inputs());
        for w in &layer {
            for a in m.input_ids() {
                let mut x: Vec<LabelId> = w.clone();
                x.push(a);
                next.push(x);
            }
        }
        out.extend(next.iter().cloned());
        layer = next;
    }
    out
}

/// Builds the SPY tree for the complete minimal machine `m` with `extra` extra states and the
/// harmonised family `family`.
pub fn build_spy(m: &Mealy, access: &AccessTree, family: &Family, extra: usize) -> TestTree {
    let k = m.num_inputs();
    let n = m.num_states();
    let mut spy = Spy {
        m,
        tree: TestTree::new(m.initial()),
        conv: Vec::new(),
        conv_nodes: vec![Vec::new(); n],
        verified: vec![false; n * k],
    };
    for &s in access.bfs_order() {
        for a in m.input_ids() {
            if access.tree_child(s, a).is_some() {
                spy.verified[s.index() * k + a.index()] = true;
            }
        }
    }
    for &s in access.bfs_order() {
        let p = access.access(s).expect("reachable");
        let end = spy.tree.insert(m, 0, &p);
        let sufs = family.suffixes(s, 0, extra);
        for &h in sufs {
            spy.tree.insert(m, end, family.word(h));
        }
    }
    spy.spread(0);
    let traversal = traversal_words(m, extra);
    // The identifier words after a traversal word: the harmonised per-state identifiers.
    let ident = |q: StateId| family.suffixes(q, extra + 1, extra);
    // Appends `prefix·γ·h` for every traversal word `γ` and identifier word `h` of the state it
    // reaches from `from`, each after the convergent node of `at` where it is cheapest.
    let traverse = |spy: &mut Spy, at: StateId, from: StateId, prefix: &[LabelId]| {
        for gamma in &traversal {
            let q = gamma
                .iter()
                .fold(from, |q, &b| m.step(q, b).expect("complete").0);
            let mut w = prefix.to_vec();
            w.extend_from_slice(gamma);
            let sufs = ident(q);
            if sufs.is_empty() {
                let u = spy.cheapest(at, &w);
                spy.insert(u, &w);
            }
            for &h in sufs {
                let mut x = w.clone();
                x.extend_from_slice(family.word(h));
                let u = spy.cheapest(at, &x);
                spy.insert(u, &x);
            }
        }
    };
    for &s in access.bfs_order() {
        for a in m.input_ids() {
            if access.tree_child(s, a).is_some() {
                continue;
            }
            let (t, _) = m.step(s, a).expect("complete");
            if extra > 0 {
                // The traversal after the target's own convergent traces (the words with
                // `γ = ε` are there from the state cover).
                traverse(&mut spy, t, t, &[]);
            }
            traverse(&mut spy, s, t, &[a]);
            spy.verify(s, a);
        }
    }
    spy.tree
}
