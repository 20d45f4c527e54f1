//! Adaptive distinguishing graphs (van den Bos Algorithm 5, Def. 3.21) with top-ups.
//!
//! Algorithm 5 walks the witnesses of a complete splitting graph while tracking the current set
//! `P`: with nothing left to run it picks an LCA of `P` and runs its witness; an output edge
//! continues with `P after x`, an input with `P after a`; once `P` is pairwise compatible the
//! branch ends in a leaf. At line 8 we pick the LCA whose witness loses the fewest incompatible
//! pairs of `P` (a label leads them to equal or compatible states, Def. 3.34, counted along the
//! witness for [`LOOKAHEAD`] labels), then an LCA whose split was injective, then the oldest.
//!
//! One addition to Algorithm 5: when even the best LCA loses pairs, the ADG may first take one
//! step of its own, an input or waiting for an output, if the pairs that step loses plus those
//! the best LCAs of the sets it leads to lose are fewer; then it chooses LCAs for those sets.
//! Which inputs qualify is a rule ([`PrefixInputs`]): only inputs injective for `P` (Def. 3.34),
//! or also inputs that lose pairs themselves. Every prefix step spends one of a path's budget
//! of steps, which never grows along a path, so no cycle can arise. Nodes are shared per
//! (current set, witness position, prefix steps left), so the result is a DAG.
//!
//! A second addition replaces the estimate by the true loss where it matters (a search by
//! dynamic programming over keys, `Search`). At a set `P` with `F = 0`, every candidate (each
//! LCA of `P` in the estimate's order, each prefix input the rule allows, waiting for an output)
//! leads to a subtree whose undistinguished pairs can be counted once it is built; in the middle
//! of a witness the candidates are to go on, or to drop the rest of the witness and choose
//! afresh for `P`. The loss of a key is the set of incompatible pairs of its states its subtree
//! leaves undistinguished, by the rule of the analysis below: a leaf loses every incompatible
//! pair of its set; an input a pair one of whose states does not enable it, or that it leads to
//! equal or compatible states, or to a pair its child loses; waiting for outputs a pair that an
//! output both enable leads so. Losses are memoised per key, and the children of a key are fixed
//! when first computed, so the graph assembled is the one whose losses were counted. The
//! estimated choice is kept unless another candidate loses strictly fewer pairs, so graphs change
//! only where that helps, and the search only runs where the estimated choice's true loss is not
//! zero, for sets of at most `SEARCH_SET_LIMIT` states, on at most `SEARCH_KEY_BUDGET` keys
//! per graph whose states and lost pairs together stay within `SEARCH_WORK_BUDGET` (memory and
//! time of the search are linear in that sum) and `SEARCH_CANDIDATES` candidates per choice
//! (beyond these, the estimate). The budgets are checked before a decision is searched and
//! between candidates, in the search's sequential order, so where they bind is deterministic.
//!
//! How origins map onto current states: the analysis counts incompatible pairs of initial
//! states (origins). A pair of current states stands for the pairs of origins that reach it
//! along the path, and an incompatible origin pair is lost below a node exactly when its current
//! pair is lost there (two origins sharing a current state, or at compatible ones, were lost
//! where that happened). The search counts each incompatible current pair once, since a key is
//! shared by paths with different origins: exact for the set where the choice is made, but not
//! for its ancestors, because an input that merges states makes a pair of its child stand for
//! several pairs of its parent, and a current pair may stand only for compatible origins (a
//! compatible pair can reach an incompatible one after an output, Def. 3.8 asks for one common
//! output only). So a choice optimal for a set need not be for the root, and the search alone is
//! not better everywhere (m182 merge 4,5 as built: 0.411% against 0.399%, docs/src/design/state-identification.md).
//!
//! Cycles: a key met again while its loss is being computed is pending, and a subtree that
//! reaches a pending key gets no loss and is never chosen, so every key whose loss is known has
//! an acyclic subtree (its loss was computed by a depth-first walk of its fixed children that met
//! no pending key); a decision met again while it is being made gets the estimate. A choice
//! other than the estimate's is taken only for a known loss, so a cycle could consist only of
//! the estimate's choices, as in the graphs built without the search. The search is
//! sequential, its maps are only looked up (never iterated), and candidates come in an order
//! given by the splitting graph and label order, so it is deterministic and canonical.
//!
//! [`adaptive_graph`] builds six graphs and keeps the one leaving the fewest pairs
//! undistinguished: by the estimate with injective prefix inputs and a budget of
//! `PREFIX_BUDGET` steps, and with lossy ones with `PREFIX_BUDGET` and with
//! `LOSSY_PREFIX_BUDGET` steps; then the same three searched (budgets of 4 and 8 steps gave the
//! same shares on the embeddings below, with larger graphs and up to five times the time;
//! measured once, not tested). No rule wins on every embedding of the shared Mealy models
//! (docs/src/design/state-identification.md, `cargo bench --bench identify -- embed`).
//!
//! Dense automata (issue 44): from [`DENSE_COMPATIBLE_PAIRS`] (32,768) unordered compatible
//! pairs on, `distinguish` builds one splitting graph (that of fewest pairs together, instead of the
//! search over four policies) and [`adaptive_graph_dense`]: only the third estimated graph, then
//! the repair in subset mode only. On `random_suspension(1, 3000, 2, 4)` (275,597 compatible
//! pairs) the search over four graphs with six ADGs and two repairs each took 125 s of CPU and
//! 883 MB, almost all in the searched ADG rules (5-9 s each at 1,000 states, wall on a loaded
//! machine, against 1.5 s for an estimated one) and the weighted repair; the one graph and ADG
//! leave 1,337,042 ordered pairs against 1,336,782 (18.83% against 18.82%), in 9.7 s of CPU and
//! 315 MB (docs/src/benchmarks.md). The cut only chooses among fewer candidates: what is kept
//! is a complete splitting graph of Algorithm 3 under one policy and an ADG of Algorithm 5
//! (repaired as argued in [`super::repair`]), so every lemma used above holds for it, and the
//! top-ups still cover every pair it leaves. The threshold is far above every bundled model (at
//! most 22 pairs) and the automata of Table 3.2's tests, whose output is therefore unchanged;
//! above it the pairs, not the states, drive the cost of the searched rules (their losses are
//! lists of pairs).
//!
//! The repair of the dense path cuts its exact games at a position limit instead of giving
//! them up, within a budget of positions per repair ([`RepairMemo::dense`], argued in
//! [`super::repair`]): with four inputs the games of even three states outgrew any limit.
//!
//! The graph need not distinguish every incompatible pair (Fig. 3.5 has no adaptive
//! distinguishing graph at all). A pair counts as distinguished when the two states share no
//! observation (Def. 3.18) and neither is still possible when the other meets an input it does not
//! specify. For every other incompatible pair we add the pairwise distinguishing graph
//! (Algorithm 1): the top-up. The ADG plus the top-ups of a state form its state identifier.
//!
//! The metrics of Table 3.2 are computed on the way: depth, the average size of leaves (number of
//! initial states that can produce the leaf's observation), and the size weighted by the
//! probability of the observation when every allowed output is equally likely.

