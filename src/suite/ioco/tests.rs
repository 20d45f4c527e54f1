//! Soundness, completeness and determinism of the ioco suites, by exhaustive simulation of every
//! test against implementations whose conformance is decided exactly.

use super::pairs;
use super::testkit::*;
use super::*;
use crate::suite::{TestCase, read_suite};

fn suite_tests(suite: &IocoSuite) -> Vec<TestCase> {
    suite.tests().collect()
}

/// Checks soundness and completeness of `method` with bound `n` against one implementation.
fn check_against(
    spec: &SuspensionAutomaton,
    method: IocoMethod,
    n: usize,
    tests: &[TestCase],
    imp: &SuspensionAutomaton,
) -> Result<(), String> {
    let model = suite_model(spec);
    let conforms = ioco(imp, spec);
    let fails = suite_can_fail(tests, &model, imp);
    // Cross-check the simulation with the execution layer's exact simulator.
    let sys = crate::exec::SimulatedSystem::from_suspension(
        imp,
        &model,
        crate::exec::InputEnabling::Reject,
    )
    .expect("mutants are input-enabled");
    let exec_fails = crate::exec::simulate::run_suite(&sys, tests).failed();
    if exec_fails != fails {
        return Err(format!(
            "simulators disagree (ours: {fails}, exec: {exec_fails}) on {imp:?}"
        ));
    }
    if conforms && fails {
        return Err(format!(
            "{}: unsound, a conforming implementation fails: {imp:?}",
            method.name()
        ));
    }
    if !conforms && !fails && specified_states(imp, spec) <= n {
        return Err(format!(
            "{}: incomplete for n = {n}: {imp:?} does not conform, has {} specified states, and passes",
            method.name(),
            specified_states(imp, spec)
        ));
    }
    Ok(())
}

#[test]
fn tests_are_valid_and_suite_json_round_trips() {
    let spec = fig_2_1();
    let suite = generate(
        &spec,
        IocoMethod::Unconditional,
        Bound::States(2),
        Budget::default(),
    )
    .unwrap();
    let text = String::from_utf8(suite.write_json(Vec::new()).unwrap()).unwrap();
    let (header, tests) = read_suite(&text).unwrap();
    assert_eq!(header.method, "unconditional");
    assert_eq!(tests.len() as u128, suite.num_tests());
    let model = suite_model(&spec);
    for t in &tests {
        t.validate(model.inputs.len(), model.num_output_ids())
            .unwrap();
    }
}

#[test]
fn unconditional_finds_the_length_12_counterexample_of_fig_2_9() {
    let spec = fig_2_9();
    let imp = fig_2_9_faulty();
    assert!(!ioco(&imp, &spec));
    assert_eq!(specified_states(&imp, &spec), 3);
    let suite = generate(
        &spec,
        IocoMethod::Unconditional,
        Bound::States(3),
        Budget::default(),
    )
    .unwrap();
    let tests = suite_tests(&suite);
    assert!(suite_can_fail(&tests, &suite_model(&spec), &imp));
    // Some test is at least 12 labels deep: one expect per output of the counterexample.
    assert!(tests.iter().any(|t| t.depth() >= 12));
    // With n = 2 the counterexample is out of reach: the suite is shorter and passes.
    let small = generate(
        &spec,
        IocoMethod::Unconditional,
        Bound::States(2),
        Budget::default(),
    )
    .unwrap();
    assert!(!suite_can_fail(
        &suite_tests(&small),
        &suite_model(&spec),
        &imp
    ));
}

#[test]
fn unconditional_on_the_figures() {
    for (spec, imps) in [
        (fig_2_1(), vec![fig_2_1_conforming(), fig_2_1_faulty()]),
        (fig_2_8(), vec![fig_2_8_faulty()]),
    ] {
        for imp in imps {
            let imp = with_alphabet(&imp, &spec);
            let n = specified_states(&imp, &spec);
            let suite = generate(
                &spec,
                IocoMethod::Unconditional,
                Bound::States(n),
                // U(S, n) is the unpruned construction: its estimated run time is far above the
                // default limit, and this test executes it in simulation only.
                Budget {
                    max_seconds: u128::MAX,
                    ..Budget::default()
                },
            )
            .unwrap();
            check_against(
                &spec,
                IocoMethod::Unconditional,
                n,
                &suite_tests(&suite),
                &imp,
            )
            .unwrap();
        }
    }
    assert!(ioco(&fig_2_1_conforming(), &fig_2_1()));
    assert!(!ioco(
        &with_alphabet(&fig_2_1_faulty(), &fig_2_1()),
        &fig_2_1()
    ));
}

