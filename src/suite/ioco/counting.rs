//! `ioco-counting`: an `n`-complete ioco suite by state counting over sets of pairwise
//! incompatible states, with no merges and no recursion. It combines the counting bound of the
//! unconditional suite (van den Bos Def. 2.41-2.43, Lemma 2.42) with the distinguishing graphs of
//! the distinguishing test suite (Def. 2.27, Algorithm 1, Thm. 2.40).
//!
//! # The suite
//!
//! Let `𝒜` be a family of sets of pairwise incompatible reachable states of the specification `S`
//! (Def. 2.15), to which every singleton `{s}` is added. For a trace `σ` and a state `s`, let
//! `v_s(σ)` be the number of prefixes of `σ` (`ε` and `σ` included) that reach `s` (as in
//! Def. 2.41). `σ` is *`𝒜`-bounded* when `Σ_{s∈A} v_s(σ) ≤ n` for every `A ∈ 𝒜`; `B` is the set
//! of `𝒜`-bounded traces of `S`, and `B⁺ = B ∪ {σµ ∈ traces(S) | σ ∈ B}`. The suite consists of
//!
//! 1. every `σx` with `σ ∈ B` and `x` an output or quiescence (the observations of `U(S, n)`);
//! 2. after every `σ ∈ B⁺`, the harmonised distinguishing graph (Algorithm 1, Lemma 2.33) of every
//!    pair `{S after σ, r}` with `r ≠ S after σ` in a common set of `𝒜`.
//!
//! With `𝒜` empty this is exactly `U(S, n)`: only the singletons bound the traces and no pair
//! shares a set. Without compatible pairs and with `𝒜 = {all reachable states}`, `σ` is bounded
//! iff `|σ| + 1 ≤ n`, so `B = P(S, n)`, `B⁺ = P+(S, n)` and the graphs are those of every
//! inequivalent pair: exactly `T(S, n)` of Def. 2.37. The unit tests check both equalities test
//! by test.
//!
//! The families offered ([`IncompatibleSets`]): all maximal sets of pairwise incompatible states
//! (maximal cliques of the incompatibility graph, Bron–Kerbosch with pivoting in state order,
//! under a step budget), one largest such set, or none.
//!
//! # Completeness
//!
//! Let `I` be input-enabled with `|I|_S ≤ n` (Def. 2.34) that passes the suite, and suppose
//! `I` does not conform. By Lemma 2.7 it has an ioco counterexample `σx`: `σ ∈ traces(S) ∩
//! traces(I)` and `x ∈ out(I after σ) \ out(S after σ)`; take a shortest one.
//!
//! - If `σ ∈ B`, the suite executes `σ` and then observes; by fairness (Sec. 2.7.4) `x` is
//!   eventually observed after `σ` and the suite fails, a contradiction.
//! - Otherwise let `σ'` be the shortest prefix of `σ` not in `B`. Its proper prefixes are in
//!   `B`, so every prefix of `σ'` is in `B⁺`, and some `A ∈ 𝒜` has `Σ_{s∈A} v_s(σ') ≥ n + 1`:
//!   there are `n + 1` prefixes `ρ_0 < … < ρ_n` of `σ'` with `S after ρ_j ∈ A`. Each reaches a
//!   specified state `I after ρ_j`, and there are at most `n` of those, so by pigeonhole two
//!   prefixes `ρ < ρ'` reach the same implementation state `i`.
//!   - If `s = S after ρ` and `s' = S after ρ'` differ, they are in the common set `A`, hence
//!     incompatible, and the harmonised graph `w` of `{s, s'}` was executed from `i` both after
//!     `ρ` and after `ρ'` (both are in `B⁺`). By fairness one observation sequence `τ` of `w` is
//!     seen in both executions (the argument of Thm. 2.40); by construction of distinguishing
//!     graphs (Def. 2.27, Lemma 2.33) `τ` is an ioco counterexample for `S/s` or for `S/s'`, so
//!     `ρτ` or `ρ'τ` is one for `S` and the suite fails: a contradiction.
//!   - So `S after ρ = S after ρ'` and `I after ρ = I after ρ'`. Replacing the prefix `ρ'` of
//!     `σ` by `ρ` gives a trace `σ''` with the same states in `S` and in `I` at its end, so
//!     `σ''x` is a shorter ioco counterexample (as in the proof of Lemma 2.42): a contradiction
//!     with the choice of `σx`.
//!
//! Hence `I ioco S`: the suite is `n`-complete (Def. 2.35). The graphs after the cut points
//! `B⁺ \ B` are needed: `ρ'` may be `σ'` itself, and a unit test shows a fault that a suite
//! without them misses. The cuts are early: a trace is not extended once some set's sum would
//! exceed `n`, so traces are no longer than `|S|·n` (`U`) and usually much shorter.
//!
//! # Counting relative to the state cover (`ioco-cover-counting`)
//!
//! The access sequences of the states already reach, in any implementation that passes, states
//! that the distinguishing graphs keep apart (the argument behind H, SPY and SPYH for Mealy
//! machines), so a visit along them need not be counted, and a set's bound shrinks by the
//! states it pins. Output choices of the implementation stand in the way: an access sequence
//! with an output the specification merely allows need not be a trace of the implementation.
//! So only *forced* access sequences pin: let the forced cover be the breadth-first tree (labels
//! in id order) from the initial state over the inputs and over the outputs of states that
//! allow exactly one output (quiescence counted as one); `acc(s)` is the tree path to `s` when
//! `s` is in the tree, and `Pin ⊆ S` the states of the tree. Every prefix of an `acc(s)` is an
//! `acc` (tree paths).
//!
//! A prefix `ρ` of `σ` is a *new visit* unless `ρ = acc(S after ρ)`; `σ` is bounded when every
//! `A ∈ 𝒜` has at most `n - |A ∩ Pin|` new visits to `A` (saturating at 0). The suite is built
//! as above from these bounded traces (so every `acc(s)` is bounded, with its observation and
//! graphs). A trace thus runs for about `n - |A| + 1` new visits instead of `n + 1` visits.
//!
//! *Completeness.* Let `I` pass, `|I|_S ≤ n`, and suppose `I` does not conform; among the ioco
//! counterexamples `σx` take one with the fewest new visits, then shortest. (1) *Pins.* For
//! `s ∈ Pin`, `acc(s)` is a trace of `I`: along it every output step is the only output `S`
//! allows, the observation after each prefix (bounded) shows some output of `I` by fairness,
//! and any other output would fail the suite. Write `i_s = I after acc(s)`. For `s ≠ s'` in a
//! common `A`, `i_s ≠ i_{s'}`: else the graph of the incompatible pair, run from `i_s` after
//! both access sequences, fails (Thm. 2.40). So `A ∩ Pin` pins `|A ∩ Pin|` distinct specified
//! states of `I`. (2) If `σ` is bounded, the suite observes after it and fails. (3) Else let
//! `σ'` be the shortest unbounded prefix and `A` a set with more than `n - |A ∩ Pin|` new
//! visits `ρ` along `σ'` (all in `B⁺`, so each is followed by the graphs of its state). If a new
//! visit `ρ` reaches a pin `i_{s'}`: with `s' ≠ S after ρ` the graph of the pair is run from
//! `i_{s'}` after `ρ` and after `acc(s')`: the suite fails; with `s' = S after ρ`, replacing
//! `ρ` by `acc(s')` in `σ` gives a counterexample with fewer new visits (`ρ` was one, the
//! prefixes of `acc(s')` are none, and a later prefix that was an `acc` would have `ρ` as a
//! prefix of an `acc`, so it would be one itself): a contradiction. So every new visit reaches
//! one of the at most `n - |A ∩ Pin|` other specified states, and two of them, `ρ < ρ'`, reach
//! the same `i`: if their specification states differ the graph of the pair fails the suite;
//! if not, cutting `σ` from `ρ'` back to `ρ` removes the new visit `ρ'` and (by the same prefix
//! argument) adds none. Either way a contradiction, so `I ioco S`. In the classic domain the
//! shortenings of `super::domain` (dropping a quiescence that loops in `S`, rule 3, or a
//! repeated one) remove a new visit and add none (a tree edge never loops, so no access
//! sequence takes such a quiescence, and a later prefix that becomes an access sequence was a
//! new visit before), so the argument carries over to the classic traces. A unit test and the
//! adversary check that the suite for `n - 1` is beaten, so a cut one step too early is caught.
//!
//! # Pins behind a choice of outputs
//!
//! The cover (`PinningCover`) extends the forced cover at *branching* states: a cover state
//! `v` (not reached by quiescence) whose allowed outputs `x_1, …, x_m` (`m ≥ 2`, quiescence
//! among them when allowed) lead to `m` distinct states outside the cover so far gets all `m`
//! edges as tree edges (the forced edges first, to closure, then the first state in cover order
//! that can branch, and again). Its children are reached by *some* output the implementation
//! shows, not by a chosen one, so a set `A` is credited only with what every choice pins:
//! `g(A)` is computed on the tree by `g_v = [v ∈ A] + Σ g_c` over the children by an input or
//! by a single allowed output, `+ min_j g_{c_j}` over the output children of a branching
//! (`g(A) = g` of the initial state), and `A`'s bound is `n − g(A)` new visits. With no
//! branching this is `|A ∩ Pin|` as above.
//!
//! *Completeness.* Let `Pin_I` be the cover states `s` with `acc(s) ∈ traces(I)`. (1′) `|A ∩
//! Pin_I| ≥ g(A)`, by induction over the tree from the leaves: for `v ∈ Pin_I`, every input
//! child is in `Pin_I` (`I` is input-enabled); the single allowed output of a forced state is
//! the only one `I` may show after `acc(v)`, which is bounded and so observed; at a branching
//! `out(I after acc(v))` is not empty (quiescence counts) and, as `I` passes the observation
//! after `acc(v)`, within `{x_1, …, x_m}`, so some `acc(v)x_j` is a trace of `I` and `c_j ∈
//! Pin_I`, which credits at least `min_j g_{c_j}`. States of `Pin_I` in a common set reach
//! distinct states of `I` as in (1). (2), (3) and the classic domain go through with `Pin_I`
//! for `Pin`: the counterexample `σ` is a trace of `I`, so a prefix `ρ = acc(s)` has `s ∈
//! Pin_I`; a new visit `ρ` reaching `i_{s'}` with `s' ∈ Pin_I` fails the suite or is replaced by
//! `acc(s') ∈ traces(I)`; the tree is still prefix-closed; and the other states number at most
//! `n − |A ∩ Pin_I| ≤ n − g(A)`. Crediting a branching with its *best* child instead (one step
//! too early) is caught: a unit test finds two-state implementations that pass that suite and
//! do not conform, while the suite as built judges every one right.
//!
//! # Plan
//!
//! A plan node is a bounded trace's state together with its sums per constraint (the sets of `𝒜`
//! and the singletons of states in no set of two or more), shared between traces with equal
//! keys as in `super::unconditional`; a successor whose sums would exceed `n` becomes a node
//! that only enters the graphs of its state. Moves are ordered as in `T(S, n)`: the
//! observation, the inputs, then the graphs by partner state.

