//! The time `ncomplete run --sut` takes on a suite: a model of what the runner executes
//! (`crate::exec::stdio`), evaluated exactly on the tests (issue 43 item 4). The figure of
//! [`super::costs`] ("every run once") counts every root-to-verdict path once; `run` executes
//! one path per attempt, chosen by the system, so this module predicts it instead.
//!
//! What it assumes, and why each part is there:
//! - **The system**: a conforming one that, in every state, picks uniformly at random among the
//!   outputs the specification allows there, quiescence included, as `ncomplete simulate
//!   --choose random` does (it picks when it enters a state and writes an output at once). At
//!   an expect node the allowed outputs are the branches that do not fail. At a send node the
//!   racing outputs allowed are known, but a send node does not say whether quiescence is
//!   allowed too: it is taken from an expect node reached by the same trace anywhere in the
//!   suite, else assumed allowed. The system is quiet with the same chance as each allowed
//!   output, and then the input goes first (`1 / (k + 1)` with `k` racing outputs).
//! - **An attempt** (one execution from a reset) costs [`RunTiming::attempt_ms`] on the
//!   runner's side (stopping the previous process, starting the next), then per node: a send
//!   waits the send grace ([`RunTiming::grace_ms`], a twentieth of the quiescence timeout at
//!   most 20 ms; none in a suite without quiescence, [`crate::timing::send_grace`]) unless
//!   an output races it; an output observed costs [`RunTiming::latency_ms`]; quiescence costs the
//!   quiescence timeout, plus what is left of the start-up allowance while the system has
//!   written nothing since the reset (the runner adds it to every wait until then,
//!   `stdio::expect_wait`).
//! - **The system's start** ([`RunTiming::system_start_ms`]): a process just started writes
//!   nothing before it is up, and the runner does not wait for it before its first send grace.
//!   So the first output of an attempt, observed `t` ms after the reset (the graces of the
//!   sends before it), costs `max(start - t, 0)` more: the start is hidden behind the first
//!   grace where a test begins with a send in a quiet state, and paid in full where the
//!   system's first output is observed at once (a test that begins by expecting an output, or
//!   a racing output at its first send). A flat cost per attempt cannot be right for both:
//!   on `vdbos_fig2_1` (every attempt starts with an output) and `everest_r` (every attempt
//!   starts with a grace) the measured cost per attempt differs by the start, 4.8 against
//!   2.5 ms beside the grace.
//! - **Retries**: an attempt that ends in `retry` is run again, at most `retries` more times, so
//!   a test whose attempt retries with chance `p` runs `1 + p + ... + p^retries` attempts on
//!   average, each as long as an attempt on average (a new process, a new choice).
//! - **Jobs**: `jobs` workers, each taking the next test in suite order as soon as it is free
//!   (`stdio::run_suite_in_parallel`): the wall time is when the last worker is done, with
//!   every test taking its mean time (a list schedule, `list_schedule`; one job: the sum),
//!   plus [`RunTiming::check_ms`] once (the runner's start-up check, `stdio::startup_problem`).
//!   A few long tests at the end of a small suite keep one worker busy while the other is
//!   idle: on `tea_machine` (4 tests, one of 1.2 s), with the check, half the sum is 1.23 s,
//!   the schedule of the measured test times 1.45 s, and the run took 1.46 s.
//!
//! **A mean**: the system chooses at random, so one run's time is a random variable; the
//! prediction is its mean over the system's choices (exact per node, not sampled), and the
//! median of a few runs is what it is checked against (`docs/src/running.md`). The costs per
//! attempt, per start and per output are those of a release build of `ncomplete simulate` on
//! a 2-core machine shared with builds (its load between 3 and 7); they grow with the load
//! (thread wake-ups), which is the main error left on suites of short attempts with many
//! retries (`selfkicking_coffee`). Fails, timing re-runs, output delays and the
//! specification's timeout annotations (`run --spec`) are not modelled (a conforming system
//! fails no test).

