//! Compatibility of states (van den Bos Def. 2.15 / Def. 3.8): two states are compatible when
//! some implementation state can conform to both.
//!
//! By Lemma 3.10, `q ⋈ r` iff `(q, r)` is a valid state of the synchronous self-composition
//! `S‖S` (Def. 3.9). We run Algorithm 2 (the attractor of the tester, with `strategy` and `rank`)
//! on `S‖S` without building it: the transitions of a pair are the common labels of its
//! components, and the predecessors of a pair under `µ` are the products of the components'
//! `µ`-predecessors. Only unordered pairs `q < r` are stored (the relation is symmetric and
//! reflexive), four bytes each, so `n = 10,000` states take 200 MB; besides, each state keeps the
//! shorter of its compatible and incompatible partner lists ([`Neighbours`]), at most `n/2`
//! entries per state.
//!
//! The attractor is computed level by level: while levels are large (typically the first few,
//! which hold most pairs), every remaining pair checks in parallel whether one move wins into the
//! previous levels; then the classical work list of Algorithm 2 with output counters continues
//! from the last level, breadth-first. Either way `rank` is the attractor level, which equals the
//! iteration of Algorithm 1 in which the pair is found incompatible. From the ranks we derive, per
//! pair, a winning move (Lemma 3.7): an input whose successors have lower rank, or waiting for
//! outputs when all common outputs lead to pairs of lower rank. [`Preference`] chooses when both
//! moves win, which is the option of Algorithm 1 to prefer inputs or outputs.

use crate::model::{LabelId, StateId, SuspensionAutomaton};
use rayon::prelude::*;
use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

const INVALID: u32 = 1 << 31;
const COMPATIBLE: u32 = u32::MAX;
/// Sets at least this large are checked for pairwise compatibility in parallel.
const PARALLEL_SET: usize = 1024;

/// Default largest number of unordered state pairs [`Compatibility::compute_within`] stores, at
/// four bytes each (2 GiB; about 32,800 states).
pub const DEFAULT_PAIR_BUDGET: usize = 1 << 29;

/// The pair table of a suspension automaton would outgrow its budget.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the compatibility relation of {states} states needs {pairs} state pairs at 4 bytes each, \
     over the budget of {budget} pairs"
)]
pub struct PairBudgetExceeded {
    /// States of the automaton.
    pub states: usize,
    /// Unordered pairs of distinct states.
    pub pairs: usize,
    /// The limit.
    pub budget: usize,
}

/// Which move to take from an incompatible pair when both an input and waiting for outputs
/// distinguish it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Preference {
    /// Wait for outputs first (Algorithm 1, line 10 before line 20): no race with the system.
    #[default]
    Outputs,
    /// Apply an input first (useful when waiting for quiescence is slow).
    Inputs,
}

/// A winning move of the tester from an incompatible pair (Lemma 3.7).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Apply this input; both states enable it and the successors are incompatible with a lower
    /// rank.
    Input(LabelId),
    /// Wait for an output: every common output leads to an incompatible pair of lower rank, every
    /// other output reveals one of the two states.
    Outputs,
}

/// The compatibility relation of a suspension automaton with, for every incompatible pair, the
/// rank (number of moves the tester needs to win) computed by Algorithm 2 on `S‖S`.
#[derive(Clone, Debug)]
pub struct Compatibility {
    n: usize,
    /// Per unordered pair `q < r` at `r(r-1)/2 + q`: [`COMPATIBLE`] or the rank.
    slots: Vec<u32>,
    /// Number of compatible partners of every state (distinct states only).
    degree: Vec<u32>,
    /// Per state, the shorter of its compatible and its incompatible partners (sorted, distinct
    /// states only), CSR; `dense[q]` says which (so `n = 13,000` with most pairs compatible
    /// keeps the lists small).
    list_offsets: Vec<u64>,
    lists: Vec<StateId>,
    dense: Vec<bool>,
}