use super::pairs::PairAnalysis;
use super::plan::{Move, Plan, PlanId, Target};
use super::{IocoSuiteError, access::reachable_states, conjunction::names};
use crate::model::{LabelId, StateId, SuspensionAutomaton};
use crate::suite::Verdict;
use crate::suite::costs::{Timing, thousands};
use serde_json::{Value, json};
use std::collections::HashMap;

/// Which sets of pairwise incompatible states bound the traces of `ioco-counting` (every single
/// state is always a set of its own).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum IncompatibleSets {
    /// Every maximal set of pairwise incompatible reachable states.
    #[default]
    Maximal,
    /// One largest set of pairwise incompatible reachable states.
    Largest,
    /// No set: the suite is `U(S, n)`.
    None,
}

impl IncompatibleSets {
    /// The spelling of `--incompatible-sets` and of the suite header.
    pub fn name(self) -> &'static str {
        match self {
            IncompatibleSets::Maximal => "maximal",
            IncompatibleSets::Largest => "largest",
            IncompatibleSets::None => "none",
        }
    }
}

impl std::str::FromStr for IncompatibleSets {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "maximal" => Ok(IncompatibleSets::Maximal),
            "largest" => Ok(IncompatibleSets::Largest),
            "none" => Ok(IncompatibleSets::None),
            _ => Err(format!("found `{s}`, expected maximal, largest or none")),
        }
    }
}

/// Most recursive steps of the clique search.
const CLIQUE_STEPS: usize = 1_000_000;
/// Most maximal sets the plan keeps counts for.
const MAX_SETS: usize = 4096;
/// Most bytes of visit sums (with their map entries) while a plan is built.
const MAX_SUMS_BYTES: usize = 256 << 20;

/// Bron–Kerbosch with pivoting on an adjacency given as bitsets over `0..m`.
struct CliqueSearch<'a> {
    adjacent: &'a [Vec<u64>],
    steps: usize,
    largest_only: bool,
    found: Vec<Vec<usize>>,
}

fn members(set: &[u64]) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(w, &bits)| {
        (0..64)
            .filter(move |b| bits >> b & 1 == 1)
            .map(move |b| w * 64 + b)
    })
}

fn meet(a: &[u64], b: &[u64]) -> Vec<u64> {
    a.iter().zip(b).map(|(x, y)| x & y).collect()
}

fn size(set: &[u64]) -> usize {
    set.iter().map(|w| w.count_ones() as usize).sum()
}

impl CliqueSearch<'_> {
    /// Extends clique `r` by vertices of `p` (candidates), `x` the vertices already tried.
    fn expand(&mut self, r: &mut Vec<usize>, mut p: Vec<u64>, mut x: Vec<u64>) -> Result<(), ()> {
        self.steps += 1;
        if self.steps > CLIQUE_STEPS {
            return Err(());
        }
        let candidates = size(&p);
        if candidates == 0 {
            if size(&x) == 0 {
                if !self.largest_only {
                    self.found.push(r.clone());
                    if self.found.len() > MAX_SETS {
                        return Err(());
                    }
                } else if self.found.first().is_none_or(|best| r.len() > best.len()) {
                    self.found = vec![r.clone()];
                }
            }
            return Ok(());
        }
        if self.largest_only
            && self
                .found
                .first()
                .is_some_and(|best| r.len() + candidates <= best.len())
        {
            return Ok(());
        }
        // The pivot has the most candidates as neighbours (the first such vertex on ties).
        let pivot = members(&p)
            .chain(members(&x))
            .max_by_key(|&u| (size(&meet(&p, &self.adjacent[u])), std::cmp::Reverse(u)))
            .expect("p is not empty");
        let branch: Vec<usize> = members(&p)
            .filter(|&v| self.adjacent[pivot][v / 64] >> (v % 64) & 1 == 0)
            .collect();
        for v in branch {
            r.push(v);
            let next_p = meet(&p, &self.adjacent[v]);
            let next_x = meet(&x, &self.adjacent[v]);
            self.expand(r, next_p, next_x)?;
            r.pop();
            p[v / 64] &= !(1 << (v % 64));
            x[v / 64] |= 1 << (v % 64);
        }
        Ok(())
    }
}