/// Runs `method` on seeded random specifications against many mutants each; suites over
/// `max_tests` tests are skipped (and counted, so the campaign cannot silently become empty).
fn random_campaign(method: IocoMethod, specs: u64, mutants: usize, max_n: usize) {
    let budget = Budget {
        max_tests: 1000,
        ..Budget::default()
    };
    let mut nonconforming = 0usize;
    let mut checked = 0usize;
    let mut compatible_specs = 0usize;
    for seed in 0..specs {
        let mut rng = Rng::new(seed);
        let states = 2 + rng.below(3);
        let (inputs, outputs) = (1 + rng.below(2), 1 + rng.below(2));
        let spec = random_sa(&mut rng, states, inputs, outputs);
        let pairs = pairs::PairAnalysis::compute(&spec).unwrap();
        if spec
            .states()
            .any(|p| spec.states().any(|q| p < q && pairs.compatible(p, q)))
        {
            compatible_specs += 1;
        }
        let mut suites: Vec<Option<Option<Vec<TestCase>>>> = vec![None; max_n + 1];
        for _ in 0..mutants {
            let faults = rng.below(3);
            let imp = mutant(&mut rng, &spec, faults);
            let n = specified_states(&imp, &spec);
            if n > max_n {
                continue;
            }
            if suites[n].is_none() {
                suites[n] = Some(match generate(&spec, method, Bound::States(n), budget) {
                    Ok(s) => Some(suite_tests(&s)),
                    Err(IocoSuiteError::Budget { .. } | IocoSuiteError::Refused(_)) => None,
                    Err(e) => panic!("seed {seed}: {e}"),
                });
            }
            let Some(Some(tests)) = &suites[n] else {
                continue;
            };
            if let Err(e) = check_against(&spec, method, n, tests, &imp) {
                panic!("seed {seed}: {e}\nspec: {spec:?}");
            }
            checked += 1;
            if !ioco(&imp, &spec) {
                nonconforming += 1;
            }
        }
    }
    assert!(
        checked > specs as usize * mutants / 4 && nonconforming > specs as usize,
        "too few mutants checked: {checked}, faulty {nonconforming}"
    );
    assert!(compatible_specs > specs as usize / 4, "{compatible_specs}");
}

#[test]
fn unconditional_is_sound_and_complete_on_random_specifications() {
    random_campaign(IocoMethod::Unconditional, 200, 150, 3);
}

#[test]
fn output_is_identical_for_any_thread_count() {
    let spec = fig_2_1();
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let suite = generate(
                &spec,
                IocoMethod::Unconditional,
                Bound::States(3),
                Budget::default(),
            )
            .unwrap();
            suite.write_json(Vec::new()).unwrap()
        })
    };
    let one = run(1);
    assert!(one.len() > 1000);
    assert_eq!(one, run(4));
}

fn tests_of(spec: &SuspensionAutomaton, method: IocoMethod, bound: Bound) -> Vec<TestCase> {
    suite_tests(&generate(spec, method, bound, Budget::default()).unwrap())
}

#[test]
fn complete_suite_on_the_figures() {
    // Fig. 2.1: merges 2∧3 and 4∧5 are tested with their own suites.
    let spec = fig_2_1();
    for imp in [fig_2_1_conforming(), fig_2_1_faulty()] {
        let imp = with_alphabet(&imp, &spec);
        let n = specified_states(&imp, &spec);
        let tests = tests_of(&spec, IocoMethod::Complete, Bound::States(n));
        check_against(&spec, IocoMethod::Complete, n, &tests, &imp).unwrap();
    }
    let suite = generate(
        &spec,
        IocoMethod::Complete,
        Bound::States(3),
        Budget::default(),
    )
    .unwrap();
    assert!(suite.header().guarantee.starts_with("complete for every"));
    assert!(!suite.header().guarantee.contains("unconditional suite U"));
    // Fig. 2.8c needs P+ with two labels after the access sequence of state 3.
    let spec = fig_2_8();
    let imp = fig_2_8_faulty();
    assert_eq!(specified_states(&imp, &spec), 3);
    let tests = tests_of(&spec, IocoMethod::Complete, Bound::States(3));
    assert!(suite_can_fail(&tests, &suite_model(&spec), &imp));
    // Fig. 2.9: all states compatible; the merges recurse until only equivalent states remain,
    // and the suite finds the counterexample of length 12.
    let spec = fig_2_9();
    let imp = fig_2_9_faulty();
    let suite = generate(
        &spec,
        IocoMethod::Complete,
        Bound::States(3),
        Budget::default(),
    )
    .unwrap();
    assert!(!suite.header().guarantee.contains("unconditional suite U"));
    assert!(suite_can_fail(
        &suite_tests(&suite),
        &suite_model(&spec),
        &imp
    ));
}