use super::analysed::{AdgMetrics, AnalysedGraph};
use super::distinguishing_graph::{pairwise_graph, pairwise_graph_size};
use super::error::IdentifyError;
use super::experiment::{Experiment, ExperimentNode, Race, Step, assemble, post_order};
use super::injective::lost_pairs;
use super::repair::RepairMemo;
use super::sets::{after, outputs_of};
use super::split_options::LOOKAHEAD;
use super::splitting_graph::{SplittingGraph, Witness};
use crate::analysis::compatibility::Neighbours;
use crate::analysis::{Compatibility, Preference};
use crate::model::{LabelId, StateId, SuspensionAutomaton};
use rayon::prelude::*;
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// Largest current set for which several LCAs are ranked by injectivity (quadratic in the set).
const LCA_SCORING_LIMIT: usize = 4096;

/// Default budget on the nodes of an adaptive distinguishing graph.
pub const DEFAULT_ADG_BUDGET: usize = 5_000_000;

/// Position in the witnesses: the node whose witness runs next, a step taken before choosing an
/// LCA, or a leaf.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    states: Vec<StateId>,
    /// The node whose witness runs next; `None` with no `prefix`: leaf (pairwise compatible
    /// current set, or no LCA).
    witness: Option<u32>,
    /// A step taken before an LCA is chosen for the sets it leads to.
    prefix: Option<Prefix>,
    /// Prefix steps still allowed on this path (never increases along a path, so prefix steps
    /// cannot close a cycle).
    budget: u8,
}

/// A step the ADG takes before choosing an LCA, when the best LCA's witness loses pairs and the
/// step leads to sets whose best LCAs lose fewer.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Prefix {
    /// Apply an input injective for the current set (Def. 3.34).
    Input(LabelId),
    /// Wait for an output.
    Outputs,
}

/// Prefix steps allowed on a path of the ADG (with injective prefix inputs only, a budget of 4
/// gave the same graphs as 2 on the embeddings of `cargo bench --bench identify -- embed`,
/// measured once, not tested).
const PREFIX_BUDGET: u8 = 2;

/// The larger budget also tried with lossy prefix inputs (its effect on the embeddings is in the
/// the design notes' table of `cargo bench --bench identify -- embed`; no test asserts a gain).
const LOSSY_PREFIX_BUDGET: u8 = 4;

/// The inputs the ADG may apply as prefix steps (see the module documentation).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PrefixInputs {
    /// Only inputs injective for the current set (Def. 3.34): the step loses nothing itself.
    Injective,
    /// Also inputs that lose pairs, when the pairs they lose plus those the best LCAs of the
    /// set they lead to lose are fewer than the best LCA of the current set loses.
    Lossy,
}

struct Builder<'a> {
    sa: &'a SuspensionAutomaton,
    compat: &'a Compatibility,
    graph: &'a SplittingGraph,
    prefix_inputs: PrefixInputs,
    /// The exact search of line 8 (module documentation); `None`: the local estimate only.
    search: Option<Search>,
    /// [`Self::choose_lca`] of every set asked for: it depends on the set alone, and the
    /// estimates ask for the same sets again and again.
    lca_memo: RefCell<HashMap<Vec<StateId>, LcaChoice>>,
}

/// The LCA chosen for a set and the pairs its witness loses ([`Builder::choose_lca`]).
type LcaChoice = Option<(u32, u64)>;

/// What Algorithm 5 does at a set with nothing left to run: the LCA whose witness runs, or a
/// prefix step.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Choice {
    witness: Option<u32>,
    prefix: Option<Prefix>,
}

