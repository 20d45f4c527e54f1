//! What a suite costs to write, load and run, and the budgets that refuse a suite before a byte
//! of it is written (issue 11: budgets on tests, runs, total steps, nodes and bytes).
//!
//! The figures, for the suite JSON v1 of [`super::json`]:
//! - *tests*: test cases;
//! - *runs*: root-to-verdict paths summed over all tests (the executions needed to see every
//!   verdict of every test once);
//! - *steps*: labels (inputs and outputs) summed over all those paths;
//! - *waits*: quiescence observations summed over all those paths (each costs one quiescence
//!   timeout against a real system);
//! - *nodes*: send/expect nodes summed over all tests (what a reader must hold);
//! - *longest*: labels on the longest path of any test;
//! - *bytes*: the size of the JSON file;
//! - *estimated time*: what running every path once costs at the configured timeouts
//!   ([`Timing`]): a start-up cost per run, the quiescence timeout per wait and a latency per
//!   step, in whole seconds rounded up.
//!
//! Each figure is exact ([`Figure::Exact`]), a lower bound when counting stopped at a limit or
//! overflowed `u128` ([`Figure::MoreThan`]), an upper bound ([`Figure::AtMost`], Mealy suites
//! before prefix removal), or not counted ([`Figure::Unknown`], when a cheaper figure already
//! refused the suite). A lower or upper bound is never printed as if it were exact.

use super::{SuiteHeader, SuiteWriter};
use serde::{Serialize, Serializer};
use std::fmt;

pub use crate::progress::thousands;

/// One cost figure.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Figure {
    /// Exactly this many.
    Exact(u128),
    /// More than this many (`u128::MAX`: the figure does not fit in 128 bits).
    MoreThan(u128),
    /// At most this many (a figure counted before duplicates or prefixes are removed).
    AtMost(u128),
    /// Not counted.
    Unknown,
}

impl Figure {
    /// An exact figure from checked arithmetic (`None`: more than `u128`).
    pub fn checked(value: Option<u128>) -> Figure {
        value.map_or(Figure::MoreThan(u128::MAX), Figure::Exact)
    }

    /// Whether the figure certainly exceeds `limit` (an upper bound is taken at its word, so
    /// that budgets refuse before writing).
    pub fn exceeds(self, limit: u128) -> bool {
        match self {
            Figure::Exact(x) | Figure::AtMost(x) => x > limit,
            Figure::MoreThan(x) => x >= limit,
            Figure::Unknown => false,
        }
    }

    /// The exact value, if known.
    pub fn exact(self) -> Option<u128> {
        match self {
            Figure::Exact(x) => Some(x),
            _ => None,
        }
    }

    /// A key that orders figures by size: exact and bounded values by value, a lower bound
    /// after the exact figure of the same value, unknown last.
    pub fn sort_key(self) -> (u128, u8) {
        match self {
            Figure::Exact(x) | Figure::AtMost(x) => (x, 0),
            Figure::MoreThan(x) => (x, 1),
            Figure::Unknown => (u128::MAX, 2),
        }
    }
}

impl fmt::Display for Figure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match *self {
            Figure::Exact(x) => thousands(x),
            Figure::MoreThan(u128::MAX) => "more than u128".to_string(),
            Figure::MoreThan(x) => format!(">{}", thousands(x)),
            Figure::AtMost(x) => format!("<={}", thousands(x)),
            Figure::Unknown => "-".to_string(),
        };
        f.pad(&text)
    }
}

impl Serialize for Figure {
    /// Exact figures as numbers (strings beyond `u64`), bounds as strings like `">1,000"`,
    /// unknown as `null`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            Figure::Exact(x) => match u64::try_from(x) {
                Ok(v) => s.serialize_u64(v),
                Err(_) => s.serialize_str(&x.to_string()),
            },
            Figure::Unknown => s.serialize_none(),
            other => s.serialize_str(&other.to_string()),
        }
    }
}

/// The cost figures of one suite.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SuiteCosts {
    /// Test cases.
    pub tests: Figure,
    /// Root-to-verdict paths over all tests.
    pub runs: Figure,
    /// Labels summed over all those paths.
    pub steps: Figure,
    /// Quiescence observations summed over all those paths.
    pub waits: Figure,
    /// Send/expect nodes over all tests.
    pub nodes: Figure,
    /// Labels on the longest path of any test.
    pub longest: Figure,
    /// Size of the suite JSON file.
    pub bytes: Figure,
}