#[test]
fn non_terminating_merge_recursion_falls_back_to_the_unconditional_suite() {
    // 1 ◇ 2, and the merge {1,2} reaches {1} (after a, which only 1 enables): the pair
    // ({1,2}, {1}) of the merge is compatible and inequivalent and merges back to {1,2}.
    let spec = crate::model::suspension_from_marked(
        "loop",
        3,
        &[
            (0, "!x", 1),
            (0, "!y", 2),
            (1, "!x", 1),
            (1, "!y", 1),
            (1, "?a", 1),
            (2, "!x", 2),
        ],
    )
    .unwrap();
    let suite = generate(
        &spec,
        IocoMethod::Complete,
        Bound::States(2),
        Budget::default(),
    )
    .unwrap();
    let g = &suite.header().guarantee;
    assert!(
        g.contains("{1,2}") && g.contains("unconditional suite U"),
        "{g}"
    );
    let tests = suite_tests(&suite);
    let mut rng = Rng::new(7);
    for _ in 0..300 {
        let faults = rng.below(3);
        let imp = mutant(&mut rng, &spec, faults);
        let n = specified_states(&imp, &spec);
        if n <= 2 {
            check_against(&spec, IocoMethod::Complete, 2, &tests, &imp).unwrap();
        }
    }
}

#[test]
fn complete_suite_is_sound_and_complete_on_random_specifications() {
    random_campaign(IocoMethod::Complete, 200, 150, 3);
}

#[test]
fn budgets_fail_cleanly_with_advice() {
    let spec = crate::model::suspension_from_marked(
        "wide",
        1,
        &[(0, "?a", 0), (0, "?b", 0), (0, "!x", 0)],
    )
    .unwrap();
    let err = generate(
        &spec,
        IocoMethod::Complete,
        Bound::States(30),
        Budget::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("try a smaller n"), "{err}");
    let err = generate(
        &spec,
        IocoMethod::Unconditional,
        Bound::States(0),
        Budget::default(),
    )
    .unwrap_err();
    assert_eq!(err, IocoSuiteError::ZeroBound);
}

#[test]
fn ads_on_fig_2_8_needs_an_extra_label() {
    let spec = fig_2_8();
    let imp = fig_2_8_faulty();
    let model = suite_model(&spec);
    let exact = generate(
        &spec,
        IocoMethod::Ads,
        Bound::ExtraStates(0),
        Budget::default(),
    )
    .unwrap();
    let g = &exact.header().guarantee;
    assert!(
        g.starts_with("not 3-complete") && g.contains("states 1, 2"),
        "{g}"
    );
    assert!(!suite_can_fail(&suite_tests(&exact), &model, &imp));
    let more = tests_of(&spec, IocoMethod::Ads, Bound::ExtraStates(1));
    assert!(suite_can_fail(&more, &model, &imp));
}

#[test]
fn ads_is_complete_when_its_condition_holds() {
    let mut checked = 0;
    let mut faulty = 0;
    for seed in 0..100u64 {
        let mut rng = Rng::new(1000 + seed);
        let states = 2 + rng.below(3);
        let (inputs, outputs) = (1 + rng.below(2), 2 + rng.below(2));
        let spec = random_sa(&mut rng, states, inputs, outputs);
        for extra in 0..2 {
            let budget = Budget {
                max_tests: 1000,
                ..Budget::default()
            };
            let Ok(suite) = generate(&spec, IocoMethod::Ads, Bound::ExtraStates(extra), budget)
            else {
                continue;
            };
            let claims = suite.header().guarantee.starts_with("complete");
            let n = suite.header().n.unwrap();
            let tests = suite_tests(&suite);
            let model = suite_model(&spec);
            for _ in 0..40 {
                let faults = rng.below(3);
                let imp = mutant(&mut rng, &spec, faults);
                let conforms = ioco(&imp, &spec);
                let fails = suite_can_fail(&tests, &model, &imp);
                assert!(!(conforms && fails), "seed {seed}: unsound on {imp:?}");
                if claims && specified_states(&imp, &spec) <= n {
                    checked += 1;
                    if !conforms {
                        faulty += 1;
                        assert!(fails, "seed {seed}, n {n}: incomplete on {imp:?}\n{spec:?}");
                    }
                }
            }
        }
    }
    assert!(
        checked > 100 && faulty > 30,
        "checked {checked}, faulty {faulty}"
    );
}

