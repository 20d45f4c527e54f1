//! The SPY method (Simão, Petrenko, Yevtushenko, "Generating reduced tests for FSMs with extra
//! states", 2009): the test words of a transition `(s, a)` to `t` are appended not only after
//! `V(s)`, but word by word after `u` for any trace `u` of the test tree already shown to reach
//! the implementation state of `s`, choosing the one that adds the fewest input symbols
//! (typically extending an existing test instead of starting a new one).
//!
//! The tree, for a harmonised family `H` and `E` extra states:
//! - `V(q)·h` for every state `q` and `h ∈ H(q)` (the state cover with identifiers);
//! - for every transition `(s, a)` to `t` outside the spanning tree, taken in breadth-first order
//!   of `s`, then input order: for every word `γ` of at most `E` inputs and every `h ∈ H(q)`, `q`
//!   the state `γ` reaches from `t`, the word `a·γ·h` after a convergent trace of `s` and (for
//!   `E > 0`) `γ·h` after a convergent trace of `t`; then `(s, a)` is *verified*.
//!
//! A trace is *convergent* with `q` when it reaches `q` along the access sequences and verified
//! transitions only; the sets grow as transitions are verified, so later words have more places
//! to go.
//!
//! Why the suite is m-complete (deterministic implementations with at most `n + E` states, same
//! inputs, reliable reset); we may take the implementation minimal, as its minimisation passes
//! the same tests:
//! 1. Every implementation state *matches* at most one specification state, `q` when it answers
//!    every `h ∈ H(q)` like `q` (two states share a word of their identifiers that separates
//!    them). `V(q)` reaches a state `f(q)` matching `q`, so `f` is injective; at most `E` states
//!    are outside its image.
//! 2. Verified transitions are correct: if every trace convergent with `s` reaches `f(s)` (true for
//!    the access sequences) and `(s, a)` is verified, `r`, the state after `f(s)·a`, and `f(t)`
//!    both agree with the specification on every `γ` of at most `E` inputs followed by the
//!    identifier of the state reached. If `r ≠ f(t)`, follow the shortest word that separates
//!    them: along it, the pairs of states reached are distinct and, up to `E` inputs, each is a
//!    pair of different states matching the same specification state, so one of them lies
//!    outside the image of `f`. For `E = 1` the only such state is `r`, so the second pair is
//!    `{r, f(t)}` again and the word was not shortest; for larger `E` this is the convergence
//!    lemma of Simão et al. (not re-proved here; the oracle tests below check it). So `r = f(t)`
//!    and every trace convergent with `t` reaches `f(t)`.
//! 3. With every transition verified, the states `f(q)` form a copy of the specification closed
//!    under inputs and reached from the initial state: the implementation is equivalent.
//!
//! With `E = 0` this is the sharing of identifiers after convergent traces alone. The oracle
//! tests run every mutant within the bound and, for the smallest machines, every machine within
//! it (`src/suite/mealy/tests.rs`).

use super::h_method::TestTree;
use crate::identify::mealy::{AccessTree, Family};
use crate::model::{LabelId, Mealy, StateId};

/// Convergent traces per state scanned (most recent first) when choosing where to append.
const CANDIDATES: usize = 256;

/// Most nodes of a SPY tree: 18 bytes each (see [`TestTree`]) plus the convergent-node lists,
/// so a tree at the limit stays near 100 MB. m173 (483 states, 27 inputs) with one extra state
/// needs 3.8 million nodes for its 46.7 million input symbols.
pub const SPY_NODE_BUDGET: usize = 5_000_000;

struct Spy<'a> {
    m: &'a Mealy,
    tree: TestTree,
    /// Per tree node (a bit set): whether every transition on its path is verified.
    conv: Vec<u64>,
    /// Per state: its convergent tree nodes, in the order they were found; once all of the
    /// state's transitions are verified, only the last [`CANDIDATES`] are kept (all that
    /// [`Spy::cheapest`] reads), so the lists stay small beside the tree.
    conv_nodes: Vec<Vec<u32>>,
    /// Per state: all its transitions are verified.
    done: Vec<bool>,
    /// Per transition `s * k + a`: verified.
    verified: Vec<bool>,
}

