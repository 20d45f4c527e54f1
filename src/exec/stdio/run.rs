//! A suite run against a system: each test from a reset, re-run after `retry`, optionally
//! continued by another test that holds its trace (following the system), a timing-dependent
//! `fail` re-run with scaled timeouts (the timing rule of the [module doc](super)), one system
//! after the other or on `jobs` systems at once.

use super::adapter::{LineAdapter, startup_problem};
use super::race::{Execution, execute_from, follow, trace_text};
use super::{Adapter, TIMING_SCALES, Timeouts};
use crate::exec::error::ExecError;
use crate::exec::simulate::TestVerdict;
use crate::exec::tcp::System;
use crate::suite::{SuiteModel, TestCase, Verdict};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// The result of running one test case against a system, retries included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SystemOutcome {
    /// Test name.
    pub name: String,
    /// Pass, fail, or inconclusive when every attempt ended in `retry` or when a
    /// timing-dependent `fail` did not fail again with scaled timeouts (reason `timing`).
    pub verdict: TestVerdict,
    /// Number of executions, re-runs included.
    pub attempts: usize,
    /// The trace of the last execution.
    pub trace: Vec<String>,
    /// Why the test failed or was inconclusive.
    pub message: Option<String>,
    /// For a `fail`: whether its trace holds a timing-dependent observation.
    pub timing_dependent: bool,
    /// Set when the verdict rests on re-runs with scaled timeouts after a timing-dependent
    /// `fail`: the first failing execution.
    pub timing: Option<TimingReruns>,
    /// Whether the system wrote any output in the executions that decided the test (a
    /// connection the kernel accepted but the server never served shows none).
    pub served: bool,
}

/// The first failing execution of a test whose verdict rests on re-runs with scaled timeouts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TimingReruns {
    /// Its trace.
    pub first_trace: Vec<String>,
    /// Why it failed.
    pub first_message: String,
    /// The factor of the last re-run, which decided the verdict.
    pub scale: u32,
}

impl SystemOutcome {
    /// Why an inconclusive test is inconclusive: `timing` (a timing-dependent `fail` that a
    /// re-run with scaled timeouts did not repeat) or `retry` (every attempt ended in `retry`);
    /// `None` for other verdicts.
    pub fn reason(&self) -> Option<&'static str> {
        match (self.verdict, &self.timing) {
            (TestVerdict::Inconclusive, Some(_)) => Some("timing"),
            (TestVerdict::Inconclusive, None) => Some("retry"),
            _ => None,
        }
    }
}

/// Runs a test case, re-running it after `retry` at most `retries` times (and after a
/// timing-dependent `fail` with scaled timeouts, [`run_suite_on_adapter`]).
pub fn run_with_retries(
    adapter: &mut dyn Adapter,
    model: &SuiteModel,
    test: &TestCase,
    timeouts: &Timeouts,
    retries: usize,
) -> Result<SystemOutcome, String> {
    run_alone(adapter, model, test, timeouts, Rules::new(retries, false))
}

/// Runs one test case under `rules`.
fn run_alone(
    adapter: &mut dyn Adapter,
    model: &SuiteModel,
    test: &TestCase,
    timeouts: &Timeouts,
    rules: Rules,
) -> Result<SystemOutcome, String> {
    let mut outcomes = run_tests(
        adapter,
        model,
        std::slice::from_ref(test),
        timeouts,
        rules,
        |_| {},
    )?;
    Ok(outcomes.remove(0))
}

/// The outcome of a test whose `attempts` executions all ended in `retry`.
fn inconclusive(
    test: &TestCase,
    attempts: usize,
    trace: Vec<String>,
    served: bool,
) -> SystemOutcome {
    SystemOutcome {
        name: test.name.clone(),
        verdict: TestVerdict::Inconclusive,
        attempts,
        message: Some(format!(
            "inconclusive: all {attempts} attempts ended in retry (the system kept taking other allowed branches); last trace: {}",
            trace_text(&trace)
        )),
        trace,
        timing_dependent: false,
        timing: None,
        served,
    }
}