/// Limits on what a suite may cost; every one is checked from the counted figures before a
/// suite is written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Most test cases (`--max-tests`).
    pub max_tests: u128,
    /// Most runs (`--max-runs`).
    pub max_runs: u128,
    /// Most total steps (`--max-steps`).
    pub max_steps: u128,
    /// Most nodes over all tests (`--max-nodes`).
    pub max_nodes: u128,
    /// Most bytes of the suite file (`--max-bytes`): suite JSON, or a Mealy words file.
    pub max_bytes: u128,
    /// Most plan nodes (shared test fragments) an ioco suite may have while it is planned,
    /// counted over all plans alive at once (the plan and its normal form, every nested suite).
    pub max_plan_nodes: usize,
    /// Most estimated seconds to run every path once (`--max-seconds`) at [`Budget::timing`].
    pub max_seconds: u128,
    /// The timeouts the estimated time is computed at.
    pub timing: Timing,
}

/// What one run, one quiescence observation and one step cost when a suite is executed against
/// a real system, in milliseconds (the estimate of `sizes`, `--stats` and `--max-seconds`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Start-up and reset per run (`--run-ms`).
    pub run_ms: u64,
    /// The quiescence timeout, per wait (`--quiescence-ms`; the runners' default).
    pub quiescence_ms: u64,
    /// Latency per step (`--step-ms`).
    pub step_ms: u64,
}

/// Default `--run-ms`: a system started in process-group isolation costs a few milliseconds,
/// which the step latency of its first steps already covers.
pub const DEFAULT_RUN_MS: u64 = 0;
/// Default `--step-ms`: one round trip over a pipe to a local process.
pub const DEFAULT_STEP_MS: u64 = 2;

impl Default for Timing {
    fn default() -> Self {
        Timing {
            run_ms: DEFAULT_RUN_MS,
            quiescence_ms: crate::timing::DEFAULT_QUIESCENCE_MS,
            step_ms: DEFAULT_STEP_MS,
        }
    }
}

impl Timing {
    /// The estimated time of `runs`, `waits` and `steps`, in milliseconds: exact when all three
    /// are, a lower bound when one is, unknown otherwise.
    pub fn millis(&self, runs: Figure, waits: Figure, steps: Figure) -> Figure {
        let parts = [
            (runs, self.run_ms),
            (waits, self.quiescence_ms),
            (steps, self.step_ms),
        ];
        let mut total = Some(0u128);
        let mut lower = false;
        for (figure, ms) in parts {
            let value = match figure {
                Figure::Exact(x) => x,
                Figure::AtMost(x) => x,
                Figure::MoreThan(x) => {
                    lower = true;
                    x
                }
                Figure::Unknown if ms == 0 => 0,
                Figure::Unknown => return Figure::Unknown,
            };
            total = total.and_then(|t| t.checked_add(value.checked_mul(u128::from(ms))?));
        }
        let at_most = parts.iter().any(|(f, _)| matches!(f, Figure::AtMost(_)));
        match total {
            None => Figure::MoreThan(u128::MAX),
            Some(t) if lower => Figure::MoreThan(t),
            Some(t) if at_most => Figure::AtMost(t),
            Some(t) => Figure::Exact(t),
        }
    }

    /// [`Timing::millis`] in whole seconds, rounded up.
    pub fn seconds(&self, runs: Figure, waits: Figure, steps: Figure) -> Figure {
        let up = |ms: u128| ms.div_ceil(1000);
        match self.millis(runs, waits, steps) {
            Figure::Exact(x) => Figure::Exact(up(x)),
            Figure::AtMost(x) => Figure::AtMost(up(x)),
            Figure::MoreThan(u128::MAX) => Figure::MoreThan(u128::MAX),
            Figure::MoreThan(x) => Figure::MoreThan(x / 1000),
            Figure::Unknown => Figure::Unknown,
        }
    }

    /// One line: `quiescence 200 ms per wait, 2 ms per step, 0 ms per run`.
    pub fn describe(&self) -> String {
        format!(
            "quiescence {} ms per wait, {} ms per step, {} ms per run",
            self.quiescence_ms, self.step_ms, self.run_ms
        )
    }
}

/// Estimated seconds as a duration (`14 min 5 s`), bounds marked (`>3 h 2 min`), `-` unknown.
pub fn seconds_text(f: Figure) -> String {
    match f {
        Figure::Exact(s) => duration_text(s),
        Figure::AtMost(s) => format!("<={}", duration_text(s)),
        Figure::MoreThan(u128::MAX) => "more than u128 s".into(),
        Figure::MoreThan(s) => format!(">{}", duration_text(s)),
        Figure::Unknown => "-".into(),
    }
}

/// A duration in seconds as `1 h 32 min`, `14 min 5 s` or `42 s`.
pub fn duration_text(seconds: u128) -> String {
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if h > 0 {
        format!("{} h {m} min", thousands(h))
    } else if m > 0 {
        format!("{m} min {s} s")
    } else {
        format!("{s} s")
    }
}