/// The undistinguished pairs of a key's subtree, as far as they are known.
enum Loss {
    /// Being computed (a key met again before it is done lies on a cycle).
    Pending,
    /// The incompatible pairs of the key's states the subtree does not distinguish.
    Known(LostPairs),
    /// The subtree reaches a pending key, so it may be cyclic: never chosen for it.
    Unknown,
}

/// Pairs of a key's states, `(q, r)` with `q < r`, sorted, each as the positions of `q` and `r`
/// in the key's (sorted) states: the search compares sets of at most `SEARCH_SET_LIMIT` (256)
/// states, and the sets below them are no larger (the automaton is deterministic, so `P after
/// µ` has at most `|P|` states), so a position fits a byte and a pair takes two bytes instead of
/// eight. On rio3000 (docs/src/design/scaling.md) the searched graph with four lossy prefix
/// steps keeps 2.0 million lost pairs.
type LostPairs = Rc<[(u8, u8)]>;

const _: () = assert!(SEARCH_SET_LIMIT <= 1 << u8::BITS);

/// The pairs `(q, r)`, `q < r`, of `lost` (a [`LostPairs`] of `states`), sorted.
fn decode_lost(states: &[StateId], lost: &[(u8, u8)]) -> Vec<(StateId, StateId)> {
    lost.iter()
        .map(|&(i, j)| (states[usize::from(i)], states[usize::from(j)]))
        .collect()
}

/// The sorted pairs `pairs` of sorted `states` (at most 256) as a [`LostPairs`].
fn encode_lost(states: &[StateId], pairs: &[(StateId, StateId)]) -> LostPairs {
    let position = |q: StateId| {
        let k = states
            .binary_search(&q)
            .expect("a lost pair is a pair of the key's states");
        u8::try_from(k).expect("searched sets have at most 256 states")
    };
    pairs
        .iter()
        .map(|&(q, r)| (position(q), position(r)))
        .collect()
}

/// Memos of the exact search: every key's children are fixed when first asked for, so the graph
/// assembled at the end is the one whose losses were counted.
struct Search {
    /// Largest set at which candidates are compared by their true loss.
    set_limit: usize,
    /// Keys whose loss may be computed; beyond it choices fall back to the estimate.
    key_budget: usize,
    /// States plus lost pairs the computed losses may hold in total (`SEARCH_WORK_BUDGET`);
    /// beyond it choices fall back to the estimate, as beyond `key_budget`.
    work_budget: usize,
    /// States plus lost pairs of the losses computed so far.
    work: Cell<usize>,
    decisions: RefCell<HashMap<Decision, Choice>>,
    deciding: RefCell<HashSet<Decision>>,
    children: RefCell<HashMap<Key, Rc<[Child]>>>,
    losses: RefCell<HashMap<Key, Loss>>,
    evaluated: Cell<usize>,
}

/// Where a choice is made: the current set, the witness running (if any) and the prefix steps
/// left.
type Decision = (Vec<StateId>, Option<u32>, u8);

/// A child of a key: the label, the child's key, and whether the label is an input.
type Child = (LabelId, Key, bool);

/// Largest current set at which [`Search`] compares candidates by their true loss (the count is
/// quadratic in the set, per key of the subtrees).
const SEARCH_SET_LIMIT: usize = 256;

/// Keys whose true loss one build may compute.
const SEARCH_KEY_BUDGET: usize = 200_000;

/// States plus lost pairs the losses computed in one build may hold together: each key's loss is
/// a list of pairs (up to `SEARCH_SET_LIMIT²/2` of them) kept for the whole build, so on automata
/// with many compatible pairs the key budget alone let a build store gigabytes. Fills memory
/// proportional to it (2 bytes a pair, [`LostPairs`]) and bounds the time, which is linear in it.
const SEARCH_WORK_BUDGET: usize = 4_000_000;

/// Candidates compared at one set, the estimated choice included.
const SEARCH_CANDIDATES: usize = 32;

impl Search {
    /// Whether no more losses may be computed (key or work budget spent).
    fn exhausted(&self) -> bool {
        self.evaluated.get() >= self.key_budget || self.work.get() >= self.work_budget
    }
}

