//! Tests of `ioco-counting` and `ioco-cover-counting`: equal to `U(S, n)` and `T(S, n)` where
//! they must be, sound and complete on random specifications and on every two-state
//! implementation, the clique search against brute force, and the weakenings they must catch.

use super::super::plan::LabelMap;
use super::super::testkit::*;
use super::super::weakening::PINS_AS_MOST;
use super::super::{Bound, Budget, IocoMethod, generate, suite_model};
use super::*;
use crate::model::suspension_from_marked;
use crate::suite::TestCase;
use std::collections::HashMap;

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
fn plan_tests(spec: &SuspensionAutomaton, plan: &mut Plan, root: Target) -> Option<Vec<TestCase>> {
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
            let family = incompatible_family(&reach, &pairs, IncompatibleSets::Maximal).unwrap();
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
