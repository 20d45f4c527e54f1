//! What a label does to the incompatible pairs of a set of states (van den Bos Def. 3.34): whether
//! it is injective for the set, and how many pairs it loses. Split choices of the splitting graph
//! and LCA choices of the adaptive distinguishing graph are scored by them.

use crate::analysis::{Compatibility, Neighbours};
use crate::model::{LabelId, StateId, SuspensionAutomaton};

/// Largest set whose lost pairs are counted (the count is quadratic in the set); larger sets
/// count as losing none, so only the pairs kept together decide.
const LOST_SCORING_LIMIT: usize = 4096;

/// Whether `l` is injective for `set` (Def. 3.34): no two incompatible states of `set` are both
/// led by `l` to compatible (or equal) states, and for an input, every state that does not enable
/// it is compatible with all others.
pub(crate) fn injective(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    set: &[StateId],
    l: LabelId,
) -> bool {
    let mut moved: Vec<(StateId, StateId)> = Vec::with_capacity(set.len());
    for &q in set {
        match sa.after(q, l) {
            Some(t) => moved.push((t, q)),
            None if sa.alphabet.is_input(l) && set.iter().any(|&r| !compat.compatible(q, r)) => {
                return false;
            }
            None => {}
        }
    }
    moved.sort_unstable();
    // Equal targets.
    for w in moved.windows(2) {
        if w[0].0 == w[1].0 && !compat.compatible(w[0].1, w[1].1) {
            return false;
        }
    }
    // Compatible distinct targets.
    let targets: Vec<StateId> = moved.iter().map(|m| m.0).collect();
    let sources_of = |t: StateId| {
        let lo = targets.partition_point(|&x| x < t);
        let hi = targets.partition_point(|&x| x <= t);
        &moved[lo..hi]
    };
    let mut distinct = targets.clone();
    distinct.dedup();
    let clash = |t: StateId, u: StateId| {
        let here = sources_of(t);
        sources_of(u)
            .iter()
            .any(|&(_, s)| here.iter().any(|&(_, r)| !compat.compatible(r, s)))
    };
    for (i, &t) in distinct.iter().enumerate() {
        let later = &distinct[i + 1..];
        let found = match compat.neighbours(t) {
            // Fewer compatible partners than later targets: look each up among the targets.
            Neighbours::Compatible(partners) if partners.len() < later.len() => partners
                .iter()
                .filter(|u| later.binary_search(u).is_ok())
                .any(|&u| clash(t, u)),
            // Otherwise walk the later targets.
            _ => later
                .iter()
                .filter(|&&u| compat.compatible(t, u))
                .any(|&u| clash(t, u)),
        };
        if found {
            return false;
        }
    }
    true
}

/// Number of incompatible pairs of `set` that label `l` loses: both states enable `l` and reach
/// equal or compatible states, or `l` is an input one of them enables and the other does not.
pub(crate) fn lost_pairs(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    set: &[StateId],
    l: LabelId,
) -> u64 {
    if set.len() > LOST_SCORING_LIMIT {
        return 0;
    }
    let mut moved: Vec<(StateId, StateId)> = Vec::with_capacity(set.len());
    let mut stuck: Vec<StateId> = Vec::new();
    for &q in set {
        match sa.after(q, l) {
            Some(t) => moved.push((t, q)),
            None => stuck.push(q),
        }
    }
    let incompatible_between = |x: &[(StateId, StateId)], y: &[(StateId, StateId)]| -> u64 {
        x.iter()
            .map(|&(_, r)| y.iter().filter(|&&(_, s)| !compat.compatible(r, s)).count() as u64)
            .sum()
    };
    let mut lost = 0u64;
    if sa.alphabet.is_input(l) {
        for &q in &stuck {
            lost += moved
                .iter()
                .filter(|&&(_, r)| !compat.compatible(q, r))
                .count() as u64;
        }
    }
    moved.sort_unstable();
    let groups: Vec<&[(StateId, StateId)]> = moved.chunk_by(|a, b| a.0 == b.0).collect();
    let targets: Vec<StateId> = groups.iter().map(|g| g[0].0).collect();
    for (i, group) in groups.iter().enumerate() {
        for (k, &(_, r)) in group.iter().enumerate() {
            lost += group[k + 1..]
                .iter()
                .filter(|&&(_, s)| !compat.compatible(r, s))
                .count() as u64;
        }
        let t = targets[i];
        let later = &targets[i + 1..];
        match compat.neighbours(t) {
            // Fewer compatible partners than later targets: look each up among the targets.
            Neighbours::Compatible(partners) if partners.len() < later.len() => {
                for u in partners {
                    if let Ok(j) = later.binary_search(u) {
                        lost += incompatible_between(group, groups[i + 1 + j]);
                    }
                }
            }
            _ => {
                for (j, &u) in later.iter().enumerate() {
                    if compat.compatible(t, u) {
                        lost += incompatible_between(group, groups[i + 1 + j]);
                    }
                }
            }
        }
    }
    lost
}