/// How a run decides its tests.
#[derive(Copy, Clone, Debug)]
struct Rules {
    /// Re-runs of a test that ended in `retry`.
    retries: usize,
    /// Follow the system ([`run_suite_on_adapter`]).
    following: bool,
    /// Re-run a timing-dependent `fail` with scaled timeouts ([`rerun_timing_fail`]); off for
    /// the re-runs themselves.
    rerun_timing: bool,
    /// Leave a test whose executions saw no output undecided (no re-runs): the caller re-runs
    /// it on its own ([`run_suite_in_parallel`] over TCP).
    defer_unserved: bool,
}

impl Rules {
    fn new(retries: usize, following: bool) -> Rules {
        Rules {
            retries,
            following,
            rerun_timing: true,
            defer_unserved: false,
        }
    }
}

/// The timing rule: a test whose execution `first` failed with a timing-dependent observation
/// in its trace is run again (with its retries) with every timeout scaled by 4, then by 16
/// ([`TIMING_SCALES`], [`Timeouts::scaled`]). A re-run that fails with no timing-dependent
/// observation is the `fail` reported; a re-run that passes makes the test `inconclusive`
/// (reason `timing`) with both traces, and so does a first re-run (x4) that ends inconclusive
/// (every attempt lost a race); a failure already reproduced at x4 stays a `fail` when x16 ends
/// inconclusive (larger waits give a system's spontaneous outputs time to win the race, which
/// is no evidence against the failure); when every scale fails, the `fail` of the largest scale
/// is reported with the first trace beside it.
fn rerun_timing_fail(
    adapter: &mut dyn Adapter,
    model: &SuiteModel,
    test: &TestCase,
    timeouts: &Timeouts,
    retries: usize,
    first: SystemOutcome,
) -> Result<SystemOutcome, String> {
    let first_message = first.message.clone().unwrap_or_default();
    let mut attempts = first.attempts;
    let mut last = first.clone();
    let rules = Rules {
        rerun_timing: false,
        ..Rules::new(retries, false)
    };
    let mut reproduced_at = None;
    for factor in TIMING_SCALES {
        let again = run_alone(adapter, model, test, &timeouts.scaled(factor), rules)?;
        attempts += again.attempts;
        let reruns = Some(TimingReruns {
            first_trace: first.trace.clone(),
            first_message: first_message.clone(),
            scale: factor,
        });
        match again.verdict {
            TestVerdict::Fail if again.timing_dependent => {
                reproduced_at = Some(factor);
                last = again;
            }
            TestVerdict::Inconclusive if reproduced_at.is_some() => break,
            TestVerdict::Fail => {
                let message = again.message.as_deref().unwrap_or_default();
                return Ok(SystemOutcome {
                    attempts,
                    message: Some(format!(
                        "{message} (with the timeouts x{factor}; the first failure depended on timing: {first_message})"
                    )),
                    timing: reruns,
                    ..again
                });
            }
            TestVerdict::Pass | TestVerdict::Inconclusive => {
                let ended = match again.verdict {
                    TestVerdict::Pass => "passed",
                    _ => "ended inconclusive",
                };
                return Ok(SystemOutcome {
                    verdict: TestVerdict::Inconclusive,
                    attempts,
                    message: Some(format!(
                        "inconclusive (timing): failed with the timeouts given ({first_message}), {ended} with the timeouts x{factor} (trace: {}); the verdict depends on timing",
                        trace_text(&again.trace)
                    )),
                    timing_dependent: false,
                    timing: reruns,
                    ..again
                });
            }
        }
    }
    let message = last.message.as_deref().unwrap_or_default();
    let largest = reproduced_at.unwrap_or(TIMING_SCALES[TIMING_SCALES.len() - 1]);
    Ok(SystemOutcome {
        attempts,
        message: Some(format!(
            "{message} (failed with the timeouts given and with every scale up to x{largest}; first failure: {first_message})"
        )),
        timing: Some(TimingReruns {
            first_trace: first.trace,
            first_message,
            scale: largest,
        }),
        ..last
    })
}