/// The maximal cliques (or, with `largest_only`, the first largest one in the same order) of
/// the graph on `0..m` whose adjacency rows are bitsets, each clique in vertex order, the list
/// sorted; fails once the search takes more than [`CLIQUE_STEPS`] steps or finds more than
/// [`MAX_SETS`] cliques.
fn cliques(adjacent: &[Vec<u64>], largest_only: bool) -> Result<Vec<Vec<usize>>, IocoSuiteError> {
    let m = adjacent.len();
    let words = m.div_ceil(64);
    let mut all = vec![0u64; words];
    for j in 0..m {
        all[j / 64] |= 1 << (j % 64);
    }
    let mut search = CliqueSearch {
        adjacent,
        steps: 0,
        largest_only,
        found: Vec::new(),
    };
    let what = if largest_only {
        "a largest"
    } else {
        "the maximal"
    };
    if search
        .expand(&mut Vec::new(), all, vec![0u64; words])
        .is_err()
    {
        let (what, budget) = if search.steps > CLIQUE_STEPS {
            (
                format!(
                    "the search for {what} sets of pairwise incompatible states takes more \
                     steps than that, which"
                ),
                CLIQUE_STEPS,
            )
        } else {
            (
                "the number of maximal sets of pairwise incompatible states".to_owned(),
                MAX_SETS,
            )
        };
        return Err(IocoSuiteError::Budget {
            what,
            budget: budget as u128,
            advice: "use --incompatible-sets largest or none".into(),
        });
    }
    let mut found = search.found;
    for c in &mut found {
        c.sort_unstable();
    }
    found.sort();
    Ok(found)
}

/// The sets of two or more pairwise incompatible reachable states that `choice` asks for, each
/// in state order, the family sorted (singletons are implicit).
pub(crate) fn incompatible_family(
    reachable: &[StateId],
    analysis: &PairAnalysis,
    choice: IncompatibleSets,
) -> Result<Vec<Vec<StateId>>, IocoSuiteError> {
    incompatible_family_of(reachable, |p, q| analysis.compatible(p, q), choice)
}

/// [`incompatible_family`] from the compatibility relation alone.
pub(crate) fn incompatible_family_of(
    reachable: &[StateId],
    compatible: impl Fn(StateId, StateId) -> bool,
    choice: IncompatibleSets,
) -> Result<Vec<Vec<StateId>>, IocoSuiteError> {
    if choice == IncompatibleSets::None {
        return Ok(Vec::new());
    }
    let m = reachable.len();
    let mut adjacent = vec![vec![0u64; m.div_ceil(64)]; m];
    for i in 0..m {
        for j in 0..m {
            if i != j && !compatible(reachable[i], reachable[j]) {
                adjacent[i][j / 64] |= 1 << (j % 64);
            }
        }
    }
    Ok(cliques(&adjacent, choice == IncompatibleSets::Largest)?
        .into_iter()
        .filter(|set| set.len() >= 2)
        .map(|set| set.into_iter().map(|k| reachable[k]).collect())
        .collect())
}

/// The plan of an `ioco-counting` suite with its family of sets.
pub(crate) struct CountingPlan {
    /// The root of the suite.
    pub(crate) root: Target,
    /// The sets of two or more states of `𝒜`.
    pub(crate) family: Vec<Vec<StateId>>,
    /// With counting relative to the cover: the states of the cover, and how many of them
    /// are behind an output choice.
    pub(crate) pinned: Option<(usize, usize)>,
}

/// Adds the plan of the `ioco-counting` suite of `sa` for bound `n` to `plan` (with
/// `relative_to_cover`: `ioco-cover-counting`, see the module doc).
pub(crate) fn counting_plan(
    plan: &mut Plan,
    sa: &SuspensionAutomaton,
    n: usize,
    choice: IncompatibleSets,
    max_plan_nodes: usize,
    relative_to_cover: bool,
    cap: TraceCap,
) -> Result<CountingPlan, IocoSuiteError> {
    build(
        plan,
        sa,
        n,
        choice,
        (max_plan_nodes, cap),
        true,
        relative_to_cover,
    )
}

/// The state cover of `ioco-cover-counting` (see the module doc): the forced cover, extended at
/// *branching* states, whose allowed outputs all lead to distinct states outside the cover so far
/// (all of them become tree edges).
pub(crate) struct PinningCover {
    /// Per state, the tree edge that reaches it (`None` for the initial state and for states
    /// outside the cover).
    pub(crate) parent: Vec<Option<(StateId, LabelId)>>,
    /// Per state, whether it is in the cover.
    pub(crate) in_cover: Vec<bool>,
    /// The states of the cover, each after its parent.
    order: Vec<StateId>,
    /// Per state, whether its outputs are tree edges as a branching.
    branching: Vec<bool>,
}

impl PinningCover {
    /// The cover of `sa`: breadth-first over the forced edges (labels in id order) until
    /// closed, then the first cover state (in the order found) that can branch branches, and
    /// so on until none can.
    pub(crate) fn compute(sa: &SuspensionAutomaton) -> Self {
        let n = sa.num_states();
        let mut cover = PinningCover {
            parent: vec![None; n],
            in_cover: vec![false; n],
            order: vec![sa.initial()],
            branching: vec![false; n],
        };
        cover.in_cover[sa.initial().index()] = true;
        let outputs = |q: StateId| {
            sa.enabled(q)
                .iter()
                .filter(|&&(l, _)| sa.alphabet.is_output(l))
                .copied()
                .collect::<Vec<_>>()
        };
        let (mut next, mut scan) = (0, 0);
        loop {
            // Forced edges from the states not yet expanded.
            while next < cover.order.len() {
                let q = cover.order[next];
                next += 1;
                let forced_output = outputs(q).len() == 1;
                for &(l, t) in sa.enabled(q) {
                    let forced = sa.alphabet.is_input(l) || forced_output;
                    if forced && !cover.in_cover[t.index()] {
                        cover.add(t, q, l);
                    }
                }
            }
            // The first state that can branch. A state reached by quiescence is left out: in
            // the classic domain its node may be quiet (no observation after it).
            let can_branch = |cover: &PinningCover, q: StateId| {
                let outs = outputs(q);
                let reached_by_quiescence =
                    cover.parent[q.index()].is_some_and(|(_, l)| l == sa.quiescence());
                outs.len() >= 2
                    && !reached_by_quiescence
                    && outs.iter().enumerate().all(|(k, &(_, t))| {
                        !cover.in_cover[t.index()] && outs[..k].iter().all(|&(_, u)| u != t)
                    })
            };
            while scan < cover.order.len() && !can_branch(&cover, cover.order[scan]) {
                scan += 1;
            }
            let Some(&q) = cover.order.get(scan) else {
                break;
            };
            scan += 1;
            cover.branching[q.index()] = true;
            for (l, t) in outputs(q) {
                cover.add(t, q, l);
            }
        }
        cover
    }

    fn add(&mut self, t: StateId, q: StateId, l: LabelId) {
        self.in_cover[t.index()] = true;
        self.parent[t.index()] = Some((q, l));
        self.order.push(t);
    }

    /// States of the cover behind a branching.
    pub(crate) fn behind_a_choice(&self) -> usize {
        self.order
            .iter()
            .filter(|t| {
                let mut at = **t;
                while let Some((q, _)) = self.parent[at.index()] {
                    if self.branching[q.index()] {
                        return true;
                    }
                    at = q;
                }
                false
            })
            .count()
    }