#[test]
fn complete_output_is_identical_for_any_thread_count() {
    let spec = fig_2_9();
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            generate(
                &spec,
                IocoMethod::Complete,
                Bound::States(3),
                Budget::default(),
            )
            .unwrap()
            .write_json(Vec::new())
            .unwrap()
        })
    };
    assert_eq!(run(1), run(4));
}

/// Runs every test of `method` for `bound` against `spec` itself by exact simulation (inputs
/// the specification leaves unspecified are ignored, a conforming choice) and returns the names
/// of the tests that do not pass (none can pass: every execution ends in `retry`, or one fails).
/// `None` when the suite exceeds the budget.
fn undecidable_tests(
    spec: &SuspensionAutomaton,
    method: IocoMethod,
    bound: Bound,
) -> Option<Vec<String>> {
    let budget = Budget {
        max_tests: 20_000,
        ..Budget::default()
    };
    let suite = match generate(spec, method, bound, budget) {
        Ok(s) => s,
        Err(IocoSuiteError::Budget { .. } | IocoSuiteError::Refused(_)) => return None,
        Err(IocoSuiteError::NoCandidate { .. }) if method == IocoMethod::Auto => return None,
        Err(e) => panic!("{}: {e}", method.name()),
    };
    let sys = crate::exec::SimulatedSystem::from_suspension(
        spec,
        &suite_model(spec),
        crate::exec::InputEnabling::SelfLoop,
    )
    .expect("the specification's labels");
    Some(
        suite
            .tests()
            .map(|t| crate::exec::simulate::run_test(&sys, &t))
            .filter(|o| o.verdict != crate::exec::TestVerdict::Pass)
            .map(|o| format!("{} ({})", o.name, o.verdict))
            .collect(),
    )
}

/// Asserts that every test of every method is decidable against `spec`; returns how many suites
/// were within the budget.
fn assert_decidable(spec: &SuspensionAutomaton, bounds: &[Bound]) -> usize {
    let mut checked = 0;
    // Every method: the candidates of `ioco-auto`, and `ioco-auto` itself.
    for &method in auto::CANDIDATES.iter().chain(&[IocoMethod::Auto]) {
        for &bound in bounds {
            let Some(bad) = undecidable_tests(spec, method, bound) else {
                continue;
            };
            assert!(
                bad.is_empty(),
                "{} {bound:?} of {}: {} tests never pass against the specification itself, e.g. {}",
                method.name(),
                spec.name,
                bad.len(),
                bad[0]
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn every_test_of_the_figures_is_decidable_against_its_specification() {
    let mut checked = 0;
    for spec in [fig_2_1(), fig_2_8(), fig_2_9()] {
        let bounds: Vec<Bound> = (1..=spec.num_states() + 1).map(Bound::States).collect();
        checked += assert_decidable(&spec, &bounds);
    }
    assert!(checked >= 40, "only {checked} suites within the budget");
}

#[test]
fn every_test_of_the_bundled_models_is_decidable_against_its_specification() {
    let mut checked = 0;
    for file in BUNDLED_MODELS {
        let (_, spec) = bundled_model(file);
        checked += assert_decidable(&spec, &[Bound::ExtraStates(0)]);
    }
    assert!(checked >= 30, "only {checked} suites within the budget");
}

#[test]
fn every_test_of_random_automata_is_decidable_against_its_specification() {
    let mut checked = 0;
    for seed in 0..24 {
        let mut rng = Rng::new(1000 + seed);
        let states = 2 + rng.below(3);
        let (inputs, outputs) = (1 + rng.below(2), 1 + rng.below(2));
        let spec = random_sa(&mut rng, states, inputs, outputs);
        checked += assert_decidable(&spec, &[Bound::States(states), Bound::States(states + 1)]);
    }
    assert!(checked >= 180, "only {checked} suites within the budget");
}
