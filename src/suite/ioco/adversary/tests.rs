//! The adversarial campaigns themselves: every method's suites against the implementations
//! the adversary builds, the shortest counterexamples of the thesis' figures, and the
//! weakened constructions each campaign must catch.

use super::*;

#[test]
fn shortest_counterexample_of_fig_2_9_has_length_12() {
    let spec = fig_2_9();
    let x = shortest_counterexample(&fig_2_9_faulty(), &spec).unwrap();
    let names: Vec<&str> = x.trace.iter().map(|&l| spec.alphabet.name(l)).collect();
    assert_eq!(names.join(""), "yyxyyxyyxyyx");
    assert_eq!(x.shortest_count, 1);
    assert!(
        shortest_counterexample(
            &with_alphabet(&fig_2_1_conforming(), &fig_2_1()),
            &fig_2_1()
        )
        .is_none()
    );
}

/// The figures of Ch. 2 at `n = |S|`, then the first `random` seeded models whose
/// unconditional suite for `n = 3` fits `max_tests`, each at the largest `n` that fits, then
/// the first `ads` seeded models (3-5 states) on which `ioco-ads` claims completeness for
/// `n = |S| + 1`, at that `n`.
pub(super) fn sample(
    random: usize,
    ads: usize,
    max_tests: u128,
) -> Vec<(String, SuspensionAutomaton, usize)> {
    let mut models: Vec<(String, SuspensionAutomaton, usize)> = [
        ("fig2.1", fig_2_1()),
        ("fig2.8", fig_2_8()),
        ("fig2.9", fig_2_9()),
    ]
    .into_iter()
    .map(|(name, spec)| {
        let n = reachable_states(&spec).len();
        (name.to_owned(), spec, n)
    })
    .collect();
    let mut seed = 11;
    while models.len() < 3 + random {
        for (name, spec) in random_models(8, seed) {
            let n = largest_bound(&spec, max_tests);
            if n >= 3 && models.len() < 3 + random {
                models.push((format!("{name}/s{seed}"), spec, n));
            }
        }
        seed += 1;
    }
    let mut rng = Rng::new(77);
    let mut k = 0;
    while models.len() < 3 + random + ads {
        let states = 3 + rng.below(3);
        let spec = random_sa(&mut rng, states, 2, 2);
        let n = reachable_states(&spec).len() + 1;
        let claims = bounded(&spec, IocoMethod::Ads, n)
            .is_ok_and(|s| s.header().guarantee.starts_with("complete"));
        if claims && unconditional_fits(&spec, n, max_tests) {
            models.push((format!("ads{k}-{states}"), spec, n));
        }
        k += 1;
    }
    models
}

/// Per method: (suites for n checked, wrong verdicts, suites for n - 1 checked, beaten).
pub(super) fn campaign(
    models: &[(String, SuspensionAutomaton, usize)],
    config: SearchConfig,
) -> Vec<(&'static str, [usize; 4])> {
    campaign_of(models, config, METHODS)
}

/// Whether `tests` fail `imp` in the execution layer's simulator.
fn simulator_fails(imp: &SuspensionAutomaton, model: &SuiteModel, tests: &[TestCase]) -> bool {
    let sys = crate::exec::SimulatedSystem::from_suspension(
        imp,
        model,
        crate::exec::InputEnabling::Reject,
    )
    .expect("candidates are input-enabled");
    crate::exec::simulate::run_suite(&sys, tests).failed()
}

