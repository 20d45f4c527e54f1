//! Tests of `explore`: coverage, policies, goals, the race readings, the timing rule, and
//! mutants caught in process.

use crate::exec::spec_automaton::specification_automaton;
use crate::exec::stdio::{Adapter, Observation, Timeouts};
use crate::goals::Goal;
use crate::model::SuspensionAutomaton;
use std::collections::VecDeque;
use std::time::Duration;

use super::model_adapter::ModelAdapter;
use super::options::{CoverageTarget, ExploreOptions, Policy, StopReason};
use super::report::ExploreReport;
use super::run::explore;
use super::spec::ExploreSpec;
use crate::audit::{MutantModel, MutateOptions, SizeBound, mutants};
use crate::format::{LoadOptions, parse_model};

fn bundled(name: &str, text: &str) -> SuspensionAutomaton {
    let model = parse_model(text, name, &LoadOptions::default()).unwrap();
    specification_automaton(&model).unwrap()
}

fn vending() -> SuspensionAutomaton {
    bundled("vending.aut", include_str!("../../../models/vending.aut"))
}

fn in_process(
    spec: &ExploreSpec,
    imp: &SuspensionAutomaton,
    options: &ExploreOptions,
) -> ExploreReport {
    let mut adapter = ModelAdapter::new(imp, spec.labels(), options.seed ^ 0x5eed).unwrap();
    explore(spec, &mut adapter, options, |_| {}).unwrap()
}

fn options(policy: Policy, seed: u64) -> ExploreOptions {
    ExploreOptions {
        policy,
        seed,
        max_steps: 5_000,
        target: Some(CoverageTarget::Transitions),
        ..ExploreOptions::default()
    }
}

const POLICIES: [Policy; 4] = [
    Policy::Random,
    Policy::InputBias { input: 0.3 },
    Policy::Goal,
    Policy::Strategy,
];

fn nondeterministic_models() -> [SuspensionAutomaton; 3] {
    [
        vending(),
        bundled(
            "tea_machine.dot",
            include_str!("../../../models/tea_machine.dot"),
        ),
        bundled(
            "selfkicking_coffee.aut",
            include_str!("../../../models/selfkicking_coffee.aut"),
        ),
    ]
}

/// Steps to full transition coverage per policy, summed over 20 seeds, on the bundled
/// nondeterministic models (printed with `--nocapture`; the table in docs/src/explore.md). Playing the
/// strategies covers everything without skipping a goal, and with fewer steps than
/// uniform random choice.
#[test]
fn strategy_play_reaches_full_transition_coverage_and_compares_with_shortest_paths() {
    for sa in nondeterministic_models() {
        let spec = ExploreSpec::new(sa.clone());
        let mut sums = Vec::new();
        for policy in POLICIES {
            let mut steps = 0;
            for seed in 0..20 {
                let report = in_process(&spec, &sa, &options(policy, seed));
                assert_eq!(report.stop, StopReason::Coverage, "{policy:?} {}", sa.name);
                if policy == Policy::Strategy {
                    let goals = report.goals.as_ref().unwrap();
                    assert_eq!(goals.total, spec.num_reachable_transitions);
                    assert!(goals.reached > 0, "{goals:?}");
                    assert_eq!(goals.skipped, 0, "{}: {goals:?}", sa.name);
                } else {
                    assert!(report.goals.is_none());
                }
                steps += report.steps;
            }
            sums.push(steps);
        }
        println!(
            "{}: random {} bias {} goal {} strategy {} (steps over 20 seeds)",
            sa.name, sums[0], sums[1], sums[2], sums[3]
        );
        assert!(sums[3] < sums[0], "{}: {sums:?}", sa.name);
    }
}