impl Builder<'_> {
    /// Resolves `compDG(P, F)`: a leaf if `⋈(P)`, else the witness to run (an LCA if `F = 0`),
    /// or a prefix step (see [`Self::choice`]).
    fn resolve(&self, states: Vec<StateId>, witness: Option<u32>, budget: u8) -> Key {
        if self.compat.pairwise_compatible(&states) {
            return Key {
                states,
                witness: None,
                prefix: None,
                budget,
            };
        }
        let choice = self.choice(&states, witness, budget);
        Key {
            states,
            witness: choice.witness,
            prefix: choice.prefix,
            budget,
        }
    }

    /// The choice by the local estimate: the best LCA (see [`Self::choose_lca`]), or a prefix
    /// step when the LCA loses pairs and the step leads to sets whose LCAs lose fewer.
    fn estimated_choice(&self, states: &[StateId], budget: u8) -> Choice {
        let chosen = self.choose_lca(states);
        let prefix = match chosen {
            Some((_, lost)) if lost > 0 && budget > 0 => self.choose_prefix(states, lost),
            _ => None,
        };
        Choice {
            witness: if prefix.is_some() {
                None
            } else {
                chosen.map(|c| c.0)
            },
            prefix,
        }
    }

    /// The choice at a set `P`: with `F = 0` (`running` is `None`) an LCA or a prefix step,
    /// with a witness running, going on with it or choosing afresh for `P`. Without a search,
    /// or beyond its limits, the estimated one (going on, or [`Self::estimated_choice`]); else
    /// the estimated one unless another candidate's subtree loses strictly fewer incompatible
    /// pairs of `P` (with `F = 0` the candidates are the LCAs in the order of
    /// [`Self::choose_lca`], then the prefix inputs the rule allows by label, then waiting).
    fn choice(&self, states: &[StateId], running: Option<u32>, budget: u8) -> Choice {
        let estimate = || match running {
            Some(_) => Choice {
                witness: running,
                prefix: None,
            },
            None => self.estimated_choice(states, budget),
        };
        let Some(search) = self.search.as_ref().filter(|s| states.len() <= s.set_limit) else {
            return estimate();
        };
        let id = (states.to_vec(), running, budget);
        if let Some(&c) = search.decisions.borrow().get(&id) {
            return c;
        }
        let estimated = estimate();
        if search.exhausted() {
            search.decisions.borrow_mut().insert(id, estimated);
            return estimated;
        }
        // Met again while deciding it: the estimate, not remembered (a cycle guard).
        if !search.deciding.borrow_mut().insert(id.clone()) {
            return estimated;
        }
        let loss_of = |c: Choice| {
            let key = Key {
                states: states.to_vec(),
                witness: c.witness,
                prefix: c.prefix,
                budget,
            };
            self.loss(&key).map(|l| l.len())
        };
        let mut best = (estimated, loss_of(estimated));
        if best.1 != Some(0) {
            let candidates = match running {
                Some(_) => vec![self.choice(states, None, budget)],
                None => self.candidates(states, budget),
            };
            for c in candidates
                .into_iter()
                .filter(|&c| c != estimated)
                .take(SEARCH_CANDIDATES - 1)
            {
                if search.exhausted() {
                    break;
                }
                if let Some(lost) = loss_of(c)
                    && best.1.is_none_or(|b| lost < b)
                {
                    best = (c, Some(lost));
                    if lost == 0 {
                        break;
                    }
                }
            }
        }
        search.deciding.borrow_mut().remove(&id);
        search.decisions.borrow_mut().insert(id, best.0);
        best.0
    }

    /// Every choice at `p` the search compares (see [`Self::choice`]).
    fn candidates(&self, p: &[StateId], budget: u8) -> Vec<Choice> {
        let mut lcas: Vec<(u64, bool, u32)> = self
            .graph
            .lcas(p)
            .into_iter()
            .map(|v| {
                let lost = self
                    .graph
                    .lost_by_witness(self.sa, self.compat, p, v, LOOKAHEAD);
                (lost, !self.graph.nodes()[v as usize].injective, v)
            })
            .collect();
        lcas.sort_unstable();
        let mut out: Vec<Choice> = lcas
            .into_iter()
            .map(|(_, _, v)| Choice {
                witness: Some(v),
                prefix: None,
            })
            .collect();
        if budget == 0 {
            return out;
        }
        let mut inputs: Vec<LabelId> = p.iter().flat_map(|&q| self.sa.inputs_enabled(q)).collect();
        inputs.sort_unstable();
        inputs.dedup();
        for a in inputs {
            if self.prefix_inputs == PrefixInputs::Injective
                && lost_pairs(self.sa, self.compat, p, a) > 0
            {
                continue;
            }
            out.push(Choice {
                witness: None,
                prefix: Some(Prefix::Input(a)),
            });
        }
        if !outputs_of(self.sa, p).is_empty() {
            out.push(Choice {
                witness: None,
                prefix: Some(Prefix::Outputs),
            });
        }
        out
    }

    /// The children of `key`, fixed at the first call when searching. Keys of sets beyond the
    /// search's limit are not remembered: their choices are the estimate's, and their children's
    /// sets are no larger, so no decision about them can be under way while they are computed.
    fn children(&self, key: &Key) -> Rc<[Child]> {
        let Some(search) = self
            .search
            .as_ref()
            .filter(|s| key.states.len() <= s.set_limit)
        else {
            return self.compute_children(key).into();
        };
        if let Some(c) = search.children.borrow().get(key) {
            return Rc::clone(c);
        }
        let c: Rc<[Child]> = self.compute_children(key).into();
        search
            .children
            .borrow_mut()
            .insert(key.clone(), Rc::clone(&c));
        c
    }

    /// The incompatible pairs of `key`'s states its subtree leaves undistinguished, or `None`
    /// when the subtree reaches a key still being computed (it may be cyclic).
    fn loss(&self, key: &Key) -> Option<LostPairs> {
        let search = self.search.as_ref()?;
        match search.losses.borrow().get(key) {
            Some(Loss::Known(l)) => return Some(Rc::clone(l)),
            Some(Loss::Pending | Loss::Unknown) => return None,
            None => {}
        }
        search
            .losses
            .borrow_mut()
            .insert(key.clone(), Loss::Pending);
        search.evaluated.set(search.evaluated.get() + 1);
        let kids = self.children(key);
        let mut below = Vec::with_capacity(kids.len());
        for (_, child, _) in kids.iter() {
            match self.loss(child) {
                Some(l) => below.push(decode_lost(&child.states, &l)),
                None => {
                    search
                        .losses
                        .borrow_mut()
                        .insert(key.clone(), Loss::Unknown);
                    return None;
                }
            }
        }
        let lost = encode_lost(
            &key.states,
            &self.undistinguished(&key.states, &kids, &below),
        );
        search
            .work
            .set(search.work.get() + key.states.len() + lost.len());
        search
            .losses
            .borrow_mut()
            .insert(key.clone(), Loss::Known(Rc::clone(&lost)));
        Some(lost)
    }

    /// The incompatible pairs of `p` that a node with children `kids`, whose subtrees lose
    /// `below`, leaves undistinguished: at a leaf all of them; after an input, a pair one of
    /// whose states does not enable it, or that it leads to equal or compatible states or to a
    /// pair the child loses; after outputs, a pair that some output both enable leads so.
    fn undistinguished(
        &self,
        p: &[StateId],
        kids: &[Child],
        below: &[Vec<(StateId, StateId)>],
    ) -> Vec<(StateId, StateId)> {
        let compat = self.compat;
        if kids.is_empty() {
            let mut out = Vec::new();
            for (i, &q) in p.iter().enumerate() {
                for &r in &p[i + 1..] {
                    if !compat.compatible(q, r) {
                        out.push((q.min(r), q.max(r)));
                    }
                }
            }
            out.sort_unstable();
            return out;
        }
        // Candidates child by child (output-sensitive: no pass over all pairs of `p`), then
        // the incompatible ones kept.
        let mut out = Vec::new();
        for ((l, _, input), lost) in kids.iter().zip(below) {
            lost_through(self.sa, compat, p, *l, *input, lost, &mut out);
        }
        out.retain(|&(q, r)| !compat.compatible(q, r));
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The least number of pairs an LCA's witness loses on `p` (see [`Self::choose_lca`]).
    fn least_lost(&self, p: &[StateId]) -> u64 {
        if p.len() < 2 || self.compat.pairwise_compatible(p) {
            return 0;
        }
        self.choose_lca(p).map_or(0, |c| c.1)
    }

    /// A prefix step whose successor sets' best LCAs lose fewer than `lost` pairs in total (an
    /// input first, by fewest, then by label; waiting for an output last).
    fn choose_prefix(&self, p: &[StateId], lost: u64) -> Option<Prefix> {
        let sa = self.sa;
        let mut best: Option<(u64, Prefix)> = None;
        let mut inputs: Vec<LabelId> = p.iter().flat_map(|&q| sa.inputs_enabled(q)).collect();
        inputs.sort_unstable();
        inputs.dedup();
        for a in inputs {
            let direct = lost_pairs(sa, self.compat, p, a);
            if direct >= lost || (direct > 0 && self.prefix_inputs == PrefixInputs::Injective) {
                continue;
            }
            let next = after(sa, p, a);
            let estimate = direct + self.least_lost(&next);
            if estimate < lost && best.is_none_or(|b| estimate < b.0) {
                best = Some((estimate, Prefix::Input(a)));
            }
        }
        let outputs = outputs_of(sa, p);
        if !outputs.is_empty() {
            let estimate: u64 = outputs
                .iter()
                .map(|&x| lost_pairs(sa, self.compat, p, x) + self.least_lost(&after(sa, p, x)))
                .sum();
            if estimate < lost && best.is_none_or(|b| estimate < b.0) {
                best = Some((estimate, Prefix::Outputs));
            }
        }
        best.map(|b| b.1)
    }

    /// The LCA of `p` whose witness loses the fewest incompatible pairs of `p` within
    /// [`LOOKAHEAD`] labels, then one whose split was injective, then the oldest; with the pairs
    /// it loses (0 when not counted: one LCA, or a set beyond [`LCA_SCORING_LIMIT`]).
    fn choose_lca(&self, p: &[StateId]) -> Option<(u32, u64)> {
        if let Some(&chosen) = self.lca_memo.borrow().get(p) {
            return chosen;
        }
        let chosen = self.compute_lca_choice(p);
        self.lca_memo.borrow_mut().insert(p.to_vec(), chosen);
        chosen
    }

    /// [`Self::choose_lca`] without the memo.
    fn compute_lca_choice(&self, p: &[StateId]) -> Option<(u32, u64)> {
        let lcas = self.graph.lcas(p);
        if p.len() > LCA_SCORING_LIMIT {
            return lcas
                .iter()
                .copied()
                .find(|&v| self.graph.nodes()[v as usize].injective)
                .or_else(|| lcas.first().copied())
                .map(|v| (v, 0));
        }
        lcas.iter()
            .map(|&v| {
                let node = &self.graph.nodes()[v as usize];
                let lost = self
                    .graph
                    .lost_by_witness(self.sa, self.compat, p, v, LOOKAHEAD);
                ((lost, !node.injective, v), v)
            })
            .min()
            .map(|((lost, _, _), v)| (v, lost))
    }

    fn compute_children(&self, key: &Key) -> Vec<Child> {
        let budget = key.budget;
        match key.prefix {
            Some(Prefix::Input(a)) => {
                return vec![(
                    a,
                    self.resolve(after(self.sa, &key.states, a), None, budget - 1),
                    true,
                )];
            }
            Some(Prefix::Outputs) => {
                return outputs_of(self.sa, &key.states)
                    .into_iter()
                    .map(|x| {
                        let p = after(self.sa, &key.states, x);
                        (x, self.resolve(p, None, budget - 1), false)
                    })
                    .collect();
            }
            None => {}
        }
        let Some(v) = key.witness else {
            return Vec::new();
        };
        match self.graph.nodes()[v as usize].witness.as_ref() {
            Some(Witness::Input(a, next)) => {
                vec![(
                    *a,
                    self.resolve(after(self.sa, &key.states, *a), Some(*next), budget),
                    true,
                )]
            }
            Some(Witness::Outputs(list)) => list
                .iter()
                .filter_map(|&(x, next)| {
                    let p = after(self.sa, &key.states, x);
                    (!p.is_empty()).then(|| (x, self.resolve(p, next, budget), false))
                })
                .collect(),
            None => Vec::new(),
        }
    }
}