use super::{Next, SuiteModel, TestCase, TestNode, Verdict};
use crate::model::LabelId;
use std::collections::HashMap;

/// The runner's timeouts and costs the prediction is made at, in milliseconds.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RunTiming {
    /// The start-up allowance added to waits until the system's first output (`--startup-ms`).
    pub startup_ms: f64,
    /// The quiescence timeout (`--quiescence-ms`).
    pub quiescence_ms: f64,
    /// How long the runner listens for a racing output before it sends an input (none in a
    /// suite without quiescence: [`RunTiming::for_suite`]).
    pub grace_ms: f64,
    /// From an input (or a state entered) to the output read, per output observed.
    pub latency_ms: f64,
    /// Per attempt, on the runner's side: stopping the previous system and starting the next
    /// (until the start returns).
    pub attempt_ms: f64,
    /// Per attempt, on the system's side: from its start until it can write its first output,
    /// which overlaps the runner's first send graces.
    pub system_start_ms: f64,
    /// Once per run: the runner's start-up check of the system.
    pub check_ms: f64,
    /// Re-runs of a test that ended in `retry` (`--retries`).
    pub retries: usize,
    /// Systems run at once (`--jobs`).
    pub jobs: usize,
}

/// Per attempt, the runner's stop and start of a process: fitted to `run` against a release
/// build of `ncomplete simulate --choose random` on the bundled models (`docs/src/running.md`).
pub const DEFAULT_ATTEMPT_MS: f64 = 2.0;
/// Per attempt, a started process until it answers (the same fit): a release build of
/// `ncomplete simulate` loading a small model, on a loaded 2-core machine.
pub const DEFAULT_SYSTEM_START_MS: f64 = 3.0;
/// One output read over a pipe from a local process.
pub const DEFAULT_LATENCY_MS: f64 = 0.5;

/// The runner's send grace ([`crate::timing::send_grace`], a first run) in milliseconds.
fn grace_ms(quiescence_ms: f64, has_quiescence: bool) -> f64 {
    let quiescence = std::time::Duration::from_secs_f64(quiescence_ms.max(0.0) / 1000.0);
    crate::timing::send_grace(quiescence, 1, has_quiescence).as_secs_f64() * 1000.0
}

impl RunTiming {
    /// The runner's defaults (`run` without timeout options) with `jobs` systems at once.
    pub fn with_defaults(jobs: usize) -> RunTiming {
        use crate::timing::{DEFAULT_QUIESCENCE_MS, DEFAULT_RETRIES, DEFAULT_STARTUP_MS};
        RunTiming::at(
            DEFAULT_STARTUP_MS as f64,
            DEFAULT_QUIESCENCE_MS as f64,
            DEFAULT_RETRIES,
            jobs,
        )
    }

    /// The prediction's timing at these timeouts (the send grace derived as the runner derives
    /// it), retries and jobs, with the default costs per attempt and per output.
    pub fn at(startup_ms: f64, quiescence_ms: f64, retries: usize, jobs: usize) -> RunTiming {
        RunTiming {
            startup_ms,
            quiescence_ms,
            grace_ms: grace_ms(quiescence_ms, true),
            latency_ms: DEFAULT_LATENCY_MS,
            attempt_ms: DEFAULT_ATTEMPT_MS,
            system_start_ms: DEFAULT_SYSTEM_START_MS,
            check_ms: crate::timing::START_CHECK.as_millis() as f64,
            retries,
            jobs: jobs.max(1),
        }
    }

    /// This timing for a suite over `model`: the runner listens for no racing output in a
    /// suite without quiescence (a Mealy suite, [`crate::timing::send_grace`]).
    pub fn for_suite(self, model: &SuiteModel) -> RunTiming {
        RunTiming {
            grace_ms: grace_ms(self.quiescence_ms, model.quiescence.is_some()),
            ..self
        }
    }

