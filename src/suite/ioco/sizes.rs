//! Suite-size audit: for each bound `n` in a range, the figures of the suite a method generates
//! (tests, runs, total steps, waits, nodes, longest test, bytes of JSON and the estimated time
//! to run it; see [`crate::suite::costs`]), counted from the suite's plan without building its
//! tests (`ioco-auto`: of the chosen suite as written), the time it took and the process's peak
//! memory, stopping cleanly after the first `n` whose suite exceeds a budget.

use super::auto;
use super::domain::SuiteOptions;
use super::error::IocoSuiteError;
use super::method::{Bound, IocoMethod};
use super::suite::{Counting, plan_counted};
use crate::model::SuspensionAutomaton;
use crate::suite::costs::{Budget, Figure, SuiteCosts, seconds_text};
use serde::Serialize;
use std::time::Instant;

/// One row of the size table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SizeRow {
    /// The bound.
    pub n: usize,
    /// The suite's cost figures.
    #[serde(flatten)]
    pub costs: SuiteCosts,
    /// Estimated seconds to run every path once at the budget's timings.
    pub estimated_seconds: Figure,
    /// For `ioco-auto`: the method chosen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chosen: Option<String>,
    /// Seconds to plan and count.
    pub seconds: f64,
    /// Peak resident memory of the process so far, in KiB, where the platform reports it.
    pub peak_kib: Option<u64>,
}

/// The outcome of a size audit: rows for every bound up to the first refused one, and why it
/// stopped early.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SizeTable {
    /// Method name.
    pub method: String,
    /// One row per bound, in order.
    pub rows: Vec<SizeRow>,
    /// Why the audit stopped, if it did.
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
    options: SuiteOptions,
) -> SizeTable {
    let mut rows = Vec::new();
    let mut stopped = None;
    for n in ns {
        let start = Instant::now();
        let planned = if method == IocoMethod::Auto {
            auto::choose_with(sa, Bound::States(n), budget, options).map(|(suite, choice)| {
                let name = auto::candidate_name(choice.candidates[choice.chosen].method);
                (suite, Some(name))
            })
        } else {
            let bound = Bound::States(n);
            plan_counted(sa, method, bound, budget, Counting::Always, options).map(|s| (s, None))
        };
        let (suite, chosen) = match planned {
            Ok(x) => x,
            Err(e) => {
                stopped = Some(format!("n = {n}: {e}"));
                break;
            }
        };
        rows.push(SizeRow {
            n,
            costs: suite.costs(),
            estimated_seconds: suite.costs().seconds(&budget.timing),
            chosen,
            seconds: start.elapsed().as_secs_f64(),
            peak_kib: peak_memory_kib(),
        });
        if let Err(e) = suite.check(&budget) {
            stopped = Some(format!("n = {n}: {}", IocoSuiteError::from(e)));
            break;
        }
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
            "method {}\n{:>4} {:>12} {:>14} {:>16} {:>14} {:>16} {:>14} {:>8} {:>15} {:>9} {:>10}{}\n",
            self.method,
            "n",
            "tests",
            "runs",
            "steps",
            "waits",
            "est. time",
            "nodes",
            "longest",
            "bytes",
            "seconds",
            "peak_KiB",
            if self.rows.iter().any(|r| r.chosen.is_some()) {
                "  chosen"
            } else {
                ""
            }
        );
        for r in &self.rows {
            out.push_str(&format!(
                "{:>4} {:>12} {:>14} {:>16} {:>14} {:>16} {:>14} {:>8} {:>15} {:>9.3} {:>10}{}\n",
                r.n,
                r.costs.tests,
                r.costs.runs,
                r.costs.steps,
                r.costs.waits,
                seconds_text(r.estimated_seconds),
                r.costs.nodes,
                r.costs.longest,
                r.costs.bytes,
                r.seconds,
                r.peak_kib.map_or("-".to_string(), |k| k.to_string()),
                r.chosen
                    .as_ref()
                    .map_or(String::new(), |c| format!("  {c}"))
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
    use crate::suite::costs::Figure;

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
        let table = size_table(
            &wide,
            IocoMethod::Unconditional,
            1..=8,
            budget,
            SuiteOptions::default(),
        );
        assert!(table.rows.len() >= 2, "{table:?}");
        let exact = |f: Figure| f.exact().unwrap_or(u128::MAX);
        assert!(
            table
                .rows
                .windows(2)
                .all(|w| exact(w[0].costs.tests) <= exact(w[1].costs.tests))
        );
        // Every row but the refused last one is counted exactly.
        let counted = &table.rows[..table.rows.len() - 1];
        assert!(
            counted
                .iter()
                .map(|r| r.costs)
                .all(|c| exact(c.nodes) >= exact(c.tests)
                    && exact(c.runs) >= exact(c.tests)
                    && exact(c.steps) >= exact(c.runs)
                    && exact(c.longest) > 0
                    && c.bytes.exact().is_some())
        );
        assert!(table.stopped.is_some());
        let text = table.to_text();
        assert!(text.contains("stopped at n ="), "{text}");
    }
}