/// The pairwise graph of an undistinguished (hence incompatible) pair.
fn pairwise(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    q: StateId,
    r: StateId,
    preference: Preference,
) -> Experiment {
    pairwise_graph(sa, compat, q, r, preference).expect("undistinguished pairs are incompatible")
}

/// The adaptive distinguishing graph of [`adaptive_graph_as_built`], with sub-DAGs replaced by
/// optimal strategies of the exact game where that loses fewer pairs ([`super::repair`]);
/// `memo` remembers the games too large to play, across the graphs of one automaton.
pub fn adaptive_graph(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    graph: &SplittingGraph,
    budget: usize,
    memo: &RepairMemo,
) -> Result<AnalysedGraph, IdentifyError> {
    let built = adaptive_graph_as_built(sa, compat, graph, budget)?;
    Ok(super::repair::repaired(sa, compat, built, memo))
}

/// Builds the adaptive distinguishing graph of `sa` from a complete splitting graph
/// (Algorithm 5), with at most `budget` nodes: six graphs (injective prefix inputs; lossy ones
/// with two and with four prefix steps; the same three rules with the search, see the module
/// documentation), of which the one leaving the fewest pairs undistinguished is kept (ties to the
/// earlier). No rule wins everywhere: on the embeddings of the shared Mealy models lossy prefix
/// inputs help most where hidden inputs give output nondeterminism and hurt on some merged ones,
/// and the search alone loses more on two rows (docs/src/design/state-identification.md, `cargo bench --bench identify --
/// embed`). The winner comes with its analysis, so [`AdaptiveIdentification::top_up`] does not
/// repeat it.
pub fn adaptive_graph_as_built(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    graph: &SplittingGraph,
    budget: usize,
) -> Result<AnalysedGraph, IdentifyError> {
    best_graph(sa, compat, graph, budget, &GRAPH_RULES)
}