#[test]
fn every_policy_covers_the_nondeterministic_bundled_models_and_passes_them() {
    let models = [
        vending(),
        bundled(
            "tea_machine.dot",
            include_str!("../../../models/tea_machine.dot"),
        ),
        bundled(
            "selfkicking_coffee.aut",
            include_str!("../../../models/selfkicking_coffee.aut"),
        ),
    ];
    for sa in models {
        let spec = ExploreSpec::new(sa.clone());
        for policy in POLICIES {
            let report = in_process(&spec, &sa, &options(policy, 7));
            assert!(
                !report.failed,
                "{policy:?} {}: {:?}",
                sa.name, report.message
            );
            assert_eq!(
                report.stop,
                StopReason::Coverage,
                "{policy:?} {}: {}",
                sa.name,
                report.to_text()
            );
            assert!(report.coverage.uncovered_transitions.is_empty());
            assert_eq!(report.coverage.states, report.coverage.states_total);
        }
    }
}

#[test]
fn strategy_play_steers_to_a_regular_expression_goal_first() {
    let sa = vending();
    let spec = ExploreSpec::new(sa.clone());
    let text = ".* tea change coin refund";
    let regex = crate::check::Regex::parse(text, "test").unwrap();
    let goal = crate::goals::RegexGoal::new(&regex, text, &sa).unwrap();
    for seed in 0..10 {
        let mut o = options(Policy::Strategy, seed);
        o.goals = vec![Goal::Regex(Box::new(goal.clone()))];
        o.target = None;
        o.max_steps = 40;
        o.reset_probability = 0.0;
        let report = in_process(&spec, &sa, &o);
        let goals = report.goals.unwrap();
        assert_eq!(goals.given.len(), 1);
        assert_eq!(goals.given[0].1, "reached", "seed {seed}: {goals:?}");
    }
}

#[test]
fn goal_direction_needs_fewer_steps_than_random_choice() {
    let sa = vending();
    let spec = ExploreSpec::new(sa.clone());
    let total = |policy| -> u64 {
        (0..20)
            .map(|seed| in_process(&spec, &sa, &options(policy, seed)).steps)
            .sum()
    };
    let (goal, random) = (total(Policy::Goal), total(Policy::Random));
    assert!(goal < random, "goal {goal} steps, random {random}");
}

#[test]
fn the_same_seed_gives_the_same_run() {
    let sa = vending();
    let spec = ExploreSpec::new(sa.clone());
    let mut o = options(Policy::Random, 3);
    o.target = None;
    o.max_steps = 300;
    let a = in_process(&spec, &sa, &o);
    let b = in_process(&spec, &sa, &o);
    assert_eq!(a.to_json(&o), b.to_json(&o));
    assert_eq!(a.steps, 300);
    assert_eq!(a.stop, StopReason::StepBudget);
}

/// A process-like system by script: the `k`-th input since a reset is answered by the
/// `k`-th list of `script`, one entry per wait (`None`: the wait ends in silence; silence
/// once the list is used up). Counts the resets and records the waits asked for.
struct Scripted {
    script: Vec<Vec<Option<&'static str>>>,
    sent: usize,
    pending: VecDeque<Option<&'static str>>,
    timer_read: bool,
    /// Every observation is made across the tester's starvation.
    starved: bool,
    resets: usize,
    waits: Vec<Duration>,
}

impl Scripted {
    fn new(script: Vec<Vec<Option<&'static str>>>) -> Self {
        Scripted {
            script,
            sent: 0,
            pending: VecDeque::new(),
            timer_read: false,
            starved: false,
            resets: 0,
            waits: Vec::new(),
        }
    }
}

impl Adapter for Scripted {
    fn reset(&mut self) -> Result<(), String> {
        self.resets += 1;
        self.sent = 0;
        self.pending.clear();
        Ok(())
    }

    fn send(&mut self, _input: &str) -> Result<(), String> {
        self.pending = self
            .script
            .get(self.sent)
            .cloned()
            .unwrap_or_default()
            .into();
        self.sent += 1;
        Ok(())
    }

    fn pending_output(&mut self, _grace: Duration) -> Result<Option<String>, String> {
        Ok(None)
    }

    fn receive(&mut self, timeout: Duration) -> Result<Observation, String> {
        self.waits.push(timeout);
        Ok(match self.pending.pop_front().flatten() {
            Some(o) => {
                self.timer_read |= o == "settled";
                Observation::Output(o.to_owned())
            }
            None => Observation::Quiescence,
        })
    }

    fn take_timer_note(&mut self) -> bool {
        std::mem::take(&mut self.timer_read)
    }

