//! Forced losses: a lower bound on the incompatible pairs that *every* adaptive distinguishing
//! graph (van den Bos Def. 3.21) leaves undistinguished, so that the share an ADG of Algorithm 5
//! leaves can be compared with what is achievable at all.
//!
//! # Definitions
//!
//! An ADG here is a finite adaptive test over the whole state set as Def. 3.21 has it: at each node
//! it stops (a leaf), applies an input, or waits for an output with a branch for every output
//! the current states allow. A pair of states is *undistinguished* by it when both can produce
//! the same observation, or one meets an input it does not specify while the other is still
//! possible (exactly the count of [`super::AdgMetrics::undistinguished_pairs`]). For a set `T`
//! of states and an ADG `G`, `L_G(T)` is the set of incompatible pairs of `T` that `G` leaves
//! undistinguished, and `λ(T) = min_G |L_G(T)|`.
//!
//! `λ(T)` is computed exactly by a game on *positions*: the origins of `T` still sharing the
//! observation so far, grouped by their current state (states are deterministic per label, so
//! each origin has one current state). From a position the tester may stop (every incompatible
//! pair of origins in it is lost), apply an input `a` (origins whose state does not enable `a`
//! lose their pairs with every origin of the position; the others move and merge when they reach
//! one state), or wait for an output (one successor position per output, and a pair is lost when
//! it is lost in some branch). Positions of at most two groups are decided at once: two groups
//! lose the pairs between them iff their states are compatible (Lemma 3.10: incompatible states
//! have a distinguishing experiment, compatible ones none). The value of a position is the family
//! of least sets of lost pairs some finite strategy achieves, the least fixed point of these
//! rules, computed by a worklist from "stop everywhere": a position's value is lowered when a
//! successor's value is, until nothing changes.
//!
//! # Why this is a lower bound
//!
//! 1. *Restriction.* Run any ADG `G` from the states of `T` only: at every observation prefix
//!    that some origin of `T` can produce, `G` takes one of the moves above (the same for all
//!    those origins, because `G` depends on the observation only), so the part of `G` those runs
//!    visit is a finite strategy of the game from `T`, and the pairs it loses are exactly
//!    `L_G(T)`. Hence `|L_G(T)| ≥ λ(T)` for every `G`.
//! 2. *Packing.* If sets `T_1, …, T_m` share no pair (any two have at most one state in common),
//!    the sets `L_G(T_i)` are disjoint subsets of the pairs `G` leaves undistinguished, so every
//!    ADG leaves at least `Σ λ(T_i)` pairs undistinguished.
//! 3. *Equivalent states.* States with the same behaviour (same colour under refinement of the
//!    deterministic automaton, so bisimilar) produce the same observations under every test, so
//!    a pair of behaviour classes is lost as a whole; games run on one state per class and a lost
//!    pair of classes weighs the product of their sizes. This gives the bound of an automaton as
//!    built from that of its minimal quotient without building the quotient.
//!
//! [`forced_losses`] takes `T` = all classes when there are at most [`EXACT_CLASSES`] (then the
//! bound is the exact least loss of any ADG), and otherwise every triple of classes containing a
//! pair that a given ADG loses: a triple with `λ > 0` loses a pair under *every* ADG, ours
//! included, so these are all triples with a forced loss. Triples are packed greedily (largest
//! loss first, then in state order) into a family sharing no pair. A game that outgrows
//! [`GAME_POSITIONS`] positions counts as losing nothing, and lost pairs beyond
//! [`MAX_TRIPLES`] triples are not examined, which keeps the bound sound (and makes it weaker).
//!
//! When the bound is not exact it is also the *whole-set bound* where that is larger: the
//! weighted game below played over all classes at once (at most `MAX_GAME_ORIGINS`, within
//! [`WHOLE_GAME_POSITIONS`] positions), a pair of classes weighing the product of their sizes and
//! the branches of waiting for an output combined by their maximum. Waiting loses the union of
//! what its branches lose, which is at least what the worst branch loses, so by induction over
//! any finite strategy (the restriction argument of 1. with `T` all states) every ADG loses at
//! least the value (details at `Branches`). It sees the interplay of all states, which triples
//! cannot; it undercounts where several branches lose different pairs.
//!
//! # Strategies for repairs
//!
//! [`super::repair`] plays the same game from the current set of an ADG node, with up to
//! `MAX_GAME_ORIGINS` origins: only the pairs the built sub-DAG loses may be lost (a move losing
//! another, or a position where a group holds one, is pruned; bit `k` of a set is the `k`-th
//! losable pair), and `ExploredGame::strategy` gives, for a set `S` of the least families, a
//! strategy losing only pairs of `S` (attractor ranks, so it ends). On dense automata the
//! exploration may be cut at a position limit: positions not yet expanded may then only stop,
//! so the families hold sets some strategy achieves, not necessarily the least ones
//! (`Beyond::Stop`). `weighted_game` is a
//! variant with weights on the pairs, where waiting for outputs costs the sum over its branches
//! (an upper bound on the weight of the union, so its value bounds what its strategy loses).