/// The partners [`Compatibility::neighbours`] lists for a state.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Neighbours<'a> {
    /// Exactly these states (sorted) are compatible with it.
    Compatible(&'a [StateId]),
    /// All other states but these (sorted) are compatible with it.
    Incompatible(&'a [StateId]),
}

/// Position of the unordered pair `q < r` in a table of all pairs, row `r` after row `r - 1`.
#[inline]
pub(crate) fn pair_index(q: usize, r: usize) -> usize {
    debug_assert!(q < r);
    r * (r - 1) / 2 + q
}

/// Incoming transitions grouped by target, sorted by label then source.
pub(crate) struct Incoming {
    offsets: Vec<u32>,
    edges: Vec<(LabelId, StateId)>,
}

impl Incoming {
    pub(crate) fn new(sa: &SuspensionAutomaton) -> Self {
        let n = sa.num_states();
        let mut count = vec![0u32; n + 1];
        for (_, _, t) in sa.triples() {
            count[t.index() + 1] += 1;
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let offsets = count.clone();
        let mut fill = count;
        let mut edges = vec![(LabelId(0), StateId(0)); sa.num_transitions()];
        for (s, l, t) in sa.triples() {
            edges[fill[t.index()] as usize] = (l, s);
            fill[t.index()] += 1;
        }
        for t in 0..n {
            edges[offsets[t] as usize..offsets[t + 1] as usize].sort_unstable();
        }
        Incoming { offsets, edges }
    }

    #[inline]
    pub(crate) fn of(&self, t: StateId) -> &[(LabelId, StateId)] {
        &self.edges[self.offsets[t.index()] as usize..self.offsets[t.index() + 1] as usize]
    }
}

/// Number of labels two sorted enabled lists share, restricted to outputs.
fn common_outputs(
    sa: &SuspensionAutomaton,
    a: &[(LabelId, StateId)],
    b: &[(LabelId, StateId)],
) -> u32 {
    let (mut i, mut j, mut c) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                if sa.alphabet.is_output(a[i].0) {
                    c += 1;
                }
                i += 1;
                j += 1;
            }
        }
    }
    c
}

impl Compatibility {
    /// Computes compatibility of all state pairs: `S‖S` and Algorithm 2, in time
    /// `O(m·n)` for `n` states and `m` transitions, with the initial counting of common outputs
    /// spread over threads.
    pub fn compute(sa: &SuspensionAutomaton) -> Compatibility {
        Self::compute_switching(sa, sa.num_states().max(64), 64)
    }

    /// [`Compatibility::compute`] unless `sa` has more than `max_pairs` unordered pairs of
    /// states, in which case nothing is allocated.
    pub fn compute_within(
        sa: &SuspensionAutomaton,
        max_pairs: usize,
    ) -> Result<Compatibility, PairBudgetExceeded> {
        let n = sa.num_states();
        let pairs = n * n.saturating_sub(1) / 2;
        if pairs > max_pairs {
            return Err(PairBudgetExceeded {
                states: n,
                pairs,
                budget: max_pairs,
            });
        }
        Ok(Self::compute(sa))
    }