/// Unordered compatible pairs from which `distinguish` takes the dense path: one splitting
/// graph and [`adaptive_graph_dense`] (see the module documentation). The bundled models have at
/// most 22 (`vdbos_fig6_5_tcp`); `random_suspension(1, 3000, 2, 4)` has 275,597. Lowered from
/// 65,536: four-input automata below that, `random_suspension(1, 2000, 4, 4)` (36,364 pairs)
/// and `random_suspension(3, 3000, 4, 4)` (60,001), took 56 s and 119 s of CPU on the searched
/// path even without the repair (0.6 and 1.3 GB), and with it did not end within 4 minutes (the
/// repair's exact games given up at 150,000 positions); on the dense path they take 4.3 and
/// 8.7 s and leave fewer pairs (docs/src/benchmarks.md). `random_suspension(1, 1000, 2, 4)`
/// (31,616) stays below, as do all bundled models (the tests reproducing Table 3.2 pass
/// unchanged).
pub const DENSE_COMPATIBLE_PAIRS: usize = 1 << 15;

/// The adaptive distinguishing graph of an automaton with many compatible pairs (at least
/// [`DENSE_COMPATIBLE_PAIRS`]): the one estimated graph of `DENSE_GRAPH_RULE`, repaired (when
/// `repair`) in [`Mode::Subset`] only (module documentation).
///
/// [`Mode::Subset`]: super::repair::Mode::Subset
pub fn adaptive_graph_dense(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    graph: &SplittingGraph,
    budget: usize,
    memo: &RepairMemo,
    repair: bool,
) -> Result<AnalysedGraph, IdentifyError> {
    let (rule, steps, search) = DENSE_GRAPH_RULE;
    let adg = adaptive_graph_steps(sa, compat, graph, budget, rule, steps, search)?;
    if !repair {
        return Ok(AnalysedGraph::new(sa, compat, adg));
    }
    // Analysed once, for its metrics and the repair's origins.
    let (built, origins) = AnalysedGraph::with_origins(sa, compat, adg);
    Ok(super::repair::repaired_from(
        sa,
        compat,
        built,
        &origins,
        memo,
        &[super::repair::Mode::Subset],
    ))
}

/// The one rule of [`adaptive_graph_dense`]: lossy prefix inputs, `LOSSY_PREFIX_BUDGET` steps,
/// no search (the third of [`GRAPH_RULES`]; of the three estimated rules it left the fewest pairs
/// on `random_suspension(1, n, 2, 4)` at 1,000 and 3,000 states).
const DENSE_GRAPH_RULE: (PrefixInputs, u8, bool) = GRAPH_RULES[2];

/// The rules of the six graphs of [`adaptive_graph_as_built`]: prefix inputs, prefix steps per
/// path, and whether the search chooses; the first three estimate.
const GRAPH_RULES: [(PrefixInputs, u8, bool); 6] = [
    (PrefixInputs::Injective, PREFIX_BUDGET, false),
    (PrefixInputs::Lossy, PREFIX_BUDGET, false),
    (PrefixInputs::Lossy, LOSSY_PREFIX_BUDGET, false),
    (PrefixInputs::Injective, PREFIX_BUDGET, true),
    (PrefixInputs::Lossy, PREFIX_BUDGET, true),
    (PrefixInputs::Lossy, LOSSY_PREFIX_BUDGET, true),
];