    /// `g(A)` of the module doc: the fewest states of `A` (`member`) whose access sequences
    /// an implementation that passes executes, whichever allowed outputs it shows at the
    /// branchings.
    pub(crate) fn guaranteed(&self, sa: &SuspensionAutomaton, member: &[bool]) -> usize {
        let mut g = vec![0usize; sa.num_states()];
        // Per branching state, the least of its output children (none seen yet: `None`).
        let mut least: Vec<Option<usize>> = vec![None; sa.num_states()];
        for &t in self.order.iter().rev() {
            let own = usize::from(member[t.index()]) + least[t.index()].unwrap_or(0);
            g[t.index()] += own;
            if let Some((q, l)) = self.parent[t.index()] {
                if self.branching[q.index()] && sa.alphabet.is_output(l) {
                    let m = least[q.index()].get_or_insert(g[t.index()]);
                    *m = if pins_as_most() {
                        (*m).max(g[t.index()])
                    } else {
                        (*m).min(g[t.index()])
                    };
                } else {
                    g[q.index()] += g[t.index()];
                }
            }
        }
        g[sa.initial().index()]
    }
}

/// [`counting_plan`]; `graphs_at_cuts = false` leaves out the graphs after the traces of
/// `B⁺ \ B` (incomplete: for the test that shows they are needed).
fn build(
    plan: &mut Plan,
    sa: &SuspensionAutomaton,
    n: usize,
    choice: IncompatibleSets,
    (max_plan_nodes, cap): (usize, TraceCap),
    graphs_at_cuts: bool,
    relative_to_cover: bool,
) -> Result<CountingPlan, IocoSuiteError> {
    let reachable = reachable_states(sa);
    let mut analysis = PairAnalysis::compute(sa)?;
    let family = incompatible_family(&reachable, &analysis, choice)?;
    // Constraints: the sets of the family, then the singletons of states in none of them.
    let mut constraints_of: Vec<Vec<usize>> = vec![Vec::new(); sa.num_states()];
    for (k, set) in family.iter().enumerate() {
        for s in set {
            constraints_of[s.index()].push(k);
        }
    }
    let mut constraints = family.len();
    for &s in &reachable {
        if constraints_of[s.index()].is_empty() {
            constraints_of[s.index()].push(constraints);
            constraints += 1;
        }
    }
    // The graphs after a trace reaching q: one per partner sharing a set, in state order.
    let mut graphs: Vec<Vec<PlanId>> = vec![Vec::new(); sa.num_states()];
    for &q in &reachable {
        for &r in &reachable {
            let shares = constraints_of[q.index()]
                .iter()
                .any(|k| constraints_of[r.index()].contains(k));
            if r != q
                && shares
                && let Target::Node(id) = analysis.graph(plan, q, r)
            {
                graphs[q.index()].push(id);
            }
        }
    }
    let pinning = PinningCover::compute(sa);
    let cover = relative_to_cover.then(|| {
        // Per constraint, the new visits allowed: n minus the states it surely pins.
        let mut member = vec![false; sa.num_states()];
        let limits: Vec<usize> = (0..constraints)
            .map(|k| {
                for &s in &reachable {
                    member[s.index()] = constraints_of[s.index()].contains(&k);
                }
                n.saturating_sub(pinning.guaranteed(sa, &member))
            })
            .collect();
        let in_cover = pinning.in_cover.iter().filter(|&&x| x).count();
        (limits, (in_cover, pinning.behind_a_choice()))
    });
    let traces = BoundedTraces {
        constraints_of: &constraints_of,
        constraints,
        graphs: &graphs,
        graphs_at_cuts,
        max_plan_nodes,
        suite: "ioco-counting suite",
        advice: "try a smaller n, or --incompatible-sets maximal (more sets end the traces sooner)",
        cover: cover.as_ref().map(|(limits, _)| Cover {
            parent: &pinning.parent,
            limits,
        }),
        cap,
    };
    Ok(CountingPlan {
        root: traces.plan(plan, sa, sa.initial(), n)?,
        family,
        pinned: cover.map(|(_, pinned)| pinned),
    })
}

/// A switch that weakens a construction one step too far, for the test that must catch it:
/// a thread-local `$switch` (tests only) and `$read()`, which reads it in tests and is `false`
/// in every build.
macro_rules! weakening_for_tests {
    ($(#[$doc:meta])* $switch:ident, $read:ident) => {
        #[cfg(test)]
        thread_local! {
            $(#[$doc])*
            pub(crate) static $switch: std::cell::Cell<bool> =
                const { std::cell::Cell::new(false) };
        }

        #[cfg(test)]
        fn $read() -> bool {
            $switch.with(|w| w.get())
        }

        #[cfg(not(test))]
        fn $read() -> bool {
            false
        }
    };
}

weakening_for_tests!(
    /// Tests only: rule 3 of `super::domain` one step too weak, applied to every quiescence
    /// (also where it leads to another state), for the test that must catch it.
    RULE_3_EVERYWHERE,
    rule_3_everywhere
);

weakening_for_tests!(
    /// Tests only: a cover cut one step too early, counting at a branching the output child
    /// that pins the most instead of the fewest, for the test that must catch it.
    PINS_AS_MOST,
    pins_as_most
);

/// Counting relative to the forced cover: the tree edges, and per constraint the new visits
/// allowed.
pub(crate) struct Cover<'a> {
    /// Per state, the tree edge into it.
    pub(crate) parent: &'a [Option<(StateId, LabelId)>],
    /// Per constraint, the most new visits of a bounded trace.
    pub(crate) limits: &'a [usize],
}

/// Traces bounded by visit sums per constraint (a set of states), each followed by the
/// observation of an output and by the graphs of the state it reaches; the traces one label past
/// the bound get only the graphs. The common core of `ioco-counting` and `U(S, n)` (one
/// singleton constraint per state, no graphs).
pub(crate) struct BoundedTraces<'a> {
    /// Per state, the constraints it counts towards.
    pub(crate) constraints_of: &'a [Vec<usize>],
    /// Number of constraints.
    pub(crate) constraints: usize,
    /// Per state, the experiments entered after a trace reaching it.
    pub(crate) graphs: &'a [Vec<PlanId>],
    /// Whether the traces one label past the bound run their graphs.
    pub(crate) graphs_at_cuts: bool,
    /// Most plan nodes for the traces.
    pub(crate) max_plan_nodes: usize,
    /// The suite's name in budget errors.
    pub(crate) suite: &'a str,
    /// What to do when the plan-node budget is exceeded.
    pub(crate) advice: &'a str,
    /// Count only the visits off the forced cover, each constraint up to its own limit
    /// (`ioco-cover-counting`); `None`: every visit, up to `n`.
    pub(crate) cover: Option<Cover<'a>>,
    /// `ioco-auto` only: where the plan stops because its suite cannot win or cannot fit.
    pub(crate) cap: TraceCap,
}

/// `ioco-auto` only: when a plan of bounded traces stops early, by lower bounds of its suite as
/// written (proof in `super::auto`): a trace node is a distinct trace executed by some test,
/// followed by a step into it (all nodes but the root), and, when it observes and its state
/// allows quiescence, by a wait of its own.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TraceCap {
    /// More trace nodes than this and the suite cannot win ([`IocoSuiteError::CannotWin`]).
    pub(crate) nodes: Option<usize>,
    /// `--max-seconds` and the timing: once the steps and waits the trace nodes give come to
    /// more estimated time than that, the suite is over the budget ([`IocoSuiteError::Budget`]).
    pub(crate) seconds: Option<(u128, Timing)>,
}