/// What a run of a suite against a system found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteRun {
    /// One outcome per test, in suite order.
    pub outcomes: Vec<SystemOutcome>,
    /// The largest delay seen from an input written (or a start) to the next output read
    /// ([`Adapter::largest_latency`]).
    pub largest_latency: Option<Duration>,
}

/// The latency warning of the timing rule: when the quiescence timeout is below 3 times the
/// largest delay seen, the delay, the timeout and the advised `--quiescence-ms`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LatencyWarning {
    /// The largest delay seen, in milliseconds.
    pub largest_ms: u64,
    /// The quiescence timeout in force, in milliseconds.
    pub quiescence_ms: u64,
    /// The advised quiescence timeout: 3 times the largest delay.
    pub advised_ms: u64,
}

impl LatencyWarning {
    /// The warning for a run with `quiescence` whose largest delay was `largest`, if one is due.
    pub fn check(largest: Option<Duration>, quiescence: Duration) -> Option<LatencyWarning> {
        let largest = largest?;
        let millis = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        (quiescence < largest.saturating_mul(3)).then(|| LatencyWarning {
            largest_ms: millis(largest),
            quiescence_ms: millis(quiescence),
            advised_ms: millis(largest.saturating_mul(3)),
        })
    }

    /// The warning's text (without `warning: `).
    pub fn text(&self) -> String {
        format!(
            "the system took up to {} ms to answer, and the quiescence timeout of {} ms is below 3 times that: silence may be read as quiescence where an output is late; use --quiescence-ms {}",
            self.largest_ms, self.quiescence_ms, self.advised_ms
        )
    }
}

/// The larger of two optional delays.
fn later(a: Option<Duration>, b: Option<Duration>) -> Option<Duration> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

/// Runs a whole suite against `system` (a process started anew, or a connection made anew, for
/// every test, unless a reset label resets it in place): one test after the other, or
/// on `jobs` systems at once ([`run_suite_in_parallel`]); with `follow`, an execution that ends
/// in `retry` is continued by another test that holds its trace ([`run_suite_on_adapter`]),
/// which depends on the order tests are decided in, so `follow` runs one system whatever
/// `jobs` says. `progress` gets each outcome, in suite order, with the time its test took.
#[allow(clippy::too_many_arguments)]
pub fn run_suite_on_system(
    system: &System,
    model: &SuiteModel,
    tests: &[TestCase],
    timeouts: &Timeouts,
    retries: usize,
    follow: bool,
    jobs: usize,
    mut progress: impl FnMut(&SystemOutcome, Duration),
) -> Result<SuiteRun, ExecError> {
    let system_error = |message| ExecError::System {
        command: system.to_string(),
        message,
    };
    if let Some(problem) = startup_problem(system, timeouts.startup) {
        return Err(system_error(problem));
    }
    if jobs > 1 && !follow && tests.len() > 1 {
        return run_suite_in_parallel(system, model, tests, timeouts, retries, jobs, progress)
            .map_err(system_error);
    }
    let mut adapter = LineAdapter::new(system.clone(), timeouts.clone());
    let mut started = Instant::now();
    let outcomes = run_suite_on_adapter(
        &mut adapter,
        model,
        tests,
        timeouts,
        retries,
        follow,
        |outcome| {
            progress(outcome, started.elapsed());
            started = Instant::now();
        },
    )
    .map_err(system_error)?;
    Ok(SuiteRun {
        outcomes,
        largest_latency: adapter.largest_latency(),
    })
}