    /// One line saying what the prediction assumes.
    pub fn describe(&self) -> String {
        format!(
            "mean over the system's random choices: one branch per test, outputs uniform among \
             those allowed, up to {} retries, {} ms per quiescence (start-up allowance {} ms), \
             {} ms per restart, {} job{}",
            self.retries,
            self.quiescence_ms,
            self.startup_ms,
            self.attempt_ms + self.system_start_ms,
            self.jobs,
            if self.jobs == 1 { "" } else { "s" }
        )
    }
}

/// What one test costs under the model.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TestPrediction {
    /// Mean time of one attempt, in milliseconds.
    pub attempt_ms: f64,
    /// Chance that an attempt ends in `retry`.
    pub retry: f64,
    /// Mean number of attempts (retries included).
    pub attempts: f64,
    /// Mean quiescence observations per attempt.
    pub waits: f64,
}

impl TestPrediction {
    /// Mean time of the test, all its attempts, in milliseconds.
    pub fn ms(&self) -> f64 {
        self.attempt_ms * self.attempts
    }
}

/// What a whole run costs under the model.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RunPrediction {
    /// Tests.
    pub tests: usize,
    /// Mean attempts over all tests.
    pub attempts: f64,
    /// Mean quiescence observations over all attempts.
    pub waits: f64,
    /// Mean time of all tests one after the other, in milliseconds.
    pub serial_ms: f64,
    /// Mean wall time at the timing's jobs, in milliseconds.
    pub wall_ms: f64,
}

impl RunPrediction {
    /// The wall time as `run` prints it beside the measured one ([`seconds_text`]).
    pub fn wall_text(&self) -> String {
        seconds_text(self.wall_ms / 1000.0)
    }
}

/// A run's time: tenths of a second under a minute (so that a prediction of a short run can
/// be told from the measured time: 1.4 s against 1.0 s, not 1 s against 1 s), else as
/// [`super::costs::duration_text`].
pub fn seconds_text(seconds: f64) -> String {
    let tenths = (seconds * 10.0).round();
    if tenths < 600.0 {
        format!("{:.1} s", tenths / 10.0)
    } else {
        super::costs::duration_text(seconds.round() as u128)
    }
}

/// Mean time and outcome from one node on, given whether the start-up allowance is over.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
struct Ahead {
    ms: f64,
    retry: f64,
    waits: f64,
}

impl Ahead {
    fn verdict(v: Verdict) -> Ahead {
        Ahead {
            ms: 0.0,
            retry: if v == Verdict::Retry { 1.0 } else { 0.0 },
            waits: 0.0,
        }
    }

    fn add(&mut self, chance: f64, cost: f64, wait: bool, then: Ahead) {
        self.ms += chance * (cost + then.ms);
        self.retry += chance * then.retry;
        self.waits += chance * (then.waits + if wait { 1.0 } else { 0.0 });
    }
}

/// Whether quiescence is allowed after each trace that reaches an expect node of the suite, by
/// the trace's hash (`node_traces`).
pub type QuietAfter = HashMap<u64, bool>;

/// A hash of each node's trace from the root (the first path that reaches it; `None` for a
/// node no path reaches): inputs and outputs hashed apart.
fn node_traces(test: &TestCase) -> Vec<Option<u64>> {
    let mut traces: Vec<Option<u64>> = vec![None; test.nodes.len()];
    if traces.is_empty() {
        return traces;
    }
    traces[0] = Some(0xcbf2_9ce4_8422_2325);
    let step = |h: u64, code: u64| {
        (h ^ code)
            .wrapping_mul(0x0000_0100_0000_01b3)
            .rotate_left(17)
    };
    for k in 0..test.nodes.len() {
        let Some(h) = traces[k] else { continue };
        let mut reach = |next: Next, code: u64| {
            if let Next::Node(j) = next {
                traces[j as usize].get_or_insert(step(h, code));
            }
        };
        match &test.nodes[k] {
            TestNode::Send { input, then, race } => {
                reach(*then, 2 * u64::from(input.0));
                for &(o, n) in race {
                    reach(n, 2 * u64::from(o.0) + 1);
                }
            }
            TestNode::Expect { branches } => {
                for &(o, n) in branches {
                    reach(n, 2 * u64::from(o.0) + 1);
                }
            }
        }
    }
    traces
}