impl BoundedTraces<'_> {
    /// Adds the plan of the traces of `a` from `start` bounded by `n` to `plan`.
    pub(crate) fn plan(
        &self,
        plan: &mut Plan,
        a: &SuspensionAutomaton,
        start: StateId,
        n: usize,
    ) -> Result<Target, IocoSuiteError> {
        let suite = self.suite;
        let bound = u8::try_from(n).map_err(|_| IocoSuiteError::Budget {
            what: format!("n = {n} for the {suite}"),
            budget: u8::MAX as u128,
            advice: "try a smaller n".into(),
        })?;
        let (constraints_of, graphs) = (self.constraints_of, self.graphs);
        let mut cut: Vec<Option<Target>> = vec![None; a.num_states()];
        let mut cut_node = |plan: &mut Plan, t: StateId| -> Target {
            *cut[t.index()].get_or_insert_with(|| {
                if graphs[t.index()].is_empty() || !self.graphs_at_cuts {
                    Target::Verdict(Verdict::Pass)
                } else {
                    let enter = graphs[t.index()].iter().map(|&g| Move::Enter(g));
                    Target::Node(plan.push(enter.collect()))
                }
            })
        };
        // The visit sums of the nodes stay within MAX_SUMS_BYTES, whatever the plan-node budget.
        let max_nodes = self
            .max_plan_nodes
            .min(MAX_SUMS_BYTES / (self.constraints + 64))
            .max(1);
        // In the classic domain a node reached by quiescence into a state where quiescence
        // loops is quiet: it does not observe (see `super::domain`), and it is a node of its own.
        let (delta, classic) = (a.quiescence(), plan.classic);
        let quiet_after = |l, t| classic && l == delta && a.after(t, delta) == Some(t);
        // A node: state, visit sums, quiet, and whether its trace is the state's access
        // sequence in the forced cover (then the visit is not new).
        type Key = (StateId, Vec<u8>, bool, bool);
        let mut memo: HashMap<Key, PlanId> = HashMap::new();
        let mut work: Vec<(PlanId, Key)> = Vec::new();
        let mut sums0 = vec![0u8; self.constraints];
        if self.cover.is_none() {
            for &k in &constraints_of[start.index()] {
                sums0[k] = 1;
            }
        }
        let limit = |k: usize| {
            self.cover
                .as_ref()
                .map_or(bound, |c| c.limits[k].min(u8::MAX as usize) as u8)
        };
        let root = plan.reserve();
        let key0 = (start, sums0, false, self.cover.is_some());
        memo.insert(key0.clone(), root);
        work.push((root, key0));
        // Nodes that observe where quiescence is allowed (each a wait of its own).
        let mut waits = usize::from(a.after(start, delta).is_some());
        while let Some((id, (q, sums, quiet, on_cover))) = work.pop() {
            let mut branches = Vec::new();
            let mut moves = Vec::new();
            for &(l, t) in a.enabled(q) {
                if quiet && a.alphabet.is_output(l) {
                    continue;
                }
                // Quiescence looping on `q` itself ends a classic trace: its observation is
                // the last step (see `super::domain`, rule 3).
                if classic && l == delta && (t == q || rule_3_everywhere()) {
                    branches.push((l, Target::Verdict(Verdict::Pass)));
                    continue;
                }
                let quiet_t = quiet_after(l, t);
                let on_cover_t = on_cover
                    && self
                        .cover
                        .as_ref()
                        .is_some_and(|c| c.parent[t.index()] == Some((q, l)));
                let mut next = sums.clone();
                let mut bounded = true;
                if !on_cover_t {
                    for &k in &constraints_of[t.index()] {
                        if next[k] >= limit(k) {
                            bounded = false;
                            break;
                        }
                        next[k] += 1;
                    }
                }
                let target = if !bounded {
                    cut_node(plan, t)
                } else if let Some(&c) = memo.get(&(t, next.clone(), quiet_t, on_cover_t)) {
                    Target::Node(c)
                } else {
                    if self.cap.nodes.is_some_and(|cap| memo.len() >= cap) {
                        return Err(IocoSuiteError::CannotWin {
                            trace_nodes: memo.len(),
                        });
                    }
                    let waits_t = !quiet_t && a.after(t, delta).is_some();
                    waits += usize::from(waits_t);
                    if let Some((max_seconds, timing)) = self.cap.seconds {
                        // The new node makes memo.len() + 1 nodes: a step into each but the
                        // root, and the waits counted.
                        let millis = (memo.len() as u128)
                            .saturating_mul(timing.step_ms.into())
                            .saturating_add(
                                (waits as u128).saturating_mul(timing.quiescence_ms.into()),
                            );
                        if millis > max_seconds.saturating_mul(1000) {
                            return Err(IocoSuiteError::Budget {
                                what: format!(
                                    "at least {} estimated seconds (--max-seconds; a lower \
                                     bound counted while planning the {suite} for n = {n}: a \
                                     step into each of its first {} bounded traces but the \
                                     empty one, a wait after each of the {} of them \
                                     observed where quiescence is allowed), which",
                                    thousands(millis / 1000),
                                    thousands(memo.len() as u128 + 1),
                                    thousands(waits as u128),
                                ),
                                budget: max_seconds,
                                advice: "raise --max-seconds or try a smaller n".into(),
                            });
                        }
                    }
                    let limit = if memo.len() >= max_nodes {
                        Some(max_nodes)
                    } else {
                        // Every plan alive at once counts (the suite and its nested suites).
                        (plan.len() >= self.max_plan_nodes).then_some(self.max_plan_nodes)
                    };
                    if let Some(limit) = limit {
                        return Err(IocoSuiteError::Budget {
                            what: format!(
                                "the {suite} for n = {n} needs more plan nodes (each with visit \
                                 sums for {} sets) than that, which",
                                self.constraints
                            ),
                            budget: limit as u128,
                            advice: self.advice.into(),
                        });
                    }
                    let c = plan.reserve();
                    let key = (t, next, quiet_t, on_cover_t);
                    memo.insert(key.clone(), c);
                    work.push((c, key));
                    Target::Node(c)
                };
                if a.alphabet.is_output(l) {
                    branches.push((l, target));
                } else if matches!(target, Target::Node(_)) {
                    moves.push(Move::Send {
                        input: l,
                        then: target,
                    });
                }
            }
            if !quiet {
                moves.insert(
                    0,
                    Move::Observe {
                        branches,
                        otherwise: Verdict::Pass,
                    },
                );
            }
            moves.extend(graphs[q.index()].iter().map(|&g| Move::Enter(g)));
            plan.set(id, moves);
        }
        Ok(Target::Node(root))
    }
}

