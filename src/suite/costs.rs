//! What a suite costs to write, load and run, and the budgets that refuse a suite before a byte
//! of it is written (issue 11: budgets on tests, runs, total steps, nodes and bytes).
//!
//! The figures, for the suite JSON v1 of [`super::json`]:
//! - *tests*: test cases;
//! - *runs*: root-to-verdict paths summed over all tests (the executions needed to see every
//!   verdict of every test once);
//! - *steps*: labels (inputs and outputs) summed over all those paths;
//! - *nodes*: send/expect nodes summed over all tests (what a reader must hold);
//! - *longest*: labels on the longest path of any test;
//! - *bytes*: the size of the JSON file.
//!
//! Each figure is exact ([`Figure::Exact`]), a lower bound when counting stopped at a limit or
//! overflowed `u128` ([`Figure::MoreThan`]), an upper bound ([`Figure::AtMost`], Mealy suites
//! before prefix removal), or not counted ([`Figure::Unknown`], when a cheaper figure already
//! refused the suite). A lower or upper bound is never printed as if it were exact.

use super::{SuiteHeader, SuiteWriter};
use serde::{Serialize, Serializer};
use std::fmt;

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

/// `12345678` as `12,345,678`.
pub fn thousands(x: u128) -> String {
    let digits = x.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
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
    /// Most bytes of suite JSON (`--max-bytes`).
    pub max_bytes: u128,
    /// Most plan nodes (shared test fragments) an ioco suite may have while it is planned,
    /// counted over all plans alive at once (the plan and its normal form, every nested suite).
    pub max_plan_nodes: usize,
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

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_tests: DEFAULT_MAX_TESTS,
            max_runs: DEFAULT_MAX_RUNS,
            max_steps: DEFAULT_MAX_STEPS,
            max_nodes: DEFAULT_MAX_NODES,
            max_bytes: DEFAULT_MAX_BYTES,
            max_plan_nodes: DEFAULT_MAX_PLAN_NODES,
        }
    }
}

/// A suite refused because one of its figures exceeds its limit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the {suite} would have {value} {figure}, over the limit of {} ({flag}); {advice}",
    thousands(*limit)
)]
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
}

impl SuiteCosts {
    /// The figures in budget order, with their names, limits and flags.
    fn checks(&self, budget: &Budget) -> [(&'static str, Figure, u128, &'static str); 5] {
        [
            ("tests", self.tests, budget.max_tests, "--max-tests"),
            ("runs", self.runs, budget.max_runs, "--max-runs"),
            ("total steps", self.steps, budget.max_steps, "--max-steps"),
            ("nodes", self.nodes, budget.max_nodes, "--max-nodes"),
            ("bytes of JSON", self.bytes, budget.max_bytes, "--max-bytes"),
        ]
    }

    /// The first figure over its limit, as a refusal naming the figure, the limit and the flag.
    pub fn check(
        &self,
        budget: &Budget,
        suite: &str,
        advice: &str,
    ) -> Result<(), Box<CostRefusal>> {
        for (figure, value, limit, flag) in self.checks(budget) {
            if value.exceeds(limit) {
                return Err(Box::new(CostRefusal {
                    suite: suite.to_owned(),
                    figure,
                    value,
                    limit,
                    flag,
                    advice: advice.to_owned(),
                }));
            }
        }
        Ok(())
    }

    /// One line: `tests 3, runs 9, steps 27, nodes 12, longest 4, bytes 1,024`.
    pub fn summary(&self) -> String {
        format!(
            "tests {}, runs {}, steps {}, nodes {}, longest {}, bytes {}",
            self.tests, self.runs, self.steps, self.nodes, self.longest, self.bytes
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
    }
}
