//! The records of a run, shared by its result files (`super::results`), its HTML reports
//! (`super::report_html`, `super::sts_report_html`) and the goal and requirement tables: one
//! [`TestRecord`] per test with its observed trace as [`ObservedStep`]s, and the
//! [`VerdictCounts`] of the run's closing line.

use super::TestVerdict;
use std::time::Duration;

/// The reasons of an excused test (`goal_coverage::UnreachedGoal::reason`): an unreached joker
/// goal of a goal suite, counted apart.
pub const EXCUSED_REASONS: [&str; 2] = ["race-dependent goal", "joker goal"];

/// The result of one test case in a run.
#[derive(Clone, Debug, PartialEq)]
pub struct TestRecord {
    /// The test's name in the suite.
    pub name: String,
    /// Its verdict.
    pub verdict: TestVerdict,
    /// Why it failed or was inconclusive.
    pub message: Option<String>,
    /// Wall-clock time of the test, retries included (runs against a system only).
    pub time: Option<Duration>,
    /// The observed trace (empty when none was kept): against a system the last execution's,
    /// in simulation the failing execution of a failed test.
    pub trace: Vec<ObservedStep>,
    /// For a failure whose last trace step is the offending one: what happened there and what
    /// was expected instead (`unexpected !x (expected one of: !y, delta)`).
    pub failure: Option<String>,
    /// Why an inconclusive test is inconclusive: `timing` or `retry` (runs against a system),
    /// or, for a goal suite's joker goal the system did not help reach, `race-dependent goal`
    /// or `joker goal` (counted apart, [`VerdictCounts::unreached_goals`]).
    pub reason: Option<&'static str>,
    /// For a verdict that rests on re-runs with scaled timeouts (the timing rule): the trace of
    /// the first, failing execution and that of the re-run that decided.
    pub timing_traces: Option<(Vec<String>, Vec<String>)>,
}

/// One step of an observed trace, labels by name (unmarked).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ObservedStep {
    /// The tester sent an input.
    Input(String),
    /// The tester observed an output.
    Output(String),
    /// The tester observed quiescence (no output within the quiescence timeout).
    Quiescence,
}

impl ObservedStep {
    /// The step of a trace as runners write it: `?a` an input, `!x` an output, the quiescence
    /// label `quiescence` as it is (any other text is read as an output).
    pub fn from_marked(step: &str, quiescence: &str) -> ObservedStep {
        if step == quiescence {
            ObservedStep::Quiescence
        } else if let Some(input) = step.strip_prefix('?') {
            ObservedStep::Input(input.to_owned())
        } else {
            ObservedStep::Output(step.strip_prefix('!').unwrap_or(step).to_owned())
        }
    }

    /// The steps of a trace as runners write it ([`Self::from_marked`]).
    pub fn from_marked_trace(trace: &[String], quiescence: &str) -> Vec<ObservedStep> {
        trace
            .iter()
            .map(|s| ObservedStep::from_marked(s, quiescence))
            .collect()
    }
}

/// What a failure `message` of the runners (`WHAT after TRACE`) says about the last step of
/// `trace` (marked steps): `WHAT`, when the message ends in the trace before that step.
pub fn failure_at_last_step(message: &str, trace: &[String]) -> Option<String> {
    let (_, before) = trace.split_last()?;
    let suffix = format!(" after {}", super::stdio::trace_text(before));
    message.strip_suffix(&suffix).map(str::to_owned)
}

/// How many tests of a run ended in each verdict, counted as they finish.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VerdictCounts {
    /// Tests that passed.
    pub pass: usize,
    /// Tests that failed.
    pub fail: usize,
    /// Tests whose every execution ended in `retry`.
    pub inconclusive: usize,
    /// Inconclusive tests of a goal suite's joker goals that the system did not help reach
    /// (`goal_coverage`): counted apart, they do not make the suite inconclusive.
    pub unreached_goals: usize,
}

impl VerdictCounts {
    /// The counts of `verdicts`.
    pub fn of(verdicts: impl IntoIterator<Item = TestVerdict>) -> VerdictCounts {
        let mut counts = VerdictCounts::default();
        for verdict in verdicts {
            counts.add(verdict);
        }
        counts
    }

    /// The counts of recorded results: an inconclusive test with an excused reason
    /// (`race-dependent goal`, `joker goal`) counts as an unreached goal.
    pub fn of_records(records: &[TestRecord]) -> VerdictCounts {
        let mut counts = VerdictCounts::default();
        for r in records {
            match r.reason {
                Some(reason) if EXCUSED_REASONS.contains(&reason) => counts.unreached_goals += 1,
                _ => counts.add(r.verdict),
            }
        }
        counts
    }

    /// Counts one more test.
    pub fn add(&mut self, verdict: TestVerdict) {
        match verdict {
            TestVerdict::Pass => self.pass += 1,
            TestVerdict::Fail => self.fail += 1,
            TestVerdict::Inconclusive => self.inconclusive += 1,
        }
    }

    /// The suite verdict: the worst test verdict counted (`pass` for no tests).
    pub fn verdict(&self) -> TestVerdict {
        if self.fail > 0 {
            TestVerdict::Fail
        } else if self.inconclusive > 0 {
            TestVerdict::Inconclusive
        } else {
            TestVerdict::Pass
        }
    }

    /// The closing line of a run report: `suite: VERDICT (P pass, F fail, I inconclusive)`,
    /// then `, G goals unreached` when some were (`goal_coverage`).
    pub fn summary_line(&self) -> String {
        let verdict = self.verdict();
        let VerdictCounts {
            pass,
            fail,
            inconclusive,
            unreached_goals,
        } = *self;
        let goals = match unreached_goals {
            0 => String::new(),
            n => format!(", {n} goals unreached"),
        };
        format!("suite: {verdict} ({pass} pass, {fail} fail, {inconclusive} inconclusive{goals})\n")
    }
}