/// The best of the three estimated graphs only (no search, no repair): tests of the splitting
/// graph and of the repair use it, since the search would hide what they measure.
#[cfg(test)]
pub(crate) fn adaptive_graph_estimated(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    graph: &SplittingGraph,
) -> AnalysedGraph {
    best_graph(sa, compat, graph, DEFAULT_ADG_BUDGET, &GRAPH_RULES[..3])
        .expect("small automata fit the budget")
}

/// Of the graphs built by `rules`, the one leaving the fewest pairs undistinguished (ties to the
/// earlier); an error only when every rule outgrew the budget.
fn best_graph(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    graph: &SplittingGraph,
    budget: usize,
    rules: &[(PrefixInputs, u8, bool)],
) -> Result<AnalysedGraph, IdentifyError> {
    // The graphs are independent: built and analysed in parallel, compared in rule order.
    let built: Vec<Result<AnalysedGraph, IdentifyError>> = rules
        .par_iter()
        .map(|&(rule, steps, search)| {
            adaptive_graph_steps(sa, compat, graph, budget, rule, steps, search)
                .map(|adg| AnalysedGraph::new(sa, compat, adg))
        })
        .collect();
    let mut best: Option<AnalysedGraph> = None;
    let mut failure = None;
    for result in built {
        match result {
            Ok(analysed) => {
                let lost = analysed.undistinguished.len();
                if best.as_ref().is_none_or(|b| lost < b.undistinguished.len()) {
                    best = Some(analysed);
                }
            }
            Err(e) => failure = Some(e),
        }
    }
    match (best, failure) {
        (Some(analysed), _) => Ok(analysed),
        (None, Some(e)) => Err(e),
        (None, None) => unreachable!("at least one graph is tried"),
    }
}

/// Algorithm 5 with prefix inputs chosen by `rule`, at most `steps` prefix steps per path, and
/// with or without the search (module documentation).
fn adaptive_graph_steps(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    graph: &SplittingGraph,
    budget: usize,
    rule: PrefixInputs,
    steps: u8,
    search: bool,
) -> Result<Experiment, IdentifyError> {
    let b = Builder {
        sa,
        compat,
        graph,
        lca_memo: RefCell::default(),
        prefix_inputs: rule,
        search: search.then(|| Search {
            set_limit: SEARCH_SET_LIMIT,
            key_budget: SEARCH_KEY_BUDGET,
            decisions: RefCell::default(),
            deciding: RefCell::default(),
            children: RefCell::default(),
            losses: RefCell::default(),
            evaluated: Cell::new(0),
            work_budget: SEARCH_WORK_BUDGET,
            work: Cell::new(0),
        }),
    };
    let root = b.resolve(sa.states().collect(), None, steps);
    let mut count = 0usize;
    let mut over = false;
    let (order, index, kids) = post_order(root, |k| {
        count += 1;
        if count > budget {
            over = true;
            return Vec::new();
        }
        b.children(k).iter().map(|(_, c, _)| c.clone()).collect()
    });
    if over {
        return Err(IdentifyError::Budget {
            what: "the adaptive distinguishing graph's nodes".into(),
            budget,
            advice: "use pairwise distinguishing graphs instead".into(),
        });
    }
    let _ = kids;
    Ok(assemble(&order, &index, |k, idx| {
        let ch = b.children(k);
        let step = match ch.first() {
            None => Step::Leaf,
            Some((a, next, true)) => Step::Input {
                input: *a,
                then: idx(next),
                race: outputs_of(sa, &k.states)
                    .into_iter()
                    .filter(|&x| x != sa.quiescence())
                    .map(|x| (x, Race::Retry))
                    .collect(),
            },
            Some(_) => Step::Outputs {
                branches: ch.iter().map(|(x, c, _)| (*x, idx(c))).collect(),
            },
        };
        ExperimentNode {
            states: k.states.clone(),
            step,
        }
    }))
}

/// Appends to `out` the pairs `(q, r)`, `q < r`, of `p` that the step on `l` leaves together:
/// both reach one state, two compatible states or a pair of `lost` (the pairs the child's
/// subtree leaves undistinguished, `u < v`, sorted), or, for an input, one of them does not
/// enable it. Pairs may repeat, compatible ones among them.
fn lost_through(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    p: &[StateId],
    l: LabelId,
    input: bool,
    lost: &[(StateId, StateId)],
    out: &mut Vec<(StateId, StateId)>,
) {
    let pair = |q: StateId, r: StateId| (q.min(r), q.max(r));
    let mut moved: Vec<(StateId, StateId)> = Vec::with_capacity(p.len());
    let mut stuck: Vec<StateId> = Vec::new();
    for &q in p {
        match sa.after(q, l) {
            Some(t) => moved.push((t, q)),
            None => stuck.push(q),
        }
    }
    if input {
        for (k, &q) in stuck.iter().enumerate() {
            out.extend(stuck[k + 1..].iter().map(|&r| pair(q, r)));
            out.extend(moved.iter().map(|&(_, r)| pair(q, r)));
        }
    }
    moved.sort_unstable();
    let groups: Vec<&[(StateId, StateId)]> = moved.chunk_by(|a, b| a.0 == b.0).collect();
    let targets: Vec<StateId> = groups.iter().map(|g| g[0].0).collect();
    let mut cross = |x: &[(StateId, StateId)], y: &[(StateId, StateId)]| {
        for &(_, q) in x {
            out.extend(y.iter().map(|&(_, r)| pair(q, r)));
        }
    };
    for (i, group) in groups.iter().enumerate() {
        for k in 0..group.len() {
            cross(&group[k..=k], &group[k + 1..]);
        }
        let later = &targets[i + 1..];
        match compat.neighbours(targets[i]) {
            Neighbours::Compatible(partners) if partners.len() < later.len() => {
                for u in partners {
                    if let Ok(j) = later.binary_search(u) {
                        cross(group, groups[i + 1 + j]);
                    }
                }
            }
            _ => {
                for (j, &u) in later.iter().enumerate() {
                    if compat.compatible(targets[i], u) {
                        cross(group, groups[i + 1 + j]);
                    }
                }
            }
        }
    }
    for &(u, v) in lost {
        if let (Ok(i), Ok(j)) = (targets.binary_search(&u), targets.binary_search(&v)) {
            cross(groups[i], groups[j]);
        }
    }
}

