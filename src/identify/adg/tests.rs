//! Tests of the adaptive distinguishing graph: Fig. 3.6 (the graph of Fig. 3.1), Fig. 3.5 with
//! its top-ups, Fig. 3.7 and `S_n` fully distinguished, the exact search against the estimate,
//! and the invariants on random automata.

use super::*;
use crate::identify::splitting_graph::SplittingGraph;
use crate::identify::splitting_graph::tests::{all_options, fig_3_1, fig_3_5, fig_3_7, s_n};

fn identify(sa: &SuspensionAutomaton) -> (Compatibility, AdaptiveIdentification) {
    let c = Compatibility::compute(sa);
    let g = SplittingGraph::build(sa, &c).unwrap();
    let a = AdaptiveIdentification::compute(sa, &c, &g, Preference::Outputs).unwrap();
    (c, a)
}

/// The CCS-like term of an experiment, for comparison with the thesis.
fn term(sa: &SuspensionAutomaton, e: &Experiment, k: u32) -> String {
    match &e.nodes()[k as usize].step {
        Step::Leaf => "0".into(),
        Step::Input { input, then, .. } => {
            format!("{}.{}", sa.alphabet.name(*input), term(sa, e, *then))
        }
        Step::Outputs { branches } => {
            let parts: Vec<String> = branches
                .iter()
                .map(|&(x, t)| format!("{}.{}", sa.alphabet.name(x), term(sa, e, t)))
                .collect();
            format!("({})", parts.join(" + "))
        }
    }
}

#[test]
fn fig_3_6_adaptive_distinguishing_graph() {
    let sa = fig_3_1();
    let (_, a) = identify(&sa);
    assert_eq!(
        term(&sa, a.adg(), 0),
        "(x.(x.0 + y.a.(x.0 + y.0)) + y.a.(x.0 + y.0))"
    );
    assert!(a.undistinguished_pairs().is_empty());
    assert_eq!(a.num_topups(), 0);
    let m = a.metrics();
    assert_eq!(m.depth, 4);
    assert_eq!(m.undistinguished_pairs, 0);
    // Observations: xx, xyax, xyay, yax, yay.
    assert_eq!(m.observations, 5.0);
    assert!(a.topups_of(StateId(0)).is_empty());
}

#[test]
fn fig_3_5_has_no_adg_and_gets_top_ups() {
    let sa = fig_3_5();
    let (c, a) = identify(&sa);
    assert_eq!(c.num_incompatible_pairs(), 3);
    assert!(!a.undistinguished_pairs().is_empty());
    // With top-ups every state is identified: each incompatible pair is covered.
    for (q, r) in c.incompatible_pairs() {
        let covered = a.adg_distinguishes(q, r)
            || a.topups_of(q)
                .into_iter()
                .any(|k| a.topup(&sa, &c, k).root_states() == [q, r]);
        assert!(covered, "({q}, {r})");
    }
    assert!(!brute_force_adg_exists(&sa, &c));
}

#[test]
fn fig_3_7_and_s_n_are_fully_distinguished() {
    let sa = fig_3_7();
    let (c, a) = identify(&sa);
    check_adg(&sa, &c, &a);
    for n in 3..=7 {
        let sa = s_n(n);
        let (c, a) = identify(&sa);
        check_adg(&sa, &c, &a);
        // S_n has an adaptive distinguishing graph (count the outputs before n).
        assert!(brute_force_adg_exists(&sa, &c));
        assert!(a.undistinguished_pairs().is_empty(), "S_{n}");
    }
}

