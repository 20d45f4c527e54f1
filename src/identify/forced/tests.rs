//! Tests of the forced losses: exact where one pair is forced, equivalent copies weighed as
//! classes, no adaptive distinguishing graph losing fewer pairs than the bound, and the
//! whole-set bound never above the least loss.

use super::*;
use crate::identify::splitting_graph::tests::all_options;
use crate::identify::{AdaptiveIdentification, Preference, SplittingGraph};
use crate::model::suspension_from_marked;

/// Three quiescent states 0, 1, 2, pairwise incompatible, where each input merges one pair:
/// `a` leads 0 and 1 to output state 3 (`x`) and 2 to 4 (`y`); `b` leads 1 and 2 to 6 (`x`)
/// and 0 to 5 (`y`). Every output state returns to 0. Waiting for an output gives δ, so every
/// ADG applies `a` or `b` to {0, 1, 2} and loses one pair; the other pairs are then told
/// apart by `x` and `y`.
fn one_forced_pair() -> SuspensionAutomaton {
    suspension_from_marked(
        "forced",
        7,
        &[
            (0, "delta", 0),
            (1, "delta", 1),
            (2, "delta", 2),
            (0, "?a", 3),
            (1, "?a", 3),
            (2, "?a", 4),
            (0, "?b", 5),
            (1, "?b", 6),
            (2, "?b", 6),
            (3, "!x", 0),
            (4, "!y", 0),
            (5, "!y", 0),
            (6, "!x", 0),
        ],
    )
    .unwrap()
}

fn built_losses(
    sa: &SuspensionAutomaton,
    options: crate::identify::SplitOptions,
) -> (Compatibility, Vec<(StateId, StateId)>) {
    let c = Compatibility::compute(sa);
    let g = SplittingGraph::build_with(sa, &c, options).unwrap();
    let a = AdaptiveIdentification::compute(sa, &c, &g, Preference::Outputs).unwrap();
    (c, a.undistinguished_pairs().to_vec())
}

#[test]
fn the_bound_is_exact_where_one_pair_is_forced() {
    let sa = one_forced_pair();
    let (c, lost) = built_losses(&sa, Default::default());
    assert_eq!(lost.len(), 1, "{lost:?}");
    // Classes {0}, {1}, {2}, {3, 6}, {4, 5}: one game over all of them.
    let exact = bound(&sa, &c, &lost, EXACT_CLASSES);
    assert_eq!((exact.pairs, exact.exact, exact.classes), (1, true, 5));
    // Triples alone find the same: {0, 1, 2} is the one forced triple.
    let packed = bound(&sa, &c, &lost, 0);
    assert_eq!((packed.pairs, packed.exact, packed.forced), (1, false, 1));
    // With an input `c` giving three outputs, nothing is forced and nothing is lost.
    let free = three_outputs();
    let (c, lost) = built_losses(&free, Default::default());
    assert!(lost.is_empty());
    assert_eq!(bound(&free, &c, &lost, EXACT_CLASSES).pairs, 0);
}

/// Like [`one_forced_pair`], but input `c` (instead of `b`) leads 0, 1, 2 to output states
/// 3, 4, 5 with outputs `x`, `y`, `z`.
fn three_outputs() -> SuspensionAutomaton {
    let sa = one_forced_pair();
    let b = sa.alphabet.get("b");
    variant(
        &sa,
        |p, l| Some(l) != b && p != StateId(5),
        &[(0, "?c", 3), (1, "?c", 4), (2, "?c", 5), (5, "!z", 0)],
        "free",
        7,
    )
}

/// `base` with the edges from states and labels `keep` accepts, and `extra` edges, as the
/// automaton `name` with `states` states.
fn variant(
    base: &SuspensionAutomaton,
    keep: impl Fn(StateId, LabelId) -> bool,
    extra: &[(u32, &str, u32)],
    name: &str,
    states: usize,
) -> SuspensionAutomaton {
    let kept: Vec<(u32, String, u32)> = base
        .triples()
        .filter(|&(p, l, _)| keep(p, l))
        .map(|(p, l, q)| (p.0, marked(base, l), q.0))
        .collect();
    let edges: Vec<(u32, &str, u32)> = kept
        .iter()
        .map(|(p, l, q)| (*p, l.as_str(), *q))
        .chain(extra.iter().copied())
        .collect();
    suspension_from_marked(name, states, &edges).unwrap()
}