/// Default `--max-tests`.
pub const DEFAULT_MAX_TESTS: u128 = 1_000_000;
/// Default `--max-runs`. Runs and steps cost time when the suite is executed, not memory (tests
/// share their fragments, so a suite with 10^8 runs can be a small file), hence the high limits.
pub const DEFAULT_MAX_RUNS: u128 = 1_000_000_000;
/// Default `--max-steps`.
pub const DEFAULT_MAX_STEPS: u128 = 100_000_000_000;
/// Default `--max-nodes`: the suite JSON averages 25-40 bytes per node, so this keeps the
/// default file near 1 GB at most, and a streaming reader holds one test at a time.
pub const DEFAULT_MAX_NODES: u128 = 30_000_000;
/// Default [`Budget::max_plan_nodes`]: a plan node with its moves and the map entry that finds
/// it takes 300-400 bytes while a suite is planned, so planning stays under about 400 MB.
pub const DEFAULT_MAX_PLAN_NODES: usize = 1_000_000;
/// Default `--max-bytes` (1 GB).
pub const DEFAULT_MAX_BYTES: u128 = 1_000_000_000;
/// Default `--max-seconds`: one hour of estimated execution at the default timings, what a
/// release pipeline can run on every change; a longer suite is refused with advice (a smaller
/// `n`, another method, or coverage goals and `explore`) unless the limit is raised.
pub const DEFAULT_MAX_SECONDS: u128 = 3600;

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_tests: DEFAULT_MAX_TESTS,
            max_runs: DEFAULT_MAX_RUNS,
            max_steps: DEFAULT_MAX_STEPS,
            max_nodes: DEFAULT_MAX_NODES,
            max_bytes: DEFAULT_MAX_BYTES,
            max_plan_nodes: DEFAULT_MAX_PLAN_NODES,
            max_seconds: DEFAULT_MAX_SECONDS,
            timing: Timing::default(),
        }
    }
}

/// A suite refused because one or more of its figures exceed their limits: the first in budget
/// order in the fields, the others in `more`, so one refusal names every limit to raise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CostRefusal {
    /// Which suite (`unconditional suite for n = 5`).
    pub suite: String,
    /// Which figure (`runs`, `total steps`, ...).
    pub figure: &'static str,
    /// Its value.
    pub value: Figure,
    /// The limit.
    pub limit: u128,
    /// The flag that sets the limit.
    pub flag: &'static str,
    /// What the user can do.
    pub advice: String,
    /// The other figures over their limits, in budget order.
    pub more: Vec<Overrun>,
}

/// One more figure over its limit in a [`CostRefusal`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overrun {
    /// Which figure.
    pub figure: &'static str,
    /// Its value.
    pub value: Figure,
    /// The limit.
    pub limit: u128,
    /// The flag that sets the limit.
    pub flag: &'static str,
}

impl CostRefusal {
    /// The figures over their limits without the advice: `the s would have 10 tests, over the
    /// limit of 9 (--max-tests)`, for a table whose advice is given once for all its rows.
    pub fn overruns(&self) -> String {
        let mut text = String::new();
        self.write_overruns(&mut text)
            .expect("writing to a String cannot fail");
        text
    }

    fn write_overruns(&self, f: &mut impl std::fmt::Write) -> std::fmt::Result {
        write!(
            f,
            "the {} would have {} {}, over the limit of {} ({})",
            self.suite,
            self.value,
            self.figure,
            thousands(self.limit),
            self.flag
        )?;
        for o in &self.more {
            write!(
                f,
                ", and {} {}, over the limit of {} ({})",
                o.value,
                o.figure,
                thousands(o.limit),
                o.flag
            )?;
        }
        Ok(())
    }
}

impl std::fmt::Display for CostRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.write_overruns(f)?;
        write!(f, "; {}", self.advice)
    }
}

impl std::error::Error for CostRefusal {}

impl SuiteCosts {
    /// The figures in budget order, with their names, limits and flags.
    fn checks(&self, budget: &Budget) -> [(&'static str, Figure, u128, &'static str); 6] {
        [
            ("tests", self.tests, budget.max_tests, "--max-tests"),
            ("runs", self.runs, budget.max_runs, "--max-runs"),
            ("total steps", self.steps, budget.max_steps, "--max-steps"),
            (
                "estimated seconds",
                self.seconds(&budget.timing),
                budget.max_seconds,
                "--max-seconds",
            ),
            ("nodes", self.nodes, budget.max_nodes, "--max-nodes"),
            (
                "bytes of the suite file",
                self.bytes,
                budget.max_bytes,
                "--max-bytes",
            ),
        ]
    }