use super::canonical::refinement_colours;
use super::loss_game::{
    Branches, MAX_GAME_ORIGINS, Pairs, Solved, least_losses, pair_bit, weighted_game,
};
use crate::analysis::Compatibility;
use crate::model::{LabelId, StateId, SuspensionAutomaton};
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};

pub use super::loss_game::{GAME_POSITIONS, MAX_ORIGINS};

/// Most triples examined: the lost pairs are taken in order while their triples fit.
pub const MAX_TRIPLES: usize = 1_000_000;

/// Positions the weighted game over all classes (the whole-set bound) may explore.
pub const WHOLE_GAME_POSITIONS: usize = 300_000;

/// Automata with at most this many behaviour classes get the exact least loss (one game over all
/// classes; the families of lost sets grow quickly with the number of pairs).
pub const EXACT_CLASSES: usize = 5;

/// The lower bound of [`forced_losses`] and how it was found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ForcedLosses {
    /// Unordered incompatible pairs of states that every ADG leaves undistinguished, at least.
    pub pairs: u64,
    /// Whether `pairs` is the exact least loss of any ADG (one game over all behaviour classes).
    pub exact: bool,
    /// Behaviour classes of states.
    pub classes: usize,
    /// Sets of classes whose game was solved.
    pub examined: usize,
    /// Of those, the sets a short search did not settle (solved by the full game).
    pub games: usize,
    /// Of the examined sets, those with a forced loss.
    pub forced: usize,
    /// Pairs lost by the given ADG whose triples were left out beyond [`MAX_TRIPLES`].
    pub skipped_pairs: usize,
    /// Games that outgrew [`GAME_POSITIONS`] (counted as losing nothing).
    pub gave_up: usize,
    /// Forced sets in the packing.
    pub packed: usize,
    /// The whole-set bound (the weighted game over all classes, branches combined by their
    /// maximum; see the module documentation), when it was played: not when the bound is
    /// exact, beyond `MAX_GAME_ORIGINS` classes, or beyond [`WHOLE_GAME_POSITIONS`] positions.
    /// `pairs` is the larger of it and the packing's.
    pub whole_game: Option<u64>,
}

/// A lower bound on the unordered incompatible pairs every adaptive distinguishing graph of `sa`
/// leaves undistinguished (see the module documentation). `lost` are the pairs some ADG leaves
/// undistinguished (those of [`super::AdaptiveIdentification::undistinguished_pairs`]); every
/// triple with a forced loss contains one of them.
pub fn forced_losses(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    lost: &[(StateId, StateId)],
) -> ForcedLosses {
    bound(sa, compat, lost, EXACT_CLASSES)
}

/// The representative of every state's behaviour class (same colour under refinement of the
/// deterministic automaton, so bisimilar states): the least state of the class.
pub(crate) fn representatives(sa: &SuspensionAutomaton) -> Vec<StateId> {
    let identity: Vec<LabelId> = sa.alphabet.ids().collect();
    let colour = refinement_colours(sa, &identity);
    let mut least: HashMap<u32, StateId> = HashMap::new();
    for q in sa.states() {
        least.entry(colour[q.index()]).or_insert(q);
    }
    sa.states().map(|q| least[&colour[q.index()]]).collect()
}

/// The representatives of the classes (sorted) and the size of each class, by representative.
fn class_sizes(rep_of: &[StateId]) -> (Vec<StateId>, HashMap<StateId, u64>) {
    let mut size: HashMap<StateId, u64> = HashMap::new();
    for &r in rep_of {
        *size.entry(r).or_default() += 1;
    }
    let mut reps: Vec<StateId> = size.keys().copied().collect();
    reps.sort_unstable();
    (reps, size)
}