/// [`QuietAfter`] of the whole suite.
pub fn quiet_after(model: &SuiteModel, tests: &[TestCase]) -> QuietAfter {
    let mut known = QuietAfter::new();
    let Some(quiescence) = model.quiescence_id() else {
        return known;
    };
    for test in tests {
        for (node, trace) in test.nodes.iter().zip(node_traces(test)) {
            if let (TestNode::Expect { .. }, Some(h)) = (node, trace) {
                known.insert(h, node.on_output(quiescence) != Next::FAIL);
            }
        }
    }
    known
}

/// The prediction for one test (see the module doc), with what the suite says about
/// quiescence after its traces.
pub fn predict_test(
    model: &SuiteModel,
    test: &TestCase,
    timing: &RunTiming,
    known: &QuietAfter,
) -> TestPrediction {
    let timing = &timing.for_suite(model);
    let quiescence = model.quiescence_id();
    let traces = node_traces(test);
    let quiet_at = |k: usize| traces[k].and_then(|h| known.get(&h).copied());
    let context = Context {
        test,
        quiescence,
        timing,
        quiet_at: &quiet_at,
    };
    // Settled: the start-up allowance is over (an output seen, or a quiescence waited out), so
    // what lies ahead of a node depends on the node only. Nodes are in topological order.
    let mut settled: Vec<Ahead> = vec![Ahead::default(); test.nodes.len()];
    for k in (0..test.nodes.len()).rev() {
        settled[k] = context.ahead(k, &settled, None);
    }
    // Before the first output or quiescence the runner only sends (an output or quiescence
    // ends the start-up phase): a chain of send nodes from the root, each costing the grace.
    let first = context.ahead(0, &settled, Some(0.0));
    let retry = first.retry.clamp(0.0, 1.0);
    let attempts: f64 = (0..=timing.retries).map(|k| retry.powi(k as i32)).sum();
    TestPrediction {
        attempt_ms: timing.attempt_ms + first.ms,
        retry,
        attempts,
        waits: first.waits,
    }
}

/// What [`Context::ahead`] needs of a test.
struct Context<'a> {
    test: &'a TestCase,
    quiescence: Option<LabelId>,
    timing: &'a RunTiming,
    /// Whether quiescence is allowed where node `k` is, if the suite says.
    quiet_at: &'a dyn Fn(usize) -> Option<bool>,
}

impl Context<'_> {
    /// What an output observed now costs: the latency, plus what is left of the system's
    /// start while the runner has seen nothing since the reset (`elapsed`: its time since
    /// then; `None` once an output or quiescence was seen, when the system is up).
    fn first_output_ms(&self, elapsed: Option<f64>) -> f64 {
        let starting = elapsed.map_or(0.0, |t| (self.timing.system_start_ms - t).max(0.0));
        self.timing.latency_ms + starting
    }

    /// What lies ahead of node `k`: `elapsed` is the time since the reset while the start-up
    /// allowance still runs (`None`: it is over, the `settled` values of later nodes apply).
    fn ahead(&self, k: usize, settled: &[Ahead], elapsed: Option<f64>) -> Ahead {
        let timing = self.timing;
        let next_settled = |n: Next| match n {
            Next::Node(j) => settled[j as usize],
            Next::Verdict(v) => Ahead::verdict(v),
        };
        let mut out = Ahead::default();
        match &self.test.nodes[k] {
            TestNode::Send { then, race, .. } => {
                let racing: Vec<Next> = race
                    .iter()
                    .filter(|&&(_, n)| n != Next::FAIL)
                    .map(|&(_, n)| n)
                    .collect();
                let quiet = racing.is_empty() || (self.quiet_at)(k).unwrap_or(true);
                let chance = 1.0 / (racing.len() + usize::from(quiet)) as f64;
                for &n in &racing {
                    out.add(
                        chance,
                        self.first_output_ms(elapsed),
                        false,
                        next_settled(n),
                    );
                }
                if quiet {
                    let then_ahead = match (elapsed, *then) {
                        (Some(t), Next::Node(j)) => {
                            self.ahead(j as usize, settled, Some(t + timing.grace_ms))
                        }
                        _ => next_settled(*then),
                    };
                    out.add(chance, timing.grace_ms, false, then_ahead);
                }
            }
            TestNode::Expect { branches } => {
                let allowed: Vec<(LabelId, Next)> = branches
                    .iter()
                    .filter(|&&(_, n)| n != Next::FAIL)
                    .copied()
                    .collect();
                let chance = 1.0 / allowed.len().max(1) as f64;
                for (o, n) in allowed {
                    let quiet = Some(o) == self.quiescence;
                    let cost = if quiet {
                        let left = elapsed.map_or(0.0, |t| (timing.startup_ms - t).max(0.0));
                        timing.quiescence_ms + left
                    } else {
                        self.first_output_ms(elapsed)
                    };
                    out.add(chance, cost, quiet, next_settled(n));
                }
            }
        }
        out
    }
}