    /// [`Compatibility::compute`] pulling levels in parallel until a level has fewer than
    /// `min_level` pairs or `max_pull_levels` levels are done, then pushing with a work list.
    fn compute_switching(
        sa: &SuspensionAutomaton,
        min_level: usize,
        max_pull_levels: u32,
    ) -> Compatibility {
        let n = sa.num_states();
        let len = n * n.saturating_sub(1) / 2;
        let slots: Vec<AtomicU32> = (0..len)
            .into_par_iter()
            .map(|_| AtomicU32::new(0))
            .collect();
        let load = |k: usize| slots[k].load(Relaxed);
        // Level 0: blocking pairs (no common output). Rows r = 1..n are contiguous.
        (1..n).into_par_iter().for_each(|r| {
            let er = sa.enabled(StateId(r as u32));
            let base = r * (r - 1) / 2;
            for q in 0..r {
                let c = common_outputs(sa, sa.enabled(StateId(q as u32)), er);
                slots[base + q].store(if c == 0 { INVALID } else { c }, Relaxed);
            }
        });
        // Whether the successors of (x, y) under a label are invalid with rank <= level.
        let invalid_by = |x: StateId, y: StateId, level: u32| {
            if x == y {
                return false;
            }
            let (a, b) = if x < y { (x, y) } else { (y, x) };
            let s = load(pair_index(a.index(), b.index()));
            s & INVALID != 0 && s & !INVALID <= level
        };
        // Whether the tester wins from valid (q, r) in one move into pairs of rank <= level.
        let wins = |q: usize, r: usize, level: u32| {
            let (eq, er) = (sa.enabled(StateId(q as u32)), sa.enabled(StateId(r as u32)));
            let (mut i, mut j) = (0, 0);
            let mut outputs_lost = true;
            while i < eq.len() && j < er.len() {
                match eq[i].0.cmp(&er[j].0) {
                    std::cmp::Ordering::Less => i += 1,
                    std::cmp::Ordering::Greater => j += 1,
                    std::cmp::Ordering::Equal => {
                        let bad = invalid_by(eq[i].1, er[j].1, level);
                        if sa.alphabet.is_input(eq[i].0) {
                            if bad {
                                return true;
                            }
                        } else if !bad {
                            outputs_lost = false;
                        }
                        i += 1;
                        j += 1;
                    }
                }
            }
            outputs_lost
        };
        // Breadth-first levels, first pulled in parallel over all remaining pairs while levels
        // are large, then pushed from the last level with a work list (Algorithm 2 proper).
        let mut level = 0u32;
        let mut done = false;
        loop {
            let newly: usize = (1..n)
                .into_par_iter()
                .map(|r| {
                    let base = r * (r - 1) / 2;
                    let mut count = 0;
                    for q in 0..r {
                        if load(base + q) & INVALID == 0 && wins(q, r, level) {
                            slots[base + q].store(INVALID | (level + 1), Relaxed);
                            count += 1;
                        }
                    }
                    count
                })
                .sum();
            level += 1;
            if newly == 0 {
                done = true;
                break;
            }
            if newly < min_level || level >= max_pull_levels {
                break;
            }
        }
        if !done {
            // Counts of common outputs into pairs not yet processed (valid or of the last level).
            (1..n).into_par_iter().for_each(|r| {
                let base = r * (r - 1) / 2;
                let er = sa.enabled(StateId(r as u32));
                for q in 0..r {
                    if load(base + q) & INVALID != 0 {
                        continue;
                    }
                    let eq = sa.enabled(StateId(q as u32));
                    let c = eq
                        .iter()
                        .filter(|(l, _)| sa.alphabet.is_output(*l))
                        .filter(|&&(l, t)| {
                            er.binary_search_by_key(&l, |e| e.0)
                                .is_ok_and(|k| !invalid_by(t, er[k].1, level - 1))
                        })
                        .count() as u32;
                    slots[base + q].store(c, Relaxed);
                }
            });
            let mut queue: Vec<(u32, u32)> = (1..n)
                .into_par_iter()
                .flat_map_iter(|r| {
                    let base = r * (r - 1) / 2;
                    (0..r)
                        .filter(move |&q| load(base + q) == INVALID | level)
                        .map(move |q| (q as u32, r as u32))
                })
                .collect();
            let incoming = Incoming::new(sa);
            let mut head = 0;
            while head < queue.len() {
                let (p, pp) = queue[head];
                head += 1;
                let rank = load(pair_index(p as usize, pp as usize)) & !INVALID;
                let a = incoming.of(StateId(p));
                let b = incoming.of(StateId(pp));
                let (mut i, mut j) = (0, 0);
                while i < a.len() && j < b.len() {
                    let (la, lb) = (a[i].0, b[j].0);
                    if la < lb {
                        i += 1;
                        continue;
                    }
                    if lb < la {
                        j += 1;
                        continue;
                    }
                    let ie = i + a[i..].partition_point(|e| e.0 == la);
                    let je = j + b[j..].partition_point(|e| e.0 == la);
                    let is_input = sa.alphabet.is_input(la);
                    for &(_, q) in &a[i..ie] {
                        for &(_, qq) in &b[j..je] {
                            let (x, y) = if q < qq { (q, qq) } else { (qq, q) };
                            if x == y {
                                continue;
                            }
                            let k = pair_index(x.index(), y.index());
                            let s = load(k);
                            if s & INVALID != 0 {
                                continue;
                            }
                            if is_input || s == 1 {
                                slots[k].store(INVALID | (rank + 1), Relaxed);
                                queue.push((x.0, y.0));
                            } else {
                                slots[k].store(s - 1, Relaxed);
                            }
                        }
                    }
                    i = ie;
                    j = je;
                }
            }
        }
        // Sequential, so that the standard library reuses the allocation (same layout).
        let slots: Vec<u32> = slots
            .into_iter()
            .map(|s| {
                let s = s.into_inner();
                if s & INVALID != 0 {
                    s & !INVALID
                } else {
                    COMPATIBLE
                }
            })
            .collect();

        let mut degree = vec![0u32; n];
        for r in 1..n {
            let row = &slots[pair_index(0, r)..pair_index(0, r) + r];
            for (q, &slot) in row.iter().enumerate() {
                if slot == COMPATIBLE {
                    degree[q] += 1;
                    degree[r] += 1;
                }
            }
        }
        let dense: Vec<bool> = degree.iter().map(|&d| 2 * d as usize > n).collect();
        let mut list_offsets = vec![0u64; n + 1];
        for q in 0..n {
            let d = degree[q] as usize;
            let len = if dense[q] { n - 1 - d } else { d };
            list_offsets[q + 1] = list_offsets[q] + len as u64;
        }
        let mut fill: Vec<u64> = list_offsets[..n].to_vec();
        let mut lists = vec![StateId(0); list_offsets[n] as usize];
        for r in 1..n {
            for q in 0..r {
                let compatible = slots[pair_index(q, r)] == COMPATIBLE;
                for (a, b) in [(q, r), (r, q)] {
                    if compatible != dense[a] {
                        lists[fill[a] as usize] = StateId(b as u32);
                        fill[a] += 1;
                    }
                }
            }
        }
        for q in 0..n {
            lists[list_offsets[q] as usize..list_offsets[q + 1] as usize].sort_unstable();
        }
        Compatibility {
            n,
            slots,
            degree,
            list_offsets,
            lists,
            dense,
        }
    }