    fn take_timing_note(&mut self) -> bool {
        self.starved
    }
}

/// `?a` must be answered by `!x` (or, after `!x`, by the timer output `settled`); `!y` only
/// where the run never goes. The tester always sends what it can, else waits.
/// The specification of `states` states with these marked transitions (`delta` for
/// quiescence), as the explorer reads it.
fn spec_of(states: usize, transitions: &[(u32, &str, u32)]) -> ExploreSpec {
    ExploreSpec::new(crate::model::suspension_from_marked("s", states, transitions).unwrap())
}

/// `?a` answered by `!x`, then the timer output `!settled`; `!y` only in an unreachable state.
fn answer_spec() -> ExploreSpec {
    spec_of(
        4,
        &[
            (0, "?a", 1),
            (0, "delta", 0),
            (1, "!x", 2),
            (2, "!settled", 0),
            (3, "!y", 0),
        ],
    )
}

fn eager_options() -> ExploreOptions {
    let mut timeouts = Timeouts::from_millis(0, 10, 100);
    timeouts.timer_outputs = vec!["settled".to_owned()];
    ExploreOptions {
        policy: Policy::InputBias { input: 1.0 },
        reset_probability: 0.0,
        max_steps: 12,
        timeouts,
        ..ExploreOptions::default()
    }
}

/// A missing output after a prefix with nothing timing-dependent is confirmed by waiting in
/// place up to the x4 and x16 waits (no replay: the system is reset once, at the start);
/// an output arriving in that wait makes the verdict inconclusive (timing) when allowed and
/// a fail when not; a timer output where `!x` was due is a missing output too. The tester's
/// starvation alone (every observation made across it) changes none of this.
#[test]
fn a_missing_output_is_confirmed_by_waiting_in_place() {
    let spec = answer_spec();
    let options = eager_options();
    let run_starved = |script: Vec<Vec<Option<&'static str>>>, starved: bool| {
        let mut adapter = Scripted::new(script);
        adapter.starved = starved;
        let report = explore(&spec, &mut adapter, &options, |_| {}).unwrap();
        (report, adapter)
    };
    let run = |script| run_starved(script, false);
    let (starved, adapter) = run_starved(vec![vec![Some("x"), Some("settled")], vec![]], true);
    assert!(
        starved.failed && adapter.resets == 1,
        "{:?}",
        starved.message
    );
    // An output no reading allows, after nothing that could mislead: no replay, no waiting.
    let (forbidden, adapter) = run_starved(vec![vec![Some("y")]], true);
    let message = forbidden.message.unwrap();
    assert!(forbidden.failed && forbidden.timing.is_none(), "{message}");
    assert_eq!(message, "unexpected !y (expected one of: !x) after ?a");
    assert_eq!((adapter.resets, adapter.waits.len()), (1, 1));
    let (mute, adapter) = run(vec![vec![Some("x"), Some("settled")], vec![]]);
    assert!(mute.failed);
    let message = mute.message.unwrap();
    assert!(
        message.starts_with("no output within the response timeout of 100 ms")
            && message.contains("no output when waiting in place up to the timeouts x16"),
        "{message}"
    );
    assert_eq!(mute.timing.map(|t| t.scale), Some(16));
    assert_eq!(adapter.resets, 1);
    let ms = |d: &Duration| d.as_millis();
    let waits: Vec<u128> = adapter.waits.iter().map(ms).collect();
    let n = waits.len();
    assert!(n >= 3 && waits[n - 3] == 100, "{waits:?}");
    assert!((300..=400).contains(&waits[n - 2]), "{waits:?}");
    assert!((1500..=1600).contains(&waits[n - 1]), "{waits:?}");
    let (late, adapter) = run(vec![vec![None, Some("x")]]);
    assert!(!late.failed);
    let message = late.message.unwrap();
    assert!(
        message
            .starts_with("inconclusive (timing): failed with the timeouts given (no output within")
            && message.contains("x4 (trace: ?a !x)"),
        "{message}"
    );
    assert_eq!(late.trace, ["?a", "!x"]);
    assert_eq!(adapter.resets, 1);
    let (wrong, _) = run(vec![vec![None, None, Some("y")]]);
    assert!(wrong.failed);
    let message = wrong.message.unwrap();
    assert!(
        message.starts_with("unexpected !y (expected one of: !x) after ?a")
            && message.contains("waited in place up to the timeouts x16"),
        "{message}"
    );
    // The timer output `settled` overtook a slow `!x` (the Conference adapter's case).
    let (timer, adapter) = run(vec![vec![Some("settled"), Some("x")]]);
    assert!(!timer.failed, "{:?}", timer.message);
    assert!(
        timer.message.unwrap().contains("(trace: ?a !x)"),
        "{:?}",
        timer.trace
    );
    assert_eq!(adapter.resets, 1);
}