/// The prediction for a whole suite run at `timing` (see the module doc).
pub fn predict_run(model: &SuiteModel, tests: &[TestCase], timing: &RunTiming) -> RunPrediction {
    let known = quiet_after(model, tests);
    let (mut attempts, mut waits, mut serial) = (0.0, 0.0, 0.0);
    let mut means = Vec::with_capacity(tests.len());
    for t in tests {
        let p = predict_test(model, t, timing, &known);
        attempts += p.attempts;
        waits += p.waits * p.attempts;
        serial += p.ms();
        means.push(p.ms());
    }
    RunPrediction {
        tests: tests.len(),
        attempts,
        waits,
        serial_ms: serial,
        wall_ms: timing.check_ms + list_schedule(&means, timing.jobs),
    }
}

/// When the last of `jobs` workers is done, each taking the next test in suite order as soon
/// as it is free (`stdio::run_suite_in_parallel`), the tests taking `ms` each: the earliest
/// free worker takes the next test (ties: any, the finishing times are the same).
fn list_schedule(ms: &[f64], jobs: usize) -> f64 {
    let mut free = vec![0.0f64; jobs.clamp(1, ms.len().max(1))];
    for &t in ms {
        if let Some(first) = free.iter_mut().min_by(|a, b| a.total_cmp(b)) {
            *first += t;
        }
    }
    free.into_iter().fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> SuiteModel {
        SuiteModel {
            name: "m".into(),
            inputs: vec!["a".into()],
            outputs: vec!["x".into()],
            quiescence: Some("delta".into()),
        }
    }

    const A: LabelId = LabelId(0);
    const X: LabelId = LabelId(0);
    const DELTA: LabelId = LabelId(1);

    fn test(nodes: Vec<TestNode>) -> TestCase {
        TestCase {
            name: "t".into(),
            nodes,
        }
    }

    fn send(then: Next, race: Vec<(LabelId, Next)>) -> TestNode {
        TestNode::Send {
            input: A,
            then,
            race,
        }
    }

    fn expect(branches: Vec<(LabelId, Next)>) -> TestNode {
        TestNode::Expect { branches }
    }

    fn timing() -> RunTiming {
        RunTiming {
            startup_ms: 1000.0,
            quiescence_ms: 200.0,
            grace_ms: 10.0,
            latency_ms: 1.0,
            attempt_ms: 8.0,
            system_start_ms: 0.0,
            check_ms: 250.0,
            retries: 20,
            jobs: 1,
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    /// The parts of the prediction against a count by hand.
    #[test]
    fn the_prediction_of_tiny_suites_matches_a_count_by_hand() {
        let m = model();
        let t = timing();
        let none = QuietAfter::new();
        // ?a, then !x (then quiescence) or quiescence, each with chance 1/2. The first
        // quiescence waits out the start-up allowance left after the grace: 200 + 990 ms.
        let passing = test(vec![
            send(Next::Node(1), vec![]),
            expect(vec![(X, Next::Node(2)), (DELTA, Next::PASS)]),
            expect(vec![(DELTA, Next::PASS)]),
        ]);
        let p = predict_test(&m, &passing, &t, &none);
        let attempt = 8.0 + 10.0 + 0.5 * (1.0 + 200.0) + 0.5 * (200.0 + 990.0);
        assert!(close(p.attempt_ms, attempt), "{p:?}");
        assert!(close(p.retry, 0.0) && close(p.attempts, 1.0), "{p:?}");
        assert!(close(p.waits, 1.0), "{p:?}");
        // Quiescence retries: half the attempts, so 1 + 1/2 + ... + 1/2^20 attempts.
        let retrying = test(vec![
            send(Next::Node(1), vec![]),
            expect(vec![(X, Next::PASS), (DELTA, Next::RETRY)]),
        ]);
        let q = predict_test(&m, &retrying, &t, &none);
        assert!(
            close(q.attempt_ms, 8.0 + 10.0 + 0.5 * 1.0 + 0.5 * 1190.0),
            "{q:?}"
        );
        assert!(close(q.retry, 0.5), "{q:?}");
        assert!(close(q.attempts, 2.0 - 0.5f64.powi(20)), "{q:?}");
        // The whole run: the start-up check, then the tests one after the other.
        let tests = [passing.clone(), retrying.clone()];
        let run = predict_run(&m, &tests, &t);
        assert!(close(run.serial_ms, p.ms() + q.ms()), "{run:?}");
        assert!(close(run.wall_ms, 250.0 + p.ms() + q.ms()), "{run:?}");
        // Two jobs: half the sum, but never less than the longest test (here the retrying one).
        let two = predict_run(&m, &tests, &RunTiming { jobs: 2, ..t });
        assert!(q.ms() > (p.ms() + q.ms()) / 2.0);
        assert!(close(two.wall_ms, 250.0 + q.ms()), "{two:?}");
        // Three equal tests on two workers: the third starts when the first is done, so the
        // run takes two tests' time, not one and a half.
        let three = [passing.clone(), passing.clone(), passing.clone()];
        let many = predict_run(&m, &three, &RunTiming { jobs: 2, ..t });
        assert!(close(many.wall_ms, 250.0 + 2.0 * p.ms()), "{many:?}");
        let alone = predict_run(&m, &tests[..1], &RunTiming { jobs: 2, ..t });
        assert!(close(alone.wall_ms, 250.0 + p.ms()), "{alone:?}");
    }

    /// At a send node with a racing output, quiescence is taken from an expect node reached
    /// by the same trace: not allowed there, the output always wins the race.
    #[test]
    fn a_send_node_races_for_sure_where_the_suite_shows_no_quiescence() {
        let m = model();
        let t = timing();
        let racing = test(vec![
            send(Next::Node(1), vec![(X, Next::RETRY)]),
            expect(vec![(DELTA, Next::PASS)]),
        ]);
        let unknown = predict_test(&m, &racing, &t, &QuietAfter::new());
        assert!(close(unknown.retry, 0.5), "{unknown:?}");
        // Another test expects only !x at the root: no quiescence after the empty trace.
        let only_x = test(vec![expect(vec![(X, Next::PASS), (DELTA, Next::FAIL)])]);
        let known = quiet_after(&m, &[only_x, racing.clone()]);
        let sure = predict_test(&m, &racing, &t, &known);
        assert!(close(sure.retry, 1.0), "{sure:?}");
        assert!(close(sure.attempts, 21.0), "{sure:?}");
        assert!(close(sure.attempt_ms, 8.0 + 1.0), "{sure:?}");
    }

    /// The system's start delays the first output of an attempt by what the graces before it
    /// have not already waited.
    #[test]
    fn the_first_output_waits_for_the_system_to_start() {
        let m = model();
        let none = QuietAfter::new();
        let t = RunTiming {
            system_start_ms: 15.0,
            ..timing()
        };
        // !x at once: the whole start, then the latency; the second output is not delayed.
        let at_once = test(vec![
            expect(vec![(X, Next::Node(1)), (DELTA, Next::FAIL)]),
            expect(vec![(X, Next::PASS), (DELTA, Next::FAIL)]),
        ]);
        let p = predict_test(&m, &at_once, &t, &none);
        assert!(close(p.attempt_ms, 8.0 + 15.0 + 1.0 + 1.0), "{p:?}");
        // After a send in a quiet state the grace (10 ms) has waited for part of the start.
        let after_send = test(vec![
            send(Next::Node(1), vec![]),
            expect(vec![(X, Next::PASS), (DELTA, Next::FAIL)]),
        ]);
        let q = predict_test(&m, &after_send, &t, &none);
        assert!(close(q.attempt_ms, 8.0 + 10.0 + 5.0 + 1.0), "{q:?}");
        // A start shorter than the grace is hidden behind it.
        let quick = RunTiming {
            system_start_ms: 4.0,
            ..t
        };
        let r = predict_test(&m, &after_send, &quick, &none);
        assert!(close(r.attempt_ms, 8.0 + 10.0 + 1.0), "{r:?}");
        // A racing output at the first send comes once the system is up; an input sent
        // there (the system quiet, chance 1/2) waits the grace, the start being over by
        // then for a start of 4 ms.
        let racing = test(vec![
            send(Next::Node(1), vec![(X, Next::PASS)]),
            expect(vec![(DELTA, Next::PASS)]),
        ]);
        let s = predict_test(&m, &racing, &quick, &none);
        let attempt = 8.0 + 0.5 * (4.0 + 1.0) + 0.5 * (10.0 + 200.0 + 990.0);
        assert!(close(s.attempt_ms, attempt), "{s:?}");
    }

    /// A suite without quiescence (Mealy) has no send grace: the runner sends at once.
    #[test]
    fn a_suite_without_quiescence_sends_without_a_grace() {
        let mut m = model();
        m.quiescence = None;
        let t = timing();
        // ?a then !x: the attempt and the output, no grace (x is output 0, no quiescence id).
        let mealy = test(vec![
            send(Next::Node(1), vec![]),
            expect(vec![(X, Next::PASS)]),
        ]);
        let p = predict_test(&m, &mealy, &t, &QuietAfter::new());
        assert!(close(p.attempt_ms, 8.0 + 1.0), "{p:?}");
        // With quiescence the same test waits the grace before its input.
        let q = predict_test(&model(), &mealy, &t, &QuietAfter::new());
        assert!(close(q.attempt_ms, 8.0 + 10.0 + 1.0), "{q:?}");
    }

    /// Workers take tests in suite order as they become free: a long test last keeps one
    /// worker busy after the other is done.
    #[test]
    fn the_wall_time_is_a_list_schedule_of_the_tests() {
        assert!(close(list_schedule(&[1.0, 1.0, 2.0], 2), 3.0));
        assert!(close(list_schedule(&[2.0, 1.0, 1.0], 2), 2.0));
        assert!(close(list_schedule(&[1.0, 2.0, 3.0], 1), 6.0));
        assert!(close(list_schedule(&[5.0], 4), 5.0));
        assert!(close(list_schedule(&[], 2), 0.0));
    }

    /// Short runs in tenths of a second, longer ones as the other durations.
    #[test]
    fn run_times_under_a_minute_show_tenths() {
        assert_eq!(seconds_text(0.04), "0.0 s");
        assert_eq!(seconds_text(1.44), "1.4 s");
        assert_eq!(seconds_text(59.94), "59.9 s");
        assert_eq!(seconds_text(59.96), "1 min 0 s");
        assert_eq!(seconds_text(196.2), "3 min 16 s");
    }
}