/// Brute-force existence of an adaptive distinguishing graph for all states (Def. 3.21), for
/// automata whose distinct states are pairwise incompatible (then, by Lemma 3.35, every label
/// taken must be injective and the rest is an ADG for the successor set).
fn brute_force_adg_exists(sa: &SuspensionAutomaton, c: &Compatibility) -> bool {
    if c.num_compatible_pairs() > 0 {
        return false;
    }
    let inputs: Vec<LabelId> = sa.alphabet.inputs().collect();
    let outputs: Vec<LabelId> = sa.alphabet.outputs().collect();
    let injective_after = |p: &[StateId], l: LabelId| -> Option<Vec<StateId>> {
        let mut t: Vec<StateId> = p.iter().filter_map(|&s| sa.after(s, l)).collect();
        t.sort_unstable();
        let k = t.len();
        t.dedup();
        (t.len() == k).then_some(t)
    };
    let mut memo: HashMap<Vec<StateId>, bool> = HashMap::new();
    let mut changed = true;
    let all: Vec<StateId> = sa.states().collect();
    // Collect reachable sets.
    let mut sets = vec![all.clone()];
    let mut seen: std::collections::HashSet<Vec<StateId>> = sets.iter().cloned().collect();
    let mut i = 0;
    while i < sets.len() {
        let p = sets[i].clone();
        i += 1;
        for &l in inputs.iter().chain(&outputs) {
            if let Some(t) = injective_after(&p, l)
                && t.len() > 1
                && seen.insert(t.clone())
            {
                sets.push(t);
            }
        }
    }
    while changed {
        changed = false;
        for p in &sets {
            if memo.get(p) == Some(&true) {
                continue;
            }
            let good = |t: &Vec<StateId>| t.len() <= 1 || memo.get(t) == Some(&true);
            let by_outputs = outputs
                .iter()
                .all(|&x| injective_after(p, x).is_some_and(|t| good(&t)))
                && outputs
                    .iter()
                    .any(|&x| p.iter().any(|&s| sa.after(s, x).is_some()));
            let by_input = inputs.iter().any(|&a| {
                p.iter().all(|&s| sa.after(s, a).is_some())
                    && injective_after(p, a).is_some_and(|t| good(&t))
            });
            if by_outputs || by_input {
                memo.insert(p.clone(), true);
                changed = true;
            }
        }
    }
    memo.get(&all) == Some(&true)
}

/// Invariants of the ADG and the reported distinguished pairs, by brute force.
fn check_adg(sa: &SuspensionAutomaton, c: &Compatibility, a: &AdaptiveIdentification) {
    let adg = a.adg();
    // Every observation ends in a pairwise compatible set.
    for k in adg.leaves() {
        assert!(c.pairwise_compatible(&adg.nodes()[k].states));
    }
    // Every pair reported distinguished has disjoint observation sets (Def. 3.18).
    let obs: Vec<Vec<Vec<LabelId>>> = sa
        .states()
        .map(|q| adg.observations(sa, q, 100_000).unwrap())
        .collect();
    for (q, r) in c.incompatible_pairs() {
        if a.adg_distinguishes(q, r) {
            let (oq, or) = (&obs[q.index()], &obs[r.index()]);
            assert!(
                oq.iter().all(|t| or.binary_search(t).is_err()),
                "{}: ({q}, {r}) reported distinguished",
                sa.name
            );
        }
    }
    // The Def. 3.18 count is exactly the incompatible pairs sharing an observation.
    let sharing = c
        .incompatible_pairs()
        .filter(|&(q, r)| {
            let (oq, or) = (&obs[q.index()], &obs[r.index()]);
            oq.iter().any(|t| or.binary_search(t).is_ok())
        })
        .count();
    let m = a.metrics();
    assert_eq!(m.sharing_an_observation, sharing, "{}", sa.name);
    assert!(m.sharing_an_observation <= m.undistinguished_pairs);
    // Top-ups distinguish their pair.
    for (e, &(q, r)) in a.topups(sa, c).zip(a.undistinguished_pairs()) {
        let oq = e.observations(sa, q, 100_000).unwrap();
        let or = e.observations(sa, r, 100_000).unwrap();
        assert!(oq.iter().all(|t| or.binary_search(t).is_err()));
    }
}

/// Pairs left undistinguished by the estimate's three graphs (the best of them) and by the
/// searched ones, under the default splitting graph.
fn estimate_and_search(sa: &SuspensionAutomaton) -> (usize, usize) {
    let c = Compatibility::compute(sa);
    let g = SplittingGraph::build(sa, &c).unwrap();
    let lost = |rules: &[(PrefixInputs, u8, bool)]| {
        best_graph(sa, &c, &g, 100_000, rules)
            .unwrap()
            .undistinguished
            .len()
    };
    (lost(&GRAPH_RULES[..3]), lost(&GRAPH_RULES[3..]))
}

