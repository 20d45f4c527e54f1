//! Suite-size audit: for each bound `n` in a range, the size of the suite a method generates
//! (tests, nodes, total steps, longest test), the time it took and the process's peak memory,
//! stopping cleanly at the first `n` whose suite exceeds the budget.

use super::{Bound, Budget, IocoMethod, IocoSuiteError, generate};
use crate::model::SuspensionAutomaton;
use rayon::prelude::*;
use serde::Serialize;
use std::time::Instant;

/// One row of the size table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SizeRow {
    /// The bound.
    pub n: usize,
    /// Number of test cases.
    pub tests: u64,
    /// Total number of send/expect nodes over all tests.
    pub nodes: u64,
    /// Sum over tests of the longest root-to-leaf path (steps of one full run).
    pub steps: u64,
    /// The longest root-to-leaf path of any test.
    pub longest: u64,
    /// Seconds to generate and build all tests.
    pub seconds: f64,
    /// Peak resident memory of the process so far, in KiB, where the platform reports it.
    pub peak_kib: Option<u64>,
}

/// The outcome of a size audit: rows for every bound that fit, and why it stopped early.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SizeTable {
    /// Method name.
    pub method: String,
    /// One row per bound, in order.
    pub rows: Vec<SizeRow>,
    /// Why the audit stopped before the last bound, if it did.
    pub stopped: Option<String>,
}

/// Peak resident set size (Linux `VmHWM`), if available.
pub fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Audits `method` for every `n` in `ns`.
pub fn size_table(
    sa: &SuspensionAutomaton,
    method: IocoMethod,
    ns: impl IntoIterator<Item = usize>,
    budget: Budget,
) -> SizeTable {
    let mut rows = Vec::new();
    let mut stopped = None;
    for n in ns {
        let start = Instant::now();
        let suite = match generate(sa, method, Bound::States(n), budget) {
            Ok(s) => s,
            Err(e @ IocoSuiteError::Budget { .. }) | Err(e @ IocoSuiteError::ZeroBound) => {
                stopped = Some(format!("n = {n}: {e}"));
                break;
            }
        };
        let (nodes, steps, longest) = (0..suite.num_tests() as u64)
            .into_par_iter()
            .map(|k| {
                let t = suite.test(k as u128);
                (t.nodes.len() as u64, t.depth() as u64, t.depth() as u64)
            })
            .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2.max(b.2)));
        rows.push(SizeRow {
            n,
            tests: suite.num_tests() as u64,
            nodes,
            steps,
            longest,
            seconds: start.elapsed().as_secs_f64(),
            peak_kib: peak_memory_kib(),
        });
    }
    SizeTable {
        method: method.name().into(),
        rows,
        stopped,
    }
}

/// Parses a range of bounds: `4`, `1..6` or `1..=6` (both inclusive: `1..6` is 1 to 6).
pub fn parse_range(text: &str) -> Result<std::ops::RangeInclusive<usize>, String> {
    let bad = || format!("expected a bound like `4` or a range like `1..6`, found `{text}`");
    let num = |s: &str| s.trim().parse::<usize>().map_err(|_| bad());
    let range = match text.split_once("..") {
        None => {
            let n = num(text)?;
            n..=n
        }
        Some((a, b)) => num(a)?..=num(b.strip_prefix('=').unwrap_or(b))?,
    };
    if range.is_empty() || *range.start() == 0 {
        return Err(format!(
            "the range `{text}` must be non-empty and start at 1 or more"
        ));
    }
    Ok(range)
}

impl SizeTable {
    /// The table as aligned text.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "method {}\n{:>4} {:>10} {:>12} {:>12} {:>8} {:>9} {:>10}\n",
            self.method, "n", "tests", "nodes", "steps", "longest", "seconds", "peak_KiB"
        );
        for r in &self.rows {
            out.push_str(&format!(
                "{:>4} {:>10} {:>12} {:>12} {:>8} {:>9.3} {:>10}\n",
                r.n,
                r.tests,
                r.nodes,
                r.steps,
                r.longest,
                r.seconds,
                r.peak_kib.map_or("-".to_string(), |k| k.to_string())
            ));
        }
        if let Some(s) = &self.stopped {
            out.push_str(&format!("stopped at {s}\n"));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::suspension_from_marked;

    #[test]
    fn ranges() {
        assert_eq!(parse_range("1..6"), Ok(1..=6));
        assert_eq!(parse_range("2..=3"), Ok(2..=3));
        assert_eq!(parse_range("4"), Ok(4..=4));
        assert!(parse_range("0..3").is_err());
        assert!(parse_range("5..2").is_err());
        assert!(parse_range("x").unwrap_err().contains("found `x`"));
    }

    #[test]
    fn sizes_grow_and_stop_at_the_budget() {
        let budget = Budget {
            max_tests: 200,
            ..Budget::default()
        };
        let wide =
            suspension_from_marked("wide", 1, &[(0, "?a", 0), (0, "?b", 0), (0, "!x", 0)]).unwrap();
        let table = size_table(&wide, IocoMethod::Unconditional, 1..=8, budget);
        assert!(table.rows.len() >= 2, "{table:?}");
        assert!(table.rows.windows(2).all(|w| w[0].tests <= w[1].tests));
        assert!(
            table
                .rows
                .iter()
                .all(|r| r.nodes >= r.tests && r.longest > 0)
        );
        assert!(table.stopped.is_some());
        let text = table.to_text();
        assert!(text.contains("stopped at n ="), "{text}");
    }
}