/// The guarantee text and the header field of an `ioco-counting` suite.
pub(crate) fn describe(
    sa: &SuspensionAutomaton,
    n: usize,
    choice: IncompatibleSets,
    family: &[Vec<StateId>],
    pinned: Option<(usize, usize)>,
) -> (String, Value) {
    const SHOWN: usize = 8;
    let mut listed: Vec<String> = family.iter().take(SHOWN).map(|s| names(sa, s)).collect();
    if family.len() > SHOWN {
        listed.push(format!("and {} more", family.len() - SHOWN));
    }
    let sets = match (choice, family.len()) {
        (IncompatibleSets::None, _) => {
            "single states only, which is the unconditional suite U(S, n)".to_owned()
        }
        (_, 0) => "single states only (no two states are incompatible), which is the \
                   unconditional suite U(S, n)"
            .to_owned(),
        (IncompatibleSets::Largest, _) => format!(
            "the largest set of pairwise incompatible states {} and single states",
            listed.join(", ")
        ),
        (IncompatibleSets::Maximal, k) => format!(
            "the {k} maximal sets of pairwise incompatible states {} and single states",
            listed.join(", ")
        ),
    };
    let relative = match pinned {
        Some((p, 0)) => format!(
            ", visits along the forced state cover not counted and each set's bound lowered by \
             the states of it the cover pins ({p} states pinned)"
        ),
        Some((p, b)) => format!(
            ", visits along the state cover not counted and each set's bound lowered by the \
             states of it the cover pins whichever allowed outputs the implementation shows \
             ({p} states in the cover, {b} of them behind a choice of outputs)"
        ),
        None => String::new(),
    };
    let guarantee = format!(
        "complete for every implementation with at most {n} specified states (state counting \
         over {sets}{relative}, with the distinguishing graphs of the pairs in a common set after \
         every bounded trace and one label more; van den Bos Lemma 2.42 and Thm. 2.40)"
    );
    let field = json!({
        "relative_to_cover": pinned.is_some(),
        "choice": choice.name(),
        "sets": family
            .iter()
            .map(|s| s.iter().map(|&q| sa.state_name(q)).collect::<Vec<_>>())
            .collect::<Vec<_>>(),
    });
    (guarantee, field)
}

#[cfg(test)]
mod tests {
    use super::super::plan::LabelMap;
    use super::super::testkit::*;
    use super::super::{Bound, Budget, IocoMethod, generate, suite_model};
    use super::*;
    use crate::model::suspension_from_marked;
    use crate::suite::TestCase;

    const MAXIMAL: IocoMethod = IocoMethod::Counting(IncompatibleSets::Maximal);
    const LARGEST: IocoMethod = IocoMethod::Counting(IncompatibleSets::Largest);
    const NONE: IocoMethod = IocoMethod::Counting(IncompatibleSets::None);

    fn budget() -> Budget {
        Budget {
            max_tests: 20_000,
            ..Budget::default()
        }
    }

    /// The tests of `method` for bound `n`, or `None` past the budget.
    fn tests_of(spec: &SuspensionAutomaton, method: IocoMethod, n: usize) -> Option<Vec<TestCase>> {
        match generate(spec, method, Bound::States(n), budget()) {
            Ok(suite) => Some(suite.tests().collect()),
            Err(IocoSuiteError::Budget { .. } | IocoSuiteError::Refused(_)) => None,
            Err(e) => panic!("{e}"),
        }
    }

    /// The tests of a plan as built, before the normal form and the repeat filter that
    /// `generate` applies to T(S, n); `None` above 20,000 tests.
    fn plan_tests(
        spec: &SuspensionAutomaton,
        plan: &mut Plan,
        root: Target,
    ) -> Option<Vec<TestCase>> {
        plan.finish();
        let count = plan.count(root);
        let labels = LabelMap::new(spec);
        (count <= 20_000).then(|| {
            (0..count)
                .map(|k| plan.build_test(spec, &labels, root, spec.initial(), k, format!("t{k}")))
                .collect()
        })
    }

    /// T(S, n) of Def. 2.37 as planned.
    fn t_as_planned(spec: &SuspensionAutomaton, n: usize) -> Option<Vec<TestCase>> {
        let mut plan = Plan::default();
        let root = super::super::distinguishing::CompleteBuilder::new(spec, n, budget())
            .build(&mut plan)
            .ok()?;
        plan_tests(spec, &mut plan, root)
    }

    /// `ioco-counting` as planned.
    fn counting_as_planned(
        spec: &SuspensionAutomaton,
        choice: IncompatibleSets,
        n: usize,
    ) -> Option<Vec<TestCase>> {
        let mut plan = Plan::default();
        let c = build(
            &mut plan,
            spec,
            n,
            choice,
            (budget().max_plan_nodes, TraceCap::default()),
            true,
            false,
        )
        .ok()?;
        plan_tests(spec, &mut plan, c.root)
    }

    fn random_specs(count: u64, seed: u64, outputs: usize) -> Vec<SuspensionAutomaton> {
        (0..count)
            .map(|k| {
                let mut rng = Rng::new(seed + k);
                let states = 2 + rng.below(4);
                random_sa(&mut rng, states, 2, outputs)
            })
            .collect()
    }

    fn all_pairs_incompatible(spec: &SuspensionAutomaton) -> bool {
        let pairs = PairAnalysis::compute(spec).unwrap();
        let reach = reachable_states(spec);
        reach
            .iter()
            .all(|&p| reach.iter().all(|&q| p == q || !pairs.compatible(p, q)))
    }