/// [`campaign`] for `methods`.
fn campaign_of(
    models: &[(String, SuspensionAutomaton, usize)],
    config: SearchConfig,
    methods: &[Method],
) -> Vec<(&'static str, [usize; 4])> {
    let mut totals: Vec<(&'static str, [usize; 4])> =
        methods.iter().map(|m| (m.0, [0; 4])).collect();
    for (k, (name, spec, n)) in models.iter().enumerate() {
        let out = attack(name, spec, *n, k as u64, config, methods, &simulator_fails);
        println!("{out}");
        for ((_, m), (_, t)) in out.methods.iter().zip(&mut totals) {
            if m.tests.is_some() {
                t[0] += 1;
            }
            t[1] += m.wrong.len();
            if let Some(below) = m.below {
                t[2] += 1;
                t[3] += usize::from(below.is_some());
            }
            for w in m.wrong.iter().take(3) {
                println!("    {w}");
            }
        }
    }
    for (name, t) in &totals {
        println!(
            "{name}: suites for n checked on {} models, {} wrong verdicts; suites for n-1 \
             beaten on {} of {} models",
            t[0], t[1], t[3], t[2]
        );
    }
    totals
}

/// Whether the suites for `n - 1` are beaten on at least half of the models where they
/// exist over all methods together, and on at least each method's stated share when it was
/// checked on at least 3 models.
fn shares_met(totals: &[(&'static str, [usize; 4])]) -> Result<(), String> {
    shares_met_of(totals, METHODS, 50)
}

/// [`shares_met`] for `methods`, with `overall` percent over all methods together.
fn shares_met_of(
    totals: &[(&'static str, [usize; 4])],
    methods: &[Method],
    overall: usize,
) -> Result<(), String> {
    let short: Vec<String> = totals
        .iter()
        .zip(methods)
        .filter(|((_, t), method)| t[2] >= 3 && 100 * t[3] < method.2 * t[2])
        .map(|((name, t), method)| {
            format!(
                "{name}: n-1 suites beaten on only {} of {} models (at least {}% expected)",
                t[3], t[2], method.2
            )
        })
        .collect();
    if !short.is_empty() {
        return Err(short.join("\n"));
    }
    let checked: usize = totals.iter().map(|t| t.1[2]).sum();
    let beaten: usize = totals.iter().map(|t| t.1[3]).sum();
    if 100 * beaten < overall * checked {
        return Err(format!(
            "n-1 suites beaten on only {beaten} of {checked} (at least {overall}% expected)"
        ));
    }
    Ok(())
}

/// Every complete suite for `n` judges every candidate right, and [`shares_met`].
fn assert_teeth(totals: &[(&'static str, [usize; 4])]) {
    assert_teeth_of(totals, METHODS, 50)
}

/// [`assert_teeth`] for `methods`, with `overall` percent as in [`shares_met_of`].
fn assert_teeth_of(totals: &[(&'static str, [usize; 4])], methods: &[Method], overall: usize) {
    for (name, t) in totals {
        assert_eq!(
            t[1], 0,
            "{name}: a complete suite judged a candidate wrongly"
        );
    }
    let checked: usize = totals.iter().map(|t| t.1[2]).sum();
    assert!(checked >= 6, "too few n-1 suites checked: {checked}");
    assert!(totals.iter().filter(|t| t.1[0] > 0).count() >= 2);
    if let Err(e) = shares_met_of(totals, methods, overall) {
        panic!("{e}");
    }
}

/// The shares are not met by chance: the same starts without climbing fall short.
#[test]
fn the_shares_need_the_climb() {
    let models = sample(5, 3, 3000);
    let config = SearchConfig {
        steps: 0,
        ..SearchConfig::default()
    };
    let totals = campaign(&models, config);
    for (name, t) in &totals {
        assert_eq!(
            t[1], 0,
            "{name}: a complete suite judged a candidate wrongly"
        );
    }
    assert!(shares_met(&totals).is_err());
}

#[test]
fn complete_suites_catch_the_adversary_and_suites_for_n_minus_1_do_not() {
    let models = sample(5, 3, 3000);
    assert_teeth(&campaign(&models, SearchConfig::default()));
}

/// The classic domain: the same models, and as many again made classic themselves (the
/// suspension automata of LTSs are; there the classic suites leave out the most), attacked
/// by classic candidates only. The classic suites for `n` judge every one right, and those
/// for `n - 1` are beaten on the stated shares.
#[test]
fn classic_suites_catch_the_classic_adversary_and_suites_for_n_minus_1_do_not() {
    let mut models = sample(5, 3, 3000);
    let classic_models: Vec<_> = models
        .iter()
        .map(|(name, spec, _)| {
            let spec = classic_sa(spec);
            let n = largest_bound(&spec, 3000);
            (format!("classic {name}"), spec, n)
        })
        .filter(|(_, _, n)| *n >= 3)
        .collect();
    assert!(classic_models.len() >= 4, "{}", classic_models.len());
    models.extend(classic_models);
    let config = SearchConfig {
        classic: true,
        ..SearchConfig::default()
    };
    // Over all classic methods the suites for n - 1 are beaten on 35 of 122 models.
    assert_teeth_of(
        &campaign_of(&models, config, CLASSIC_METHODS),
        CLASSIC_METHODS,
        20,
    );
}

/// At `n = 2` every implementation can be enumerated: the search reaches the largest visit
/// depth there is, so it beats the unconditional suite for 1 whenever anything can, and the
/// complete suites for 2 judge every 2-state implementation right.
#[test]
fn at_n_2_the_search_matches_exhaustive_enumeration() {
    let mut beatable = 0;
    for (k, (name, spec)) in random_models(8, 5).into_iter().enumerate() {
        let tables = all_tables(&spec, 2);
        let imps: Vec<SuspensionAutomaton> = tables.iter().map(|t| t.build("enumerated")).collect();
        let depth = |imp: &SuspensionAutomaton| {
            if ioco(imp, &spec) {
                0
            } else {
                visit_depth(imp, &spec, 2).0
            }
        };
        let exhaustive = imps.par_iter().map(depth).max().unwrap_or(0);
        let found = search(&spec, 2, k as u64, SearchConfig::default());
        let searched = found
            .candidates
            .iter()
            .map(|c| c.visit_depth)
            .max()
            .unwrap_or(0);
        println!("{name}: largest visit depth with 2 states {exhaustive}, found {searched}");
        assert_eq!(searched, exhaustive, "{name}: the search falls short");
        beatable += usize::from(exhaustive == 2);
        let model = suite_model(&spec);
        for method in METHODS {
            let Some(tests) = complete_tests(method, &spec, 2) else {
                continue;
            };
            imps.par_iter().for_each(|imp| {
                assert_eq!(
                    suite_can_fail(&tests, &model, imp),
                    !ioco(imp, &spec),
                    "{name}: {} for n = 2 judges {imp:?} wrongly",
                    method.0
                );
            });
        }
    }
    assert!(beatable >= 2, "only {beatable} models have depth 2");
}

#[test]
#[ignore = "a wider sweep, about 2 minutes in debug: cargo test --lib wider_adversary_sweep -- --ignored"]
fn wider_adversary_sweep() {
    let models = sample(20, 8, 5000);
    let config = SearchConfig {
        restarts: 12,
        steps: 800,
        ..SearchConfig::default()
    };
    assert_teeth(&campaign(&models, config));
}