impl Spy<'_> {
    fn k(&self) -> usize {
        self.m.num_inputs()
    }

    fn mark(&mut self, u: u32) {
        let (word, bit) = (u as usize / 64, 1u64 << (u % 64));
        if self.conv.len() <= word {
            self.conv.resize(word + 1, 0);
        }
        if self.conv[word] & bit == 0 {
            self.conv[word] |= bit;
            let s = self.tree.state(u).index();
            let list = &mut self.conv_nodes[s];
            list.push(u);
            if self.done[s] && list.len() >= 2 * CANDIDATES {
                list.drain(..list.len() - CANDIDATES);
            }
        }
    }

    fn is_conv(&self, u: u32) -> bool {
        self.conv
            .get(u as usize / 64)
            .is_some_and(|w| w & (1u64 << (u % 64)) != 0)
    }

    /// Records that every transition of `s` is verified: from now on only the most recent
    /// convergent nodes of `s` are candidates.
    fn finish(&mut self, s: StateId) {
        self.done[s.index()] = true;
        let list = &mut self.conv_nodes[s.index()];
        if list.len() > CANDIDATES {
            list.drain(..list.len() - CANDIDATES);
        }
        list.shrink_to_fit();
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
/// harmonised family `family`; `None` as soon as the tree exceeds [`SPY_NODE_BUDGET`] nodes.
pub fn build_spy(
    m: &Mealy,
    access: &AccessTree,
    family: &Family,
    extra: usize,
) -> Option<TestTree> {
    let k = m.num_inputs();
    let n = m.num_states();
    let mut spy = Spy {
        m,
        tree: TestTree::new(m.initial()),
        conv: Vec::new(),
        conv_nodes: vec![Vec::new(); n],
        done: vec![false; n],
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
        if spy.tree.num_nodes() > SPY_NODE_BUDGET {
            return None;
        }
    }
    spy.spread(0);
    let traversal = traversal_words(m, extra);
    // The identifier words after a traversal word: the harmonised per-state identifiers.
    let ident = |q: StateId| family.suffixes(q, extra + 1, extra);
    // Appends `w·h` for every identifier word `h` of `q`, after the convergent node of `at`
    // where it is cheapest.
    let place = |spy: &mut Spy, at: StateId, w: &[LabelId], q: StateId| {
        let sufs = ident(q);
        if sufs.is_empty() {
            let u = spy.cheapest(at, w);
            spy.insert(u, w);
        }
        for &h in sufs {
            let mut x = w.to_vec();
            x.extend_from_slice(family.word(h));
            let u = spy.cheapest(at, &x);
            spy.insert(u, &x);
        }
    };
    for &s in access.bfs_order() {
        for a in m.input_ids() {
            if access.tree_child(s, a).is_some() {
                continue;
            }
            let (t, _) = m.step(s, a).expect("complete");
            // The traversal after the target's own convergent traces: the verified prefix of
            // `γ` leads from convergent traces of `t` to convergent traces of the state `p` it
            // reaches, so only the rest is placed, after those (nothing when all of `γ` is
            // verified: the state cover holds `V(q)·H(q)`).
            for gamma in traversal.iter().filter(|g| !g.is_empty()) {
                let (mut p, mut skip) = (t, 0);
                while let Some(&b) = gamma.get(skip)
                    && spy.verified[p.index() * k + b.index()]
                {
                    p = m.step(p, b).expect("complete").0;
                    skip += 1;
                }
                if skip < gamma.len() {
                    let q = m.after(p, &gamma[skip..]).expect("complete");
                    place(&mut spy, p, &gamma[skip..], q);
                }
                if spy.tree.num_nodes() > SPY_NODE_BUDGET {
                    return None;
                }
            }
            for gamma in &traversal {
                let mut w = vec![a];
                w.extend_from_slice(gamma);
                place(&mut spy, s, &w, m.after(t, gamma).expect("complete"));
                if spy.tree.num_nodes() > SPY_NODE_BUDGET {
                    return None;
                }
            }
            spy.verify(s, a);
        }
        spy.finish(s);
    }
    Some(spy.tree)
}