/// Runs a suite on `jobs` systems at once, each started (or connected) by a worker thread that
/// takes the next test of the suite when its previous one is decided (so a slow test holds up
/// one worker only). Each test runs as [`run_with_retries`] runs it alone, so verdicts are
/// those of a run on one system; outcomes are handed to `progress` in suite order as soon as
/// all earlier ones are in. When a system cannot be started or driven, workers take no new
/// test, the tests already taken finish, and the error of the earliest such test is returned.
///
/// Over TCP a connection may be accepted by the kernel and never served (a server that serves
/// fewer sessions at once than `jobs`): its silence is not the system's. So a test whose
/// executions saw no output at all gets no verdict from the workers: once they are done, such
/// tests are run again one at a time on one connection (with every rule of a run on its own),
/// and only then reported.
pub fn run_suite_in_parallel(
    system: &System,
    model: &SuiteModel,
    tests: &[TestCase],
    timeouts: &Timeouts,
    retries: usize,
    jobs: usize,
    mut progress: impl FnMut(&SystemOutcome, Duration),
) -> Result<SuiteRun, String> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let n = tests.len();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let latency: Mutex<Option<Duration>> = Mutex::new(None);
    let rules = Rules {
        defer_unserved: !matches!(system, System::Command(_)),
        ..Rules::new(retries, false)
    };
    type Decided = (usize, Result<SystemOutcome, String>, Duration);
    let (sender, receiver) = mpsc::channel::<Decided>();
    let mut waiting: Vec<Option<(SystemOutcome, Duration)>> = vec![None; n];
    let mut outcomes = Vec::with_capacity(n);
    let mut unserved = Vec::new();
    let mut flush = |waiting: &mut Vec<Option<(SystemOutcome, Duration)>>,
                     outcomes: &mut Vec<SystemOutcome>| {
        while let Some((outcome, took)) = waiting.get_mut(outcomes.len()).and_then(Option::take) {
            progress(&outcome, took);
            outcomes.push(outcome);
        }
    };
    let error = thread::scope(|scope| {
        for _ in 0..jobs.min(n) {
            let sender = sender.clone();
            let (next, stop, latency) = (&next, &stop, &latency);
            scope.spawn(move || {
                let mut adapter = LineAdapter::new(system.clone(), timeouts.clone());
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    let started = Instant::now();
                    let outcome = run_alone(&mut adapter, model, &tests[i], timeouts, rules);
                    let failed = outcome.is_err();
                    if sender.send((i, outcome, started.elapsed())).is_err() || failed {
                        break;
                    }
                }
                if let Ok(mut largest) = latency.lock() {
                    *largest = later(*largest, adapter.largest_latency());
                }
            });
        }
        drop(sender);
        let mut error: Option<(usize, String)> = None;
        for (i, decided, took) in receiver {
            match decided {
                Ok(outcome) if rules.defer_unserved && !outcome.served => unserved.push(i),
                Ok(outcome) => waiting[i] = Some((outcome, took)),
                Err(message) => {
                    stop.store(true, Ordering::Relaxed);
                    if error.as_ref().is_none_or(|&(j, _)| i < j) {
                        error = Some((i, message));
                    }
                }
            }
            flush(&mut waiting, &mut outcomes);
        }
        error
    });
    if let Some((_, message)) = error {
        return Err(message);
    }
    let mut largest = latency.into_inner().unwrap_or_default();
    if !unserved.is_empty() {
        unserved.sort_unstable();
        let mut adapter = LineAdapter::new(system.clone(), timeouts.clone());
        for i in unserved {
            let started = Instant::now();
            let outcome = run_with_retries(&mut adapter, model, &tests[i], timeouts, retries)?;
            waiting[i] = Some((outcome, started.elapsed()));
            flush(&mut waiting, &mut outcomes);
        }
        largest = later(largest, adapter.largest_latency());
    }
    Ok(SuiteRun {
        outcomes,
        largest_latency: largest,
    })
}