/// Random search for automata where the search beats the estimate (prints the smallest;
/// `cargo test --lib find_search_gains -- --ignored --nocapture`).
#[test]
#[ignore]
fn find_search_gains() {
    for n in 4..=9 {
        for seed in 0..3000u64 {
            for (kind, sa) in [
                (
                    "io",
                    crate::identify::random::random_io_suspension(seed, n, 2, 2),
                ),
                (
                    "any",
                    crate::identify::random::random_suspension(seed, n, 2, 2),
                ),
            ] {
                let (estimate, search) = estimate_and_search(&sa);
                if search < estimate {
                    println!("{kind} n={n} seed={seed}: {estimate} -> {search}");
                    for q in sa.states() {
                        for l in sa.alphabet.ids() {
                            if let Some(t) = sa.after(q, l) {
                                let mark = if l == sa.quiescence() {
                                    ""
                                } else if sa.alphabet.is_input(l) {
                                    "?"
                                } else {
                                    "!"
                                };
                                let name = sa.alphabet.name(l);
                                println!("  ({}, \"{mark}{name}\", {}),", q.index(), t.index());
                            }
                        }
                    }
                    return;
                }
            }
        }
    }
    panic!("no automaton where the search beats the estimate");
}

/// Found by [`find_search_gains`] (`random_suspension(43, 4, 2, 2)`): the estimate's best
/// graph leaves 4 of the incompatible pairs undistinguished, the searched one 1.
pub(crate) fn search_beats_estimate() -> SuspensionAutomaton {
    crate::model::suspension_from_marked(
        "search-beats-estimate",
        4,
        &[
            (0, "?a0", 2),
            (0, "?a1", 3),
            (0, "!x1", 2),
            (1, "?a1", 0),
            (1, "!x0", 3),
            (1, "!x1", 2),
            (1, "delta", 1),
            (2, "?a0", 0),
            (2, "?a1", 1),
            (2, "delta", 2),
            (3, "?a0", 0),
            (3, "?a1", 1),
            (3, "!x1", 1),
        ],
    )
    .unwrap()
}

#[test]
fn the_search_loses_fewer_pairs_than_the_estimate() {
    let sa = search_beats_estimate();
    assert_eq!(estimate_and_search(&sa), (4, 1));
    let (c, a) = identify(&sa);
    assert_eq!(a.undistinguished_pairs().len(), 1);
    check_adg(&sa, &c, &a);
    // The same under renumbering (the search's choices are canonical too).
    for seed in 0..5 {
        let copy = crate::identify::random::renumbered(&sa, seed);
        assert_eq!(estimate_and_search(&copy), (4, 1), "renumbering {seed}");
    }
}

#[test]
fn random_adgs_satisfy_the_invariants() {
    let mut theorem_cases = 0;
    for seed in 0..400u64 {
        let n = 2 + (seed % 6) as usize;
        let sa = crate::identify::random::random_suspension(seed, n, 2, 3);
        let c = Compatibility::compute(&sa);
        for options in all_options() {
            let prefer_injective = options.prefer_injective;
            let g = SplittingGraph::build_with(&sa, &c, options).unwrap();
            let a = AdaptiveIdentification::compute(&sa, &c, &g, Preference::Outputs).unwrap();
            check_adg(&sa, &c, &a);
            // Theorem 3.36: all pairs incompatible and an ADG exists => we find one.
            if prefer_injective && brute_force_adg_exists(&sa, &c) {
                theorem_cases += 1;
                assert!(
                    a.undistinguished_pairs().is_empty(),
                    "seed {seed}: an ADG exists but {:?} are not distinguished",
                    a.undistinguished_pairs()
                );
            }
        }
    }
    assert!(
        theorem_cases > 40,
        "only {theorem_cases} automata exercise Theorem 3.36"
    );
}

/// The search's lost pairs, kept as byte positions in their key's states, come back as the same
/// pairs of states, up to a set of `SEARCH_SET_LIMIT` (256) states whose last position is 255.
#[test]
fn lost_pairs_round_trip_through_byte_positions() {
    let states: Vec<StateId> = (0..SEARCH_SET_LIMIT as u32)
        .map(|k| StateId(3 * k + 1))
        .collect();
    let last = states[SEARCH_SET_LIMIT - 1];
    let pairs = vec![
        (states[0], states[1]),
        (states[0], last),
        (states[17], states[200]),
        (states[254], last),
    ];
    let lost = encode_lost(&states, &pairs);
    assert_eq!(lost.as_ref(), &[(0, 1), (0, 255), (17, 200), (254, 255)]);
    assert_eq!(decode_lost(&states, &lost), pairs);
}