/// After a quiescence observed where an output was allowed (a slow conforming system's
/// output may have come later and been read as another step's), a missing output is
/// replayed from a reset at x4 and x16, not confirmed in place.
#[test]
fn a_missing_output_after_a_quiescence_that_may_mislead_is_replayed() {
    let spec = spec_of(
        4,
        &[
            (0, "?a", 1),
            (0, "delta", 0),
            (1, "!x", 0),
            (1, "delta", 2),
            (2, "?a", 3),
            (2, "delta", 2),
            (3, "!y", 0),
        ],
    );
    let mut adapter = Scripted::new(vec![vec![None], vec![]]);
    let report = explore(&spec, &mut adapter, &eager_options(), |_| {}).unwrap();
    assert!(report.failed);
    let message = report.message.unwrap();
    assert!(
        message.contains("failed when replayed with every scale up to x16"),
        "{message}"
    );
    assert_eq!(adapter.resets, 3);
}

#[test]
fn a_forbidden_output_fails_with_the_trace() {
    // The specification answers ?a with !x; the implementation answers !y, which only an
    // unreachable state allows (so no reading of the race allows it either).
    let spec = spec_of(
        3,
        &[
            (0, "?a", 1),
            (0, "delta", 0),
            (1, "!x", 0),
            (1, "!z", 0),
            (2, "!y", 0),
        ],
    );
    let imp = crate::model::suspension_from_marked(
        "i",
        2,
        &[(0, "?a", 1), (0, "delta", 0), (1, "!y", 0)],
    )
    .unwrap();
    let report = in_process(&spec, &imp, &options(Policy::Goal, 1));
    assert!(report.failed);
    assert_eq!(report.stop, StopReason::Failure);
    assert_eq!(report.trace.last().map(String::as_str), Some("!y"));
    let message = report.message.unwrap();
    assert!(
        message.starts_with("unexpected !y (expected one of: !x, !z) after"),
        "{message}"
    );
}

/// Mutants of the bundled nondeterministic models: every non-conforming one that exploring
/// can show (a detection within the step budget) is counted; no conforming one ever fails.
#[test]
fn explore_fails_non_conforming_mutants_and_never_a_conforming_one() {
    let mut detected = 0;
    let mut non_conforming = 0;
    for sa in [
        vending(),
        bundled(
            "tea_machine.dot",
            include_str!("../../../models/tea_machine.dot"),
        ),
    ] {
        let spec = ExploreSpec::new(sa.clone());
        let opts = MutateOptions {
            count: 30,
            bound: SizeBound::Extra(1),
            seed: 11,
        };
        for m in mutants(&MutantModel::Suspension(sa.clone()), &opts).unwrap() {
            let MutantModel::Suspension(imp) = &m.model else {
                unreachable!("suspension mutants")
            };
            let mut o = options(Policy::Goal, 5);
            o.target = None;
            o.max_steps = 3_000;
            let report = in_process(&spec, imp, &o);
            if m.conforms {
                assert!(
                    !report.failed,
                    "{} ({}) conforms: {:?}",
                    m.name, m.description, report.message
                );
            } else {
                non_conforming += 1;
                detected += usize::from(report.failed);
            }
        }
    }
    assert!(non_conforming > 10, "{non_conforming}");
    // A model in process reads each input when it is sent, so the race has one reading and
    // every fault the step budget reaches shows.
    assert_eq!(
        detected, non_conforming,
        "{detected} of {non_conforming} non-conforming mutants found"
    );
}