/// [`forced_losses`] with one game over all classes when there are at most `exact_classes`.
fn bound(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    lost: &[(StateId, StateId)],
    exact_classes: usize,
) -> ForcedLosses {
    let rep_of = representatives(sa);
    let (reps, size) = class_sizes(&rep_of);
    let rep = |q: StateId| rep_of[q.index()];
    let weight = |q: StateId| size[&rep(q)];
    let classes = reps.len();
    let cost = |origins: &[StateId], family: &[Pairs]| -> u64 {
        family
            .iter()
            .map(|&s| {
                let mut total = 0;
                for i in 0..origins.len() {
                    for j in i + 1..origins.len() {
                        if s & pair_bit(i, j) != 0 {
                            total += weight(origins[i]) * weight(origins[j]);
                        }
                    }
                }
                total
            })
            .min()
            .unwrap_or(0)
    };
    if classes <= exact_classes {
        return match least_losses(sa, compat, &rep_of, &reps).family() {
            Some(family) => {
                let pairs = cost(&reps, &family);
                ForcedLosses {
                    pairs,
                    exact: true,
                    classes,
                    examined: 1,
                    games: 1,
                    skipped_pairs: 0,
                    forced: usize::from(pairs > 0),
                    gave_up: 0,
                    packed: usize::from(pairs > 0),
                    whole_game: None,
                }
            }
            None => ForcedLosses {
                classes,
                examined: 1,
                gave_up: 1,
                ..ForcedLosses::default()
            },
        };
    }
    let mut focus: Vec<(StateId, StateId)> = lost
        .iter()
        .map(|&(p, q)| (rep(p).min(rep(q)), rep(p).max(rep(q))))
        .filter(|&(p, q)| p != q && !compat.compatible(p, q))
        .collect();
    focus.sort_unstable();
    focus.dedup();
    // Pairs in order while their triples fit the budget; the rest are left out (the bound stays
    // sound, only weaker).
    let third = |&(p, q): &(StateId, StateId)| {
        reps.iter()
            .filter(|&&r| r != p && r != q && !compat.compatible(p, r) && !compat.compatible(q, r))
            .count()
    };
    let mut kept = 0;
    let mut triples_so_far = 0;
    for pair in &focus {
        triples_so_far += third(pair);
        if triples_so_far > MAX_TRIPLES {
            break;
        }
        kept += 1;
    }
    let skipped_pairs = focus.len() - kept;
    focus.truncate(kept);
    let mut triples: Vec<[StateId; 3]> = focus
        .par_iter()
        .flat_map_iter(|&(p, q)| {
            reps.iter()
                .copied()
                .filter(move |&r| {
                    r != p && r != q && !compat.compatible(p, r) && !compat.compatible(q, r)
                })
                .map(move |r| {
                    let mut t = [p, q, r];
                    t.sort_unstable();
                    t
                })
        })
        .collect();
    triples.sort_unstable();
    triples.dedup();
    let solved: Vec<(bool, Option<u64>)> = triples
        .par_iter()
        .map(|t| {
            let s = least_losses(sa, compat, &rep_of, t);
            let game = !matches!(s, Solved::Quickly);
            (game, s.family().map(|family| cost(t, &family)))
        })
        .collect();
    let games = solved.iter().filter(|s| s.0).count();
    let solved: Vec<Option<u64>> = solved.into_iter().map(|s| s.1).collect();
    let gave_up = solved.iter().filter(|s| s.is_none()).count();
    let mut forced: Vec<(u64, [StateId; 3])> = triples
        .iter()
        .zip(&solved)
        .filter_map(|(t, s)| s.filter(|&c| c > 0).map(|c| (c, *t)))
        .collect();
    let num_forced = forced.len();
    forced.sort_unstable_by_key(|&(c, t)| (std::cmp::Reverse(c), t));
    let mut used: HashSet<(StateId, StateId)> = HashSet::new();
    let (mut pairs, mut packed) = (0u64, 0usize);
    for (c, [a, b, d]) in forced {
        let edges = [(a, b), (a, d), (b, d)];
        if edges.iter().any(|e| used.contains(e)) {
            continue;
        }
        used.extend(edges);
        pairs += c;
        packed += 1;
    }
    let whole_game = whole_game_value(sa, compat, &rep_of, &reps, weight, Branches::Max);
    ForcedLosses {
        pairs: pairs.max(whole_game.unwrap_or(0)),
        whole_game,
        exact: false,
        classes,
        examined: triples.len(),
        games,
        skipped_pairs,
        forced: num_forced,
        gave_up,
        packed,
    }
}

/// The value of the weighted game over all behaviour classes (`reps`, with `size` per
/// representative), a pair of classes weighing the product of their sizes (so it counts pairs
/// of states of `sa`). With [`Branches::Max`] it is the whole-set bound: every ADG run from all
/// states is a finite strategy of this game, so it loses at least this weight (see
/// [`Branches`]). `None` when the classes are more than `MAX_GAME_ORIGINS` or the game outgrows
/// [`WHOLE_GAME_POSITIONS`].
fn whole_game_value(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    representative: &[StateId],
    reps: &[StateId],
    size: impl Fn(StateId) -> u64,
    branches: Branches,
) -> Option<u64> {
    let n = reps.len();
    if n > MAX_GAME_ORIGINS {
        return None;
    }
    let mut weight = vec![0u64; n * n];
    for (i, &p) in reps.iter().enumerate() {
        for (j, &q) in reps.iter().enumerate() {
            if i != j && !compat.compatible(p, q) {
                weight[i * n + j] = size(p) * size(q);
            }
        }
    }
    let game = weighted_game(
        sa,
        compat,
        representative,
        reps,
        &weight,
        WHOLE_GAME_POSITIONS,
        branches,
    )?;
    Some(game.value())
}

#[cfg(test)]
mod tests;