    /// The estimated seconds to run every path once at `timing`.
    pub fn seconds(&self, timing: &Timing) -> Figure {
        timing.seconds(self.runs, self.waits, self.steps)
    }

    /// The estimated time as text: `14 min 5 s`, `>3 h 2 min`, `-`.
    pub fn time_text(&self, timing: &Timing) -> String {
        seconds_text(self.seconds(timing))
    }

    /// Every figure over its limit, as one refusal naming each figure, its limit and its flag.
    pub fn check(
        &self,
        budget: &Budget,
        suite: &str,
        advice: &str,
    ) -> Result<(), Box<CostRefusal>> {
        let mut over = self
            .checks(budget)
            .into_iter()
            .filter(|&(_, value, limit, _)| value.exceeds(limit))
            .map(|(figure, value, limit, flag)| Overrun {
                figure,
                value,
                limit,
                flag,
            });
        let Some(first) = over.next() else {
            return Ok(());
        };
        Err(Box::new(CostRefusal {
            suite: suite.to_owned(),
            figure: first.figure,
            value: first.value,
            limit: first.limit,
            flag: first.flag,
            advice: advice.to_owned(),
            more: over.collect(),
        }))
    }

    /// One line: `tests 3, runs 9, steps 27, waits 4, nodes 12, longest 4, bytes 1,024,
    /// estimated time 1 s (every root-to-verdict path once at quiescence 200 ms per wait, ...)`,
    /// saying that `run` executes less ([`super::run_time`]).
    pub fn summary(&self, timing: &Timing) -> String {
        format!(
            "tests {}, runs {}, steps {}, waits {}, nodes {}, longest {}, bytes {}, estimated \
             time {} (every root-to-verdict path once at {}; `run` executes one branch per test \
             and prints its own prediction)",
            self.tests,
            self.runs,
            self.steps,
            self.waits,
            self.nodes,
            self.longest,
            self.bytes,
            self.time_text(timing),
            timing.describe()
        )
    }
}

/// Bytes the suite JSON writer emits around the tests: the header and the closing.
pub fn frame_bytes(header: &SuiteHeader) -> u128 {
    SuiteWriter::begin(crate::suite::json::ByteCounter(0), header)
        .and_then(|w| w.finish())
        .map_or(0, |c| u128::from(c.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_print_bounds_as_bounds() {
        assert_eq!(Figure::Exact(1234567).to_string(), "1,234,567");
        assert_eq!(Figure::Exact(12).to_string(), "12");
        assert_eq!(Figure::checked(None).to_string(), "more than u128");
        assert_eq!(Figure::MoreThan(1000).to_string(), ">1,000");
        assert_eq!(Figure::AtMost(1000).to_string(), "<=1,000");
        assert!(Figure::MoreThan(10).exceeds(10));
        assert!(!Figure::Exact(10).exceeds(10));
        assert!(Figure::AtMost(11).exceeds(10));
        assert!(!Figure::Unknown.exceeds(0));
        assert!(Figure::Exact(5).sort_key() < Figure::MoreThan(5).sort_key());
    }

    #[test]
    fn refusals_name_figure_limit_and_flag() {
        let costs = SuiteCosts {
            tests: Figure::Exact(10),
            runs: Figure::Exact(5_000),
            steps: Figure::Exact(50_000),
            waits: Figure::Exact(1_000),
            nodes: Figure::Unknown,
            longest: Figure::Exact(7),
            bytes: Figure::Unknown,
        };
        let budget = Budget {
            max_runs: 1_000,
            ..Budget::default()
        };
        let e = costs
            .check(&budget, "unconditional suite for n = 5", "try a smaller n")
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "the unconditional suite for n = 5 would have 5,000 runs, over the limit of 1,000 \
             (--max-runs); try a smaller n"
        );
        assert!(costs.check(&Budget::default(), "s", "a").is_ok());
        // 1,000 waits at 200 ms and 50,000 steps at 2 ms: 300 s.
        assert_eq!(costs.seconds(&Timing::default()), Figure::Exact(300));
        let slow = Budget {
            max_seconds: 299,
            ..Budget::default()
        };
        let e = costs.check(&slow, "s", "a").unwrap_err();
        assert_eq!((e.figure, e.flag), ("estimated seconds", "--max-seconds"));
        // Every figure over its limit is named in the one refusal, in budget order.
        let both = Budget {
            max_tests: 9,
            max_seconds: 299,
            ..Budget::default()
        };
        assert_eq!(
            costs.check(&both, "s", "a").unwrap_err().to_string(),
            "the s would have 10 tests, over the limit of 9 (--max-tests), and 300 estimated \
             seconds, over the limit of 299 (--max-seconds); a"
        );
        assert!(
            costs
                .summary(&Timing::default())
                .contains("estimated time 5 min 0 s")
        );
    }
}