/// The adaptive distinguishing graph with its top-ups: for every state, experiments that together
/// distinguish it from every incompatible state.
///
/// Top-up graphs are not stored: there can be millions (one per undistinguished pair), and each
/// follows the winning moves of [`Compatibility`], so [`AdaptiveIdentification::topup`] rebuilds
/// one in time proportional to its size.
#[derive(Clone, Debug)]
pub struct AdaptiveIdentification {
    adg: Experiment,
    preference: Preference,
    topup_pairs: Vec<(StateId, StateId)>,
    topup_nodes: usize,
    metrics: AdgMetrics,
}

impl AdaptiveIdentification {
    /// Builds the ADG from `graph`, finds the incompatible pairs it leaves undistinguished and adds
    /// a pairwise distinguishing graph for each (built in parallel, moves chosen by `preference`).
    pub fn compute(
        sa: &SuspensionAutomaton,
        compat: &Compatibility,
        graph: &SplittingGraph,
        preference: Preference,
    ) -> Result<AdaptiveIdentification, IdentifyError> {
        let memo = RepairMemo::default();
        let analysed = adaptive_graph(sa, compat, graph, DEFAULT_ADG_BUDGET, &memo)?;
        Ok(Self::top_up(sa, compat, analysed, preference))
    }

    /// Adds top-ups to an analysed adaptive distinguishing graph (see [`AnalysedGraph::new`]).
    pub fn top_up(
        sa: &SuspensionAutomaton,
        compat: &Compatibility,
        analysed: AnalysedGraph,
        preference: Preference,
    ) -> AdaptiveIdentification {
        let AnalysedGraph {
            adg,
            metrics,
            undistinguished: topup_pairs,
        } = analysed;
        let topup_nodes = topup_pairs
            .par_iter()
            .map(|&(q, r)| {
                pairwise_graph_size(sa, compat, q, r, preference)
                    .expect("undistinguished pairs are incompatible")
            })
            .sum();
        AdaptiveIdentification {
            adg,
            preference,
            topup_pairs,
            topup_nodes,
            metrics,
        }
    }

    /// The adaptive distinguishing graph.
    pub fn adg(&self) -> &Experiment {
        &self.adg
    }

    /// The top-up graph of the `k`-th undistinguished pair (Algorithm 1); `sa` and `compat` must
    /// be those this identification was computed for.
    pub fn topup(&self, sa: &SuspensionAutomaton, compat: &Compatibility, k: usize) -> Experiment {
        let (q, r) = self.topup_pairs[k];
        pairwise(sa, compat, q, r, self.preference)
    }

    /// The top-up graphs in pair order, built one at a time.
    pub fn topups<'a>(
        &'a self,
        sa: &'a SuspensionAutomaton,
        compat: &'a Compatibility,
    ) -> impl Iterator<Item = Experiment> + 'a {
        (0..self.topup_pairs.len()).map(move |k| self.topup(sa, compat, k))
    }

    /// Number of top-up graphs (one per undistinguished pair).
    pub fn num_topups(&self) -> usize {
        self.topup_pairs.len()
    }

    /// Total number of nodes of the top-up graphs.
    pub fn topup_nodes(&self) -> usize {
        self.topup_nodes
    }

    /// The incompatible pairs `(q, r)`, `q < r`, the ADG does not distinguish, sorted.
    pub fn undistinguished_pairs(&self) -> &[(StateId, StateId)] {
        &self.topup_pairs
    }

    /// Whether the ADG distinguishes `q` and `r` (always true for compatible pairs' purposes:
    /// those need no distinguishing).
    pub fn adg_distinguishes(&self, q: StateId, r: StateId) -> bool {
        let p = if q < r { (q, r) } else { (r, q) };
        self.topup_pairs.binary_search(&p).is_err()
    }

    /// The indices of the top-ups involving `q`; with the ADG they identify `q`.
    pub fn topups_of(&self, q: StateId) -> Vec<usize> {
        (0..self.topup_pairs.len())
            .filter(|&k| self.topup_pairs[k].0 == q || self.topup_pairs[k].1 == q)
            .collect()
    }

    /// Table 3.2 metrics of the ADG.
    pub fn metrics(&self) -> &AdgMetrics {
        &self.metrics
    }
}

#[cfg(test)]
pub(crate) mod tests;