    #[test]
    fn without_sets_it_is_exactly_the_unconditional_suite() {
        let mut specs = vec![fig_2_1(), fig_2_8(), fig_2_9()];
        specs.extend(random_specs(40, 300, 2));
        let mut compared = 0;
        for spec in &specs {
            for n in 1..=3 {
                let u = tests_of(spec, IocoMethod::Unconditional, n);
                let c = tests_of(spec, NONE, n);
                assert_eq!(u.is_some(), c.is_some(), "{spec:?} n = {n}");
                if let (Some(u), Some(c)) = (u, c) {
                    assert_eq!(u, c, "{spec:?} n = {n}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 100, "{compared}");
    }

    #[test]
    fn without_compatible_pairs_the_maximal_and_largest_sets_give_exactly_t() {
        let mut specs = vec![fig_2_8()];
        specs.extend(random_specs(120, 500, 3));
        specs.retain(all_pairs_incompatible);
        assert!(specs.len() > 20, "{}", specs.len());
        let mut compared = 0;
        for spec in &specs {
            let pairs = PairAnalysis::compute(spec).unwrap();
            let reach = reachable_states(spec);
            let family = incompatible_family(&reach, &pairs, IncompatibleSets::Maximal).unwrap();
            assert_eq!(family, vec![reach.clone()]);
            for n in 1..=3 {
                let t = t_as_planned(spec, n);
                for choice in [IncompatibleSets::Maximal, IncompatibleSets::Largest] {
                    let c = counting_as_planned(spec, choice, n);
                    assert_eq!(t.is_some(), c.is_some(), "{spec:?} n = {n}");
                    if let (Some(t), Some(c)) = (&t, c) {
                        assert_eq!(t, &c, "{spec:?} n = {n}");
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 60, "{compared}");
    }

    /// The tests of the suite without the graphs after the cut points `B⁺ \ B`.
    fn tests_without_cut_graphs(
        spec: &SuspensionAutomaton,
        choice: IncompatibleSets,
        n: usize,
    ) -> Vec<TestCase> {
        let mut plan = Plan::default();
        let c = build(
            &mut plan,
            spec,
            n,
            choice,
            (100_000, TraceCap::default()),
            false,
            false,
        )
        .unwrap();
        plan.finish();
        let labels = LabelMap::new(spec);
        (0..plan.count(c.root))
            .map(|k| plan.build_test(spec, &labels, c.root, spec.initial(), k, format!("t{k}")))
            .collect()
    }

    /// Found by a search over random specifications and mutants: states 1 ◇ 2 are the only
    /// compatible pair, so the maximal sets are {0,1,3} and {0,2,3}. The fault is the
    /// counterexample `a a x δ` (prefix states 0, 3, 2, 2): for n = 2 the set {0,2,3} is
    /// exceeded at `a a`, and the two-state implementation is in the same state after `a` (state
    /// 3) and after `a a` (state 2). Only the graph of {2, 3} after the cut point `a a` tells them
    /// apart.
    #[test]
    fn the_graphs_after_the_cut_points_are_needed() {
        let spec = suspension_from_marked(
            "cut",
            4,
            &[
                (0, "?a", 3),
                (0, "delta", 3),
                (1, "!x", 2),
                (1, "!y", 2),
                (2, "?a", 1),
                (2, "!x", 2),
                (2, "!y", 2),
                (3, "?a", 2),
                (3, "!x", 0),
            ],
        )
        .unwrap();
        let imp = suspension_from_marked(
            "cut-imp",
            2,
            &[(0, "?a", 1), (0, "delta", 1), (1, "?a", 1), (1, "!x", 0)],
        )
        .unwrap();
        let imp = with_alphabet(&imp, &spec);
        assert!(!ioco(&imp, &spec));
        assert_eq!(specified_states(&imp, &spec), 2);
        let pairs = PairAnalysis::compute(&spec).unwrap();
        let reach = reachable_states(&spec);
        let family = incompatible_family(&reach, &pairs, IncompatibleSets::Maximal).unwrap();
        let ids = |f: &[Vec<StateId>]| -> Vec<Vec<u32>> {
            f.iter().map(|s| s.iter().map(|q| q.0).collect()).collect()
        };
        assert_eq!(ids(&family), vec![vec![0, 1, 3], vec![0, 2, 3]]);
        let model = suite_model(&spec);
        let full = tests_of(&spec, MAXIMAL, 2).unwrap();
        assert!(suite_can_fail(&full, &model, &imp));
        let without = tests_without_cut_graphs(&spec, IncompatibleSets::Maximal, 2);
        assert!(!suite_can_fail(&without, &model, &imp));
        // With the largest set {0,1,3} the graphs after the cut points are not needed here.
        assert!(suite_can_fail(
            &tests_of(&spec, LARGEST, 2).unwrap(),
            &model,
            &imp
        ));
    }

    #[test]
    fn every_variant_is_sound_and_complete_on_random_specifications() {
        let mut checked = [0usize; 3];
        let mut faulty = [0usize; 3];
        let mut with_compatible = 0;
        for seed in 0..220u64 {
            let mut rng = Rng::new(7000 + seed);
            let states = 2 + rng.below(4);
            let inputs = 1 + rng.below(2);
            let outputs = 1 + rng.below(2);
            let spec = random_sa(&mut rng, states, inputs, outputs);
            if !all_pairs_incompatible(&spec) {
                with_compatible += 1;
            }
            let model = suite_model(&spec);
            for (k, choice) in [
                IncompatibleSets::Maximal,
                IncompatibleSets::Largest,
                IncompatibleSets::None,
            ]
            .into_iter()
            .enumerate()
            {
                let mut suites: HashMap<usize, Option<Vec<TestCase>>> = HashMap::new();
                for _ in 0..60 {
                    let faults = rng.below(3);
                    let imp = mutant(&mut rng, &spec, faults);
                    let n = specified_states(&imp, &spec);
                    if n > 3 {
                        continue;
                    }
                    let suite = suites.entry(n).or_insert_with(|| {
                        let budget = Budget {
                            max_tests: 3000,
                            ..Budget::default()
                        };
                        let method = IocoMethod::Counting(choice);
                        generate(&spec, method, Bound::States(n), budget)
                            .ok()
                            .map(|s| s.tests().collect())
                    });
                    let Some(tests) = suite else { continue };
                    let conforms = ioco(&imp, &spec);
                    let fails = suite_can_fail(tests.iter(), &model, &imp);
                    assert!(
                        !(conforms && fails),
                        "seed {seed} {choice:?}: unsound on {imp:?}"
                    );
                    assert!(
                        conforms || fails,
                        "seed {seed} {choice:?} n = {n}: incomplete on {imp:?}\n{spec:?}"
                    );
                    checked[k] += 1;
                    faulty[k] += usize::from(!conforms);
                }
            }
        }
        assert!(with_compatible > 50, "{with_compatible}");
        for k in 0..3 {
            assert!(
                checked[k] > 3000 && faulty[k] > 1000,
                "{checked:?} {faulty:?}"
            );
        }
    }

    /// Every maximal clique of a graph on `0..m`, by enumerating subsets.
    fn brute_force_cliques(adjacent: &[Vec<u64>]) -> Vec<Vec<usize>> {
        let m = adjacent.len();
        let edge = |u: usize, v: usize| adjacent[u][v / 64] >> (v % 64) & 1 == 1;
        let mut out = Vec::new();
        for mask in 1u32..(1 << m) {
            let set: Vec<usize> = (0..m).filter(|&v| mask >> v & 1 == 1).collect();
            let clique = set
                .iter()
                .all(|&u| set.iter().all(|&v| u == v || edge(u, v)));
            let maximal = (0..m)
                .filter(|v| !set.contains(v))
                .all(|v| !set.iter().all(|&u| edge(u, v)));
            if clique && maximal {
                out.push(set);
            }
        }
        out.sort();
        out
    }

    #[test]
    fn clique_search_matches_brute_force() {
        let mut rng = Rng::new(42);
        for _ in 0..300 {
            let m = 1 + rng.below(9);
            let density = 20 + rng.below(70) as u64;
            let mut adjacent = vec![vec![0u64; 1]; m];
            for u in 0..m {
                for v in u + 1..m {
                    if rng.chance(density) {
                        adjacent[u][0] |= 1 << v;
                        adjacent[v][0] |= 1 << u;
                    }
                }
            }
            let expected = brute_force_cliques(&adjacent);
            assert_eq!(cliques(&adjacent, false).unwrap(), expected);
            let largest = cliques(&adjacent, true).unwrap();
            let most = expected.iter().map(Vec::len).max().unwrap();
            assert_eq!(largest.len(), 1);
            assert_eq!(largest[0].len(), most);
            assert!(expected.contains(&largest[0]));
        }
    }

    #[test]
    fn too_many_maximal_sets_fail_cleanly_with_advice() {
        // All pairs adjacent except a perfect matching of 13 pairs: 2^13 maximal cliques.
        let m = 26;
        let adjacent: Vec<Vec<u64>> = (0..m)
            .map(|u| vec![((1u64 << m) - 1) & !(1 << u) & !(1 << (u ^ 1))])
            .collect();
        let err = cliques(&adjacent, false).unwrap_err();
        assert!(
            err.to_string()
                .contains("use --incompatible-sets largest or none"),
            "{err}"
        );
        let largest = cliques(&adjacent, true).unwrap();
        assert_eq!(largest[0], (0..m).step_by(2).collect::<Vec<_>>());
    }

    #[test]
    fn the_header_names_the_method_and_the_sets() {
        let spec = fig_2_1();
        // Thesis states 2 ◇ 3 and 4 ◇ 5 (ids 1, 2 and 3, 4): four maximal sets.
        let name = |ids: &[u32]| -> Vec<String> {
            ids.iter()
                .map(|&q| spec.state_name(StateId(q)).to_owned())
                .collect()
        };
        for (choice, sets) in [
            (
                IncompatibleSets::Maximal,
                vec![
                    name(&[0, 1, 3, 5]),
                    name(&[0, 1, 4, 5]),
                    name(&[0, 2, 3, 5]),
                    name(&[0, 2, 4, 5]),
                ],
            ),
            (IncompatibleSets::Largest, vec![name(&[0, 1, 3, 5])]),
            (IncompatibleSets::None, vec![]),
        ] {
            let suite = generate(
                &spec,
                IocoMethod::Counting(choice),
                Bound::States(2),
                Budget::default(),
            )
            .unwrap();
            let text = String::from_utf8(suite.write_json(Vec::new()).unwrap()).unwrap();
            let (header, tests) = crate::suite::read_suite(&text).unwrap();
            assert_eq!(header.method, "ioco-counting");
            assert_eq!(tests.len() as u128, suite.num_tests());
            let field = &header.extra["incompatible_sets"];
            assert_eq!(field["choice"], choice.name());
            assert_eq!(field["sets"], serde_json::json!(sets));
            let g = &header.guarantee;
            assert!(
                g.starts_with("complete for every implementation with at most 2"),
                "{g}"
            );
            match choice {
                IncompatibleSets::Maximal => assert!(g.contains("the 4 maximal sets"), "{g}"),
                IncompatibleSets::Largest => assert!(g.contains("the largest set"), "{g}"),
                IncompatibleSets::None => assert!(g.contains("U(S, n)"), "{g}"),
            }
            let model = suite_model(&spec);
            for t in &tests {
                t.validate(model.inputs.len(), model.num_output_ids())
                    .unwrap();
            }
        }
        assert_eq!("largest".parse(), Ok(IncompatibleSets::Largest));
        assert!("all".parse::<IncompatibleSets>().is_err());
    }

    /// The pins behind a choice of outputs (`PinningCover::guaranteed`): on specifications
    /// with a branching state, the cover-counting suites for n = 2 judge every two-state
    /// implementation exactly, while the same suites cut one step too early (counting at a
    /// branching the output child that pins the most, `PINS_AS_MOST`) pass a non-conforming one
    /// on some specification: the adversary reaches the new choice.
    #[test]
    fn a_cover_that_counts_the_best_output_choice_is_caught() {
        let (mut specs, mut caught) = (0, 0);
        for seed in 0..3000u64 {
            if specs == 40 {
                break;
            }
            let mut rng = Rng::new(4300 + seed);
            let states = 3 + rng.below(2);
            let spec = random_sa(&mut rng, states, 1, 2);
            let reach = reachable_states(&spec);
            let pairs = PairAnalysis::compute(&spec).unwrap();
            let family = incompatible_family(&reach, &pairs, IncompatibleSets::Maximal).unwrap();
            let cover = PinningCover::compute(&spec);
            let member: Vec<bool> = spec.states().map(|s| reach.contains(&s)).collect();
            let over = {
                PINS_AS_MOST.with(|w| w.set(true));
                let g = cover.guaranteed(&spec, &member);
                PINS_AS_MOST.with(|w| w.set(false));
                g
            };
            if family.is_empty() || over == cover.guaranteed(&spec, &member) {
                continue;
            }
            specs += 1;
            let model = suite_model(&spec);
            let imps = all_implementations(&spec, 2);
            for sets in [IncompatibleSets::Maximal, IncompatibleSets::Largest] {
                let method = IocoMethod::CoverCounting(sets);
                let two = tests_of(&spec, method, 2).unwrap();
                PINS_AS_MOST.with(|w| w.set(true));
                let over_cut = tests_of(&spec, method, 2).unwrap();
                PINS_AS_MOST.with(|w| w.set(false));
                let mut missed = false;
                for imp in &imps {
                    let conforms = ioco(imp, &spec);
                    let fails = suite_can_fail(&two, &model, imp);
                    assert_eq!(
                        fails, !conforms,
                        "seed {seed} {method:?}: {imp:?}\n{spec:?}"
                    );
                    missed |= !conforms && !suite_can_fail(&over_cut, &model, imp);
                }
                caught += usize::from(missed);
            }
        }
        assert!(
            specs >= 10,
            "only {specs} specifications with a branching that pins"
        );
        assert!(
            caught >= 1,
            "the over-cut suites were never beaten on {specs} specifications"
        );
    }

    /// Every input-enabled suspension automaton with `states` states over `spec`'s alphabet
    /// (each state: a target per input, and per output none or a target, some output present).
    fn all_implementations(spec: &SuspensionAutomaton, states: usize) -> Vec<SuspensionAutomaton> {
        let a = &spec.alphabet;
        let inputs: Vec<usize> = a.inputs().map(|l| l.index()).collect();
        let outputs: Vec<usize> = a.outputs().map(|l| l.index()).collect();
        let mut rows: Vec<Vec<Option<u32>>> = Vec::new();
        let per_state = states.pow(inputs.len() as u32) * (states + 1).pow(outputs.len() as u32);
        for mut code in 0..per_state {
            let mut row = vec![None; a.len()];
            for &l in &inputs {
                row[l] = Some((code % states) as u32);
                code /= states;
            }
            for &l in &outputs {
                row[l] = (code % (states + 1)).checked_sub(1).map(|t| t as u32);
                code /= states + 1;
            }
            if outputs.iter().any(|&l| row[l].is_some()) {
                rows.push(row);
            }
        }
        let mut out = Vec::new();
        let mut pick = vec![0usize; states];
        loop {
            let table = Table {
                alphabet: a.clone(),
                edges: pick.iter().map(|&k| rows[k].clone()).collect(),
            };
            out.push(table.build("imp"));
            let Some(k) = (0..states).find(|&k| pick[k] + 1 < rows.len()) else {
                return out;
            };
            pick[k] += 1;
            pick[..k].fill(0);
        }
    }

    /// Exhaustive evidence: on specifications with three or four states, some compatible and
    /// some incompatible pairs, the suites for n = 2 (counting over all visits, and relative to
    /// the forced cover) fail every non-conforming implementation
    /// with two states (all 2,704 of them with one input and two outputs, 10,816 with two inputs)
    /// and no conforming one, while the suites for n = 1 miss some on most specifications (so the
    /// check tells the bounds apart).
    #[test]
    fn every_two_state_implementation_is_judged_exactly() {
        for (inputs, wanted, implementations) in [(1, 30, 52 * 52), (2, 8, 104 * 104)] {
            let mut specs = 0;
            let mut n1_misses = 0;
            let mut faulty = 0;
            let mut judged = 0;
            for seed in 0..400u64 {
                if specs == wanted {
                    break;
                }
                let mut rng = Rng::new(9000 + seed);
                let states = 3 + rng.below(2);
                let spec = random_sa(&mut rng, states, inputs, 2);
                let pairs = PairAnalysis::compute(&spec).unwrap();
                let reach = reachable_states(&spec);
                let family =
                    incompatible_family(&reach, &pairs, IncompatibleSets::Maximal).unwrap();
                if all_pairs_incompatible(&spec) || family.is_empty() {
                    continue;
                }
                specs += 1;
                let model = suite_model(&spec);
                let imps = all_implementations(&spec, 2);
                assert_eq!(imps.len(), implementations);
                let mut missed = false;
                for method in [
                    MAXIMAL,
                    LARGEST,
                    IocoMethod::CoverCounting(IncompatibleSets::Maximal),
                    IocoMethod::CoverCounting(IncompatibleSets::Largest),
                ] {
                    let two = tests_of(&spec, method, 2).unwrap();
                    let one = tests_of(&spec, method, 1).unwrap();
                    for imp in &imps {
                        let conforms = ioco(imp, &spec);
                        let fails = suite_can_fail(&two, &model, imp);
                        assert_eq!(
                            fails, !conforms,
                            "seed {seed} {method:?}: {imp:?}\n{spec:?}"
                        );
                        judged += 1;
                        faulty += usize::from(!conforms);
                        missed |= !conforms && !suite_can_fail(&one, &model, imp);
                    }
                }
                n1_misses += usize::from(missed);
            }
            assert_eq!(specs, wanted);
            assert!(n1_misses * 3 >= specs * 2, "{n1_misses} of {specs}");
            // Conforming implementations are judged too.
            assert!(
                faulty > judged / 2 && faulty < judged,
                "{faulty} of {judged}"
            );
        }
    }
}