    /// Number of states of the automaton.
    pub fn num_states(&self) -> usize {
        self.n
    }

    /// Whether `q ⋈ r` (reflexive and symmetric).
    #[inline]
    pub fn compatible(&self, q: StateId, r: StateId) -> bool {
        self.rank(q, r).is_none()
    }

    /// For an incompatible pair, the maximal number of moves the tester needs to distinguish the
    /// states (Algorithm 2's `rank` on `S‖S`); `None` for compatible pairs.
    #[inline]
    pub fn rank(&self, q: StateId, r: StateId) -> Option<u32> {
        if q == r {
            return None;
        }
        let (a, b) = if q < r { (q, r) } else { (r, q) };
        let s = self.slots[pair_index(a.index(), b.index())];
        (s != COMPATIBLE).then_some(s)
    }

    /// The states compatible with `q` (other than `q`), or, when those are more than half of
    /// all states, the states incompatible with it.
    pub fn neighbours(&self, q: StateId) -> Neighbours<'_> {
        let list = &self.lists
            [self.list_offsets[q.index()] as usize..self.list_offsets[q.index() + 1] as usize];
        if self.dense[q.index()] {
            Neighbours::Incompatible(list)
        } else {
            Neighbours::Compatible(list)
        }
    }

    /// Number of states compatible with `q`, other than `q`.
    pub fn degree(&self, q: StateId) -> usize {
        self.degree[q.index()] as usize
    }

    /// Number of unordered pairs of distinct compatible states.
    pub fn num_compatible_pairs(&self) -> usize {
        self.degree.iter().map(|&d| d as usize).sum::<usize>() / 2
    }

    /// Number of unordered pairs of distinct incompatible states.
    pub fn num_incompatible_pairs(&self) -> usize {
        self.n * self.n.saturating_sub(1) / 2 - self.num_compatible_pairs()
    }

    /// Pairs `(q, r)` with `q < r` and `q ⋈̸ r`, sorted.
    pub fn incompatible_pairs(&self) -> impl Iterator<Item = (StateId, StateId)> + '_ {
        (0..self.n).flat_map(move |q| {
            (q + 1..self.n)
                .filter(move |&r| self.slots[pair_index(q, r)] != COMPATIBLE)
                .map(move |r| (StateId(q as u32), StateId(r as u32)))
        })
    }

    /// Pairs `(q, r)` with `q < r` and `q ⋈ r`, sorted.
    pub fn compatible_pairs(&self) -> impl Iterator<Item = (StateId, StateId)> + '_ {
        (0..self.n).flat_map(move |q| {
            (q + 1..self.n)
                .filter(move |&r| self.slots[pair_index(q, r)] == COMPATIBLE)
                .map(move |r| (StateId(q as u32), StateId(r as u32)))
        })
    }

    /// Whether all states of `set` are pairwise compatible (`⋈(P)` in the thesis).
    ///
    /// For a sorted set, pairs are read row by row (`r` fixed, `q < r` increasing), which walks
    /// the pair table in address order; large sets are checked in parallel.
    pub fn pairwise_compatible(&self, set: &[StateId]) -> bool {
        if set.iter().any(|&q| self.degree(q) + 1 < set.len()) {
            return false;
        }
        if !set.windows(2).all(|w| w[0] < w[1]) {
            return set
                .iter()
                .enumerate()
                .all(|(i, &q)| set[i + 1..].iter().all(|&r| self.compatible(q, r)));
        }
        let row_ok = |j: usize| {
            let r = set[j].index();
            let row = &self.slots[pair_index(0, r)..];
            set[..j].iter().all(|q| row[q.index()] == COMPATIBLE)
        };
        if set.len() >= PARALLEL_SET {
            (1..set.len()).into_par_iter().all(row_ok)
        } else {
            (1..set.len()).all(row_ok)
        }
    }

    /// A winning move of the tester from the incompatible pair `{q, r}` whose successors have a
    /// strictly lower rank (so following moves always ends), chosen by `preference` when both
    /// kinds win; inputs are tried in label order. `None` if the states are compatible.
    pub fn winning_move(
        &self,
        sa: &SuspensionAutomaton,
        q: StateId,
        r: StateId,
        preference: Preference,
    ) -> Option<Move> {
        let rank = self.rank(q, r)?;
        let lower = |a: StateId, b: StateId| a != b && self.rank(a, b).is_some_and(|k| k < rank);
        let (eq, er) = (sa.enabled(q), sa.enabled(r));
        let mut outputs_win = true;
        let mut input = None;
        let (mut i, mut j) = (0, 0);
        while i < eq.len() && j < er.len() {
            match eq[i].0.cmp(&er[j].0) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    let l = eq[i].0;
                    let ok = lower(eq[i].1, er[j].1);
                    if sa.alphabet.is_input(l) {
                        if ok && input.is_none() {
                            input = Some(l);
                        }
                    } else if !ok {
                        outputs_win = false;
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        match (preference, input, outputs_win) {
            (Preference::Outputs, _, true) => Some(Move::Outputs),
            (_, Some(a), _) => Some(Move::Input(a)),
            (Preference::Inputs, None, true) => Some(Move::Outputs),
            // Unreachable by Lemma 3.7; waiting for outputs is the sound default.
            _ => Some(Move::Outputs),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::suspension_from_marked;

    /// van den Bos Fig. 2.1a: the bundled reconstruction `models/vdbos_fig2_1.aut` (its facts are
    /// checked in `tests/bundled_figures.rs`, see `models/README.md`). Every unit test about the
    /// figure uses this one automaton. Thesis state k is `StateId(k - 1)`.
    pub(crate) fn vdbos_fig_2_1() -> SuspensionAutomaton {
        crate::model::as_suspension_automaton(&vdbos_fig_2_1_lts())
            .expect("Fig. 2.1 is a suspension automaton")
    }

    /// The same bundled Fig. 2.1a as the LTS read from the file (for the ioco checker).
    pub(crate) fn vdbos_fig_2_1_lts() -> crate::model::Lts {
        let text = include_str!("../../models/vdbos_fig2_1.aut");
        let model = crate::format::parse_model(
            text,
            "models/vdbos_fig2_1.aut",
            &crate::format::LoadOptions::default(),
        )
        .expect("bundled Fig. 2.1 parses");
        let crate::model::Model::Lts(lts) = model else {
            panic!("vdbos_fig2_1.aut is an LTS")
        };
        lts
    }

    /// Fig. 2.2: 1 ⋈ 2 and 1 ⋈ 3 but 2 ⋈̸ 3 (states 0-based: thesis k = `StateId(k - 1)`).
    pub(crate) fn fig_2_2() -> SuspensionAutomaton {
        suspension_from_marked(
            "fig2.2",
            3,
            &[
                (0, "!x", 1),
                (0, "!y", 1),
                (0, "!z", 1),
                (1, "!y", 1),
                (1, "!z", 1),
                (2, "!x", 1),
            ],
        )
        .unwrap()
    }

    /// Naive greatest fixpoint of Def. 3.8 (Lemma 2.19).
    pub(crate) fn naive_compatible(sa: &SuspensionAutomaton) -> Vec<Vec<bool>> {
        let n = sa.num_states();
        let mut rel = vec![vec![true; n]; n];
        loop {
            let mut changed = false;
            for q in 0..n {
                for r in 0..n {
                    if !rel[q][r] {
                        continue;
                    }
                    let (sq, sr) = (StateId(q as u32), StateId(r as u32));
                    let inputs_ok = sa.inputs_enabled(sq).all(|a| match sa.after(sr, a) {
                        Some(t) => rel[sa.after(sq, a).unwrap().index()][t.index()],
                        None => true,
                    });
                    let outputs_ok = sa.outputs_enabled(sq).any(|x| match sa.after(sr, x) {
                        Some(t) => rel[sa.after(sq, x).unwrap().index()][t.index()],
                        None => false,
                    });
                    if !(inputs_ok && outputs_ok) {
                        rel[q][r] = false;
                        changed = true;
                    }
                }
            }
            if !changed {
                return rel;
            }
        }
    }

    #[test]
    fn fig_2_1_compatible_pairs_are_2_3_and_4_5() {
        let sa = vdbos_fig_2_1();
        let c = Compatibility::compute(&sa);
        let pairs: Vec<(u32, u32)> = c.compatible_pairs().map(|(q, r)| (q.0, r.0)).collect();
        // Thesis {2,3} and {4,5}.
        assert_eq!(pairs, vec![(1, 2), (3, 4)]);
        assert_eq!(c.num_compatible_pairs(), 2);
        assert_eq!(c.num_incompatible_pairs(), 15 - 2);
        // Example 2.32: (1, 4) is found in the second iteration, (2, 6) in the first.
        assert_eq!(c.rank(StateId(0), StateId(3)), Some(1));
        assert_eq!(c.rank(StateId(1), StateId(5)), Some(0));
        assert!(c.compatible(StateId(2), StateId(2)));
        assert_eq!(
            c.neighbours(StateId(2)),
            Neighbours::Compatible(&[StateId(1)])
        );
        assert_eq!(c.degree(StateId(2)), 1);
        // Example 2.8: awzx is a counterexample, awz a trace.
        let l = |s: &str| sa.alphabet.get(s).unwrap();
        let awz = sa
            .after_trace(StateId(0), &[l("a"), l("w"), l("z")])
            .unwrap();
        assert!(sa.after(awz, l("x")).is_none());
    }

    #[test]
    fn fig_2_2_compatibility_is_not_transitive() {
        let sa = fig_2_2();
        let c = Compatibility::compute(&sa);
        assert!(c.compatible(StateId(0), StateId(1)));
        assert!(c.compatible(StateId(0), StateId(2)));
        assert!(!c.compatible(StateId(1), StateId(2)));
        assert!(c.pairwise_compatible(&[StateId(0), StateId(1)]));
        assert!(!c.pairwise_compatible(&[StateId(0), StateId(1), StateId(2)]));
        let inc: Vec<_> = c.incompatible_pairs().collect();
        assert_eq!(inc, vec![(StateId(1), StateId(2))]);
    }

    #[test]
    fn winning_moves_respect_the_preference() {
        // 0 and 1 differ on output right away and also after input a.
        let sa = suspension_from_marked(
            "t",
            4,
            &[
                (0, "!x", 0),
                (0, "?a", 2),
                (1, "!y", 1),
                (1, "?a", 3),
                (2, "!x", 2),
                (3, "!y", 3),
            ],
        )
        .unwrap();
        let c = Compatibility::compute(&sa);
        let (q, r) = (StateId(0), StateId(1));
        assert_eq!(c.rank(q, r), Some(0));
        assert_eq!(
            c.winning_move(&sa, q, r, Preference::Outputs),
            Some(Move::Outputs)
        );
        // Rank 0: only waiting for outputs has successors of lower rank.
        assert_eq!(
            c.winning_move(&sa, q, r, Preference::Inputs),
            Some(Move::Outputs)
        );
        assert_eq!(c.winning_move(&sa, q, q, Preference::Inputs), None);
    }

    #[test]
    fn agrees_with_the_naive_fixpoint_on_random_automata() {
        let mut compatible = 0;
        for seed in 0..300u64 {
            let sa =
                crate::identify::random::random_suspension(seed, 2 + (seed % 7) as usize, 2, 3);
            let c = Compatibility::compute(&sa);
            compatible += c.num_compatible_pairs();
            // Pull-only and push-only levels give the same ranks.
            for (min_level, max_levels) in [(0, u32::MAX), (usize::MAX, 1), (0, 2)] {
                let other = Compatibility::compute_switching(&sa, min_level, max_levels);
                assert_eq!(other.slots, c.slots, "seed {seed}");
            }
            let naive = naive_compatible(&sa);
            for q in sa.states() {
                for r in sa.states() {
                    assert_eq!(
                        c.compatible(q, r),
                        naive[q.index()][r.index()],
                        "seed {seed}: pair ({q}, {r})"
                    );
                }
            }
            // Lemma 3.7: ranks decrease along the winning move.
            for (q, r) in c.incompatible_pairs() {
                let k = c.rank(q, r).unwrap();
                match c.winning_move(&sa, q, r, Preference::Outputs).unwrap() {
                    Move::Input(a) => {
                        let (s, t) = (sa.after(q, a).unwrap(), sa.after(r, a).unwrap());
                        assert!(c.rank(s, t).unwrap() < k);
                    }
                    Move::Outputs => {
                        for x in sa.outputs_enabled(q) {
                            if let Some(t) = sa.after(r, x) {
                                assert!(c.rank(sa.after(q, x).unwrap(), t).unwrap() < k);
                            }
                        }
                    }
                }
            }
        }
        assert!(
            compatible > 50,
            "the generator yields compatible pairs: {compatible}"
        );
    }
}