/// Runs a suite test after test, each from a reset and re-run after `retry`; a test is
/// inconclusive once `retries + 1` of its attempts ended in `retry`. With `following` it follows
/// the system: when an execution of a test ends in `retry` because the system took another
/// allowed branch, the first undecided test (from the current one on, in suite order) whose tree
/// holds the observed trace continues the execution from the node that trace leads to, instead
/// of a reset. A test decided that way was executed from its root along one of its own paths,
/// so its verdict means what it means after a run of its own: the suite guarantees the same.
/// Every execution counts as an attempt of the test that ran it. A `fail` whose trace holds a
/// timing-dependent observation is not reported at once: the test is run again on its own with
/// scaled timeouts first (`rerun_timing_fail`). Outcomes are reported in suite order.
pub fn run_suite_on_adapter(
    adapter: &mut dyn Adapter,
    model: &SuiteModel,
    tests: &[TestCase],
    timeouts: &Timeouts,
    retries: usize,
    following: bool,
    progress: impl FnMut(&SystemOutcome),
) -> Result<Vec<SystemOutcome>, String> {
    run_tests(
        adapter,
        model,
        tests,
        timeouts,
        Rules::new(retries, following),
        progress,
    )
}

/// [`run_suite_on_adapter`] under `rules`.
fn run_tests(
    adapter: &mut dyn Adapter,
    model: &SuiteModel,
    tests: &[TestCase],
    timeouts: &Timeouts,
    rules: Rules,
    mut progress: impl FnMut(&SystemOutcome),
) -> Result<Vec<SystemOutcome>, String> {
    let Rules {
        retries, following, ..
    } = rules;
    let n = tests.len();
    let mut decided: Vec<Option<SystemOutcome>> = vec![None; n];
    let mut attempts = vec![0usize; n];
    let mut served = vec![false; n];
    let mut last_trace: Vec<Vec<String>> = vec![Vec::new(); n];
    let mut outcomes = Vec::with_capacity(n);
    for i in 0..n {
        while decided[i].is_none() {
            if attempts[i] > retries {
                let trace = std::mem::take(&mut last_trace[i]);
                decided[i] = Some(inconclusive(&tests[i], attempts[i], trace, served[i]));
                break;
            }
            // (A timing re-run of an earlier test started its systems with a larger scale.)
            adapter.set_timing_scale(timeouts.scale);
            adapter.reset()?;
            let mut run = Execution::start();
            let (mut current, mut node) = (i, 0);
            loop {
                attempts[current] += 1;
                let end = execute_from(adapter, model, &tests[current], node, &mut run, timeouts);
                served[current] |= run.seen_output;
                let verdict = match end.verdict {
                    Verdict::Pass => TestVerdict::Pass,
                    Verdict::Fail => TestVerdict::Fail,
                    Verdict::Retry => {
                        let next = if following && run.literal {
                            (i..n)
                                .filter(|&j| j != current && decided[j].is_none())
                                .filter(|&j| attempts[j] <= retries)
                                .find_map(|j| follow(&tests[j], &run.steps).map(|k| (j, k)))
                        } else {
                            None
                        };
                        match next {
                            Some((j, k)) => {
                                // The execution goes on: `current` keeps a copy of its trace.
                                last_trace[current] = run.trace.clone();
                                (current, node) = (j, k);
                                continue;
                            }
                            None => {
                                last_trace[current] = std::mem::take(&mut run.trace);
                                break;
                            }
                        }
                    }
                };
                let outcome = SystemOutcome {
                    name: tests[current].name.clone(),
                    verdict,
                    attempts: attempts[current],
                    trace: std::mem::take(&mut run.trace),
                    message: end.message,
                    timing_dependent: verdict == TestVerdict::Fail && run.timing,
                    timing: None,
                    served: run.seen_output,
                };
                let unserved = rules.defer_unserved && !outcome.served;
                decided[current] = Some(
                    if outcome.timing_dependent && rules.rerun_timing && !unserved {
                        rerun_timing_fail(
                            adapter,
                            model,
                            &tests[current],
                            timeouts,
                            retries,
                            outcome,
                        )?
                    } else {
                        outcome
                    },
                );
                break;
            }
        }
        if let Some(outcome) = decided[i].take() {
            progress(&outcome);
            outcomes.push(outcome);
        }
    }
    Ok(outcomes)
}