/// Weighted as built: copies of equivalent states multiply the forced pairs.
#[test]
fn equivalent_copies_weigh_as_classes() {
    let sa = one_forced_pair();
    // A copy 7 of state 1 (same edges): the pairs (0, 1) and (0, 7) are lost together.
    let copy = variant(
        &sa,
        |_, _| true,
        &[(7, "delta", 7), (7, "?a", 3), (7, "?b", 6)],
        "copy",
        8,
    );
    let (c, lost) = built_losses(&copy, Default::default());
    let b = bound(&copy, &c, &lost, EXACT_CLASSES);
    // Either input loses two pairs: (0, 1) and (0, 7), or (1, 2) and (7, 2).
    assert_eq!((b.pairs, b.exact, b.classes), (2, true, 5));
    assert_eq!(lost.len(), 2, "{lost:?}");
    assert_eq!(bound(&copy, &c, &lost, 0).pairs, 2);
}

fn marked(sa: &SuspensionAutomaton, l: LabelId) -> String {
    let name = sa.alphabet.name(l);
    if l == sa.quiescence() {
        name.to_owned()
    } else if sa.alphabet.is_input(l) {
        format!("?{name}")
    } else {
        format!("!{name}")
    }
}

/// Soundness on random automata: every ADG we build (every option) loses at least the
/// bound, and the packed triples never exceed the exact least loss.
#[test]
fn no_adg_loses_fewer_than_the_bound() {
    let mut forced = 0;
    for seed in 0..300u64 {
        let n = 3 + (seed % 5) as usize;
        let sa = crate::identify::random::random_suspension(seed, n, 2, 2);
        let c = Compatibility::compute(&sa);
        let mut least = usize::MAX;
        let mut any_lost = Vec::new();
        for options in all_options() {
            let (_, lost) = built_losses(&sa, options);
            least = least.min(lost.len());
            any_lost.extend(lost);
        }
        any_lost.sort_unstable();
        any_lost.dedup();
        let packed = bound(&sa, &c, &any_lost, 0);
        assert!(
            packed.pairs as usize <= least,
            "seed {seed}: {packed:?} > {least}"
        );
        let exact = bound(&sa, &c, &any_lost, MAX_ORIGINS.min(7));
        if exact.exact {
            assert!(packed.pairs <= exact.pairs, "seed {seed}");
            assert!(
                exact.pairs as usize <= least,
                "seed {seed}: {exact:?} > {least}"
            );
        }
        forced += usize::from(packed.pairs > 0);
    }
    assert!(forced > 20, "only {forced} automata with forced losses");
}

/// The whole-set bound against the exact least loss, on random automata small enough for
/// the exact game (equivalent states included, so pairs of classes weigh their sizes): with
/// the largest branch it never exceeds the exact loss and often equals it; summing the
/// branches instead (an upper bound on a strategy's loss, not a lower bound on every
/// strategy's) exceeds it on some, which this test would catch.
#[test]
fn the_whole_set_bound_never_exceeds_the_least_loss() {
    let (mut compared, mut tight, mut sum_exceeds) = (0, 0, 0);
    for seed in 0..400u64 {
        let n = 4 + (seed % 6) as usize;
        let sa = crate::identify::random::random_suspension(seed, n, 2, 2 + (seed % 2) as usize);
        let c = Compatibility::compute(&sa);
        let exact = bound(&sa, &c, &[], 7);
        if !exact.exact {
            continue;
        }
        let rep_of = representatives(&sa);
        let (reps, sizes) = class_sizes(&rep_of);
        let size = |r: StateId| sizes[&r];
        let value = |branches| {
            whole_game_value(&sa, &c, &rep_of, &reps, size, branches)
                .expect("small games are played out")
        };
        let max = value(Branches::Max);
        assert!(max <= exact.pairs, "seed {seed}: {max} > {}", exact.pairs);
        compared += 1;
        tight += usize::from(max == exact.pairs && max > 0);
        sum_exceeds += usize::from(value(Branches::Sum) > exact.pairs);
    }
    assert!(compared > 100, "only {compared} automata compared");
    assert!(tight > 10, "the bound is tight on only {tight}");
    assert!(
        sum_exceeds > 0,
        "summed branches never exceeded the least loss"
    );
}
