//! `ioco-auto`: the cheapest complete ioco suite, chosen exactly. Every candidate of
//! [`CANDIDATES`] is planned and counted ([`super::IocoSuite::costs`]); a candidate takes part
//! only when its suite is `n`-complete as planned (`T(S, n)` only when its merge recursion
//! terminates, `ioco-ads` only when its completeness condition holds) and within every budget.
//! The tests of each candidate that takes part are then built once and repeated ones left out
//! (`IocoSuite::without_repeated_tests`), so the table shows the figures of the suite
//! as it would be written. Time is the cost: the winner has the least estimated time at the
//! budget's timings ([`crate::suite::costs::Timing`]: quiescence timeouts dominate), then the
//! fewest runs, then the fewest total steps, then comes first in [`CANDIDATES`]. Candidates over
//! a budget are listed as refused; only when every candidate is left out does the choice fail.

use super::{
    Bound, Budget, Counting, IncompatibleSets, IocoMethod, IocoSuite, IocoSuiteError, SuiteCosts,
    SuiteOptions, plan_counted, resolve_bound,
};
use crate::model::SuspensionAutomaton;
use crate::suite::costs::{Figure, Timing};
use serde_json::{Value, json};

/// The candidates, in the order that breaks ties.
pub const CANDIDATES: &[IocoMethod] = &[
    IocoMethod::Complete,
    IocoMethod::Unconditional,
    IocoMethod::Counting(IncompatibleSets::Maximal),
    IocoMethod::Counting(IncompatibleSets::Largest),
    IocoMethod::Counting(IncompatibleSets::None),
    IocoMethod::CoverCounting(IncompatibleSets::Maximal),
    IocoMethod::CoverCounting(IncompatibleSets::Largest),
    IocoMethod::Ads,
];

/// A candidate's name in the table: the method, with the incompatible sets of `ioco-counting`.
pub fn candidate_name(method: IocoMethod) -> String {
    match method {
        IocoMethod::Counting(sets) | IocoMethod::CoverCounting(sets) => {
            format!("{}-{}", method.name(), sets.name())
        }
        other => other.name().to_string(),
    }
}

/// What became of one candidate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Complete and within the budgets.
    Fits,
    /// Not `n`-complete as planned (the reason).
    NotComplete(String),
    /// Over a budget, or its planning was (the refusal).
    Refused(String),
}

/// One row of the candidate table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The method.
    pub method: IocoMethod,
    /// Its figures, when it could be planned.
    pub costs: Option<SuiteCosts>,
    /// Whether it took part.
    pub status: Status,
}

/// The candidates and the winner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AutoChoice {
    /// Every candidate, in [`CANDIDATES`] order.
    pub candidates: Vec<Candidate>,
    /// Index of the winner in `candidates`.
    pub chosen: usize,
    /// The timings the estimated times are computed at.
    pub timing: Timing,
}

impl AutoChoice {
    /// The candidate table as aligned text, the winner marked.
    pub fn to_text(&self) -> String {
        let width = self
            .candidates
            .iter()
            .map(|c| candidate_name(c.method).len())
            .max()
            .unwrap_or(0)
            .max("method".len());
        let mut out = format!(
            "{:<width$} {:>12} {:>14} {:>16} {:>14} {:>14} {:>8} {:>15} {:>16}  status\n",
            "method", "tests", "runs", "steps", "waits", "nodes", "longest", "bytes", "time"
        );
        for (k, c) in self.candidates.iter().enumerate() {
            let status = match &c.status {
                Status::Fits if k == self.chosen => "chosen".to_string(),
                Status::Fits => "fits".to_string(),
                Status::NotComplete(why) => format!("not a candidate: {why}"),
                Status::Refused(why) => format!("refused: {why}"),
            };
            let f = |g: fn(&SuiteCosts) -> Figure| c.costs.as_ref().map_or(Figure::Unknown, g);
            let time = c
                .costs
                .as_ref()
                .map_or("-".to_string(), |x| x.time_text(&self.timing));
            out.push_str(&format!(
                "{:<width$} {:>12} {:>14} {:>16} {:>14} {:>14} {:>8} {:>15} {:>16}  {status}\n",
                candidate_name(c.method),
                f(|c| c.tests),
                f(|c| c.runs),
                f(|c| c.steps),
                f(|c| c.waits),
                f(|c| c.nodes),
                f(|c| c.longest),
                f(|c| c.bytes),
                time,
            ));
        }
        out.push_str(&format!("time estimated at {}\n", self.timing.describe()));
        out
    }

    /// The choice as recorded in the suite header.
    fn header_json(&self) -> Value {
        let rows: Vec<Value> = self
            .candidates
            .iter()
            .map(|c| {
                let status = match &c.status {
                    Status::Fits => "fits".to_string(),
                    Status::NotComplete(why) => format!("not a candidate: {why}"),
                    Status::Refused(why) => format!("refused: {why}"),
                };
                let figure = |g: fn(&SuiteCosts) -> Figure| {
                    c.costs
                        .as_ref()
                        .map_or(Value::Null, |x| json!(g(x).to_string()))
                };
                let seconds = c
                    .costs
                    .as_ref()
                    .map_or(Value::Null, |x| json!(x.seconds(&self.timing).to_string()));
                json!({
                    "method": candidate_name(c.method),
                    "tests": figure(|c| c.tests),
                    "runs": figure(|c| c.runs),
                    "steps": figure(|c| c.steps),
                    "waits": figure(|c| c.waits),
                    "seconds": seconds,
                    "status": status,
                })
            })
            .collect();
        json!({
            "chosen": candidate_name(self.candidates[self.chosen].method),
            "rule": "least estimated time, then fewest runs, then fewest total steps, among the complete candidates within the budgets, figures of the suites as written",
            "timing": {
                "run_ms": self.timing.run_ms,
                "quiescence_ms": self.timing.quiescence_ms,
                "step_ms": self.timing.step_ms,
            },
            "candidates": rows,
        })
    }
}

/// Every candidate planned and counted, and the winner with its suite (`None`: none fits).
pub struct Evaluation {
    /// Every candidate, in [`CANDIDATES`] order.
    pub candidates: Vec<Candidate>,
    /// The winner's index and suite.
    pub best: Option<(usize, IocoSuite)>,
}

/// The order of candidates: least estimated time, then fewest runs, then fewest steps.
fn rank(c: &SuiteCosts, timing: &Timing) -> [(u128, u8); 3] {
    [
        c.seconds(timing).sort_key(),
        c.runs.sort_key(),
        c.steps.sort_key(),
    ]
}

/// Plans and counts every candidate for bound `n` (see the module doc), general domain.
pub fn evaluate(
    sa: &SuspensionAutomaton,
    n: usize,
    budget: Budget,
) -> Result<Evaluation, IocoSuiteError> {
    evaluate_with(sa, n, budget, SuiteOptions::default())
}

/// [`evaluate`] with `options`.
pub fn evaluate_with(
    sa: &SuspensionAutomaton,
    n: usize,
    budget: Budget,
    options: SuiteOptions,
) -> Result<Evaluation, IocoSuiteError> {
    let mut candidates = Vec::new();
    let mut best: Option<(usize, IocoSuite)> = None;
    for &method in CANDIDATES {
        let planned = plan_counted(
            sa,
            method,
            Bound::States(n),
            budget,
            Counting::CompleteOnly,
            options,
        );
        let suite = match planned {
            Ok(s) => s,
            Err(e @ (IocoSuiteError::Budget { .. } | IocoSuiteError::Refused(_))) => {
                candidates.push(Candidate {
                    method,
                    costs: None,
                    status: Status::Refused(e.to_string()),
                });
                continue;
            }
            Err(e) => return Err(e),
        };
        let fits = suite.is_complete() && suite.check(&budget).is_ok();
        // The figures of the suite as written (the plan's bound them from above).
        let suite = if fits {
            suite.without_repeated_tests()
        } else {
            suite
        };
        let costs = suite.costs();
        let status = if !suite.is_complete() {
            Status::NotComplete(match method {
                IocoMethod::Complete => {
                    "its merge recursion does not end (it nests U(merge, n))".to_string()
                }
                _ => "its completeness condition fails (see its guarantee)".to_string(),
            })
        } else if let Err(e) = suite.check(&budget) {
            Status::Refused(format!("{} over {} ({})", e.figure, e.limit, e.flag))
        } else {
            Status::Fits
        };
        if status == Status::Fits {
            let better = best.as_ref().is_none_or(|(_, b)| {
                rank(&costs, &budget.timing) < rank(&b.costs(), &budget.timing)
            });
            if better {
                best = Some((candidates.len(), suite));
            }
        }
        candidates.push(Candidate {
            method,
            costs: Some(costs),
            status,
        });
    }
    Ok(Evaluation { candidates, best })
}

/// Plans and counts every candidate; returns the winner's suite (its header names `ioco-auto`
/// and records the choice) and the table. General domain.
pub fn choose(
    sa: &SuspensionAutomaton,
    bound: Bound,
    budget: Budget,
) -> Result<(IocoSuite, AutoChoice), IocoSuiteError> {
    choose_with(sa, bound, budget, SuiteOptions::default())
}

/// [`choose`] with `options`.
pub fn choose_with(
    sa: &SuspensionAutomaton,
    bound: Bound,
    budget: Budget,
    options: SuiteOptions,
) -> Result<(IocoSuite, AutoChoice), IocoSuiteError> {
    let n = resolve_bound(sa, bound)?;
    let Evaluation { candidates, best } = evaluate_with(sa, n, budget, options)?;
    let Some((chosen, suite)) = best else {
        let reasons: Vec<String> = candidates
            .iter()
            .map(|c| match &c.status {
                Status::NotComplete(_) => {
                    format!("{} is not complete here", candidate_name(c.method))
                }
                Status::Refused(why) => format!("{}: {why}", candidate_name(c.method)),
                Status::Fits => format!("{} fits", candidate_name(c.method)),
            })
            .collect();
        return Err(IocoSuiteError::NoCandidate {
            n,
            reasons: reasons.join("; "),
        });
    };
    let choice = AutoChoice {
        candidates,
        chosen,
        timing: budget.timing,
    };
    let mut suite = suite;
    let mut header = suite.header().clone();
    header.method = IocoMethod::Auto.name().into();
    header.extra.insert("auto".into(), choice.header_json());
    suite.set_header(header);
    suite.check(&budget)?;
    Ok((suite, choice))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identify::random::random_suspension;
    use crate::suite::ioco::testkit::fig_2_1;

    fn runs(c: &Candidate) -> u128 {
        c.costs.and_then(|c| c.runs.exact()).unwrap_or(u128::MAX)
    }

    #[test]
    fn the_winner_has_the_least_estimated_time_among_complete_fitting_candidates() {
        let budget = Budget {
            max_plan_nodes: 50_000,
            ..Budget::default()
        };
        let mut chosen_counting = 0;
        for seed in 0..10u64 {
            let sa = random_suspension(seed, 4, 2, 2);
            let Ok((suite, choice)) = choose(&sa, Bound::ExtraStates(0), budget) else {
                continue;
            };
            assert_eq!(choice.candidates.len(), CANDIDATES.len());
            let best = &choice.candidates[choice.chosen];
            assert_eq!(best.status, Status::Fits);
            // Leaving out repeated tests can only lower the planned figures.
            assert!(
                matches!(
                    (best.costs.map(|c| c.runs), suite.costs().runs),
                    (Some(Figure::Exact(planned)), Figure::Exact(kept)) if kept <= planned
                ),
                "seed {seed}: {}",
                choice.to_text()
            );
            for c in &choice.candidates {
                if c.status == Status::Fits {
                    let t = &choice.timing;
                    assert!(
                        rank(&best.costs.unwrap(), t) <= rank(&c.costs.unwrap(), t),
                        "seed {seed}: {}",
                        choice.to_text()
                    );
                    assert!(runs(c) < u128::MAX);
                }
                if c.method == IocoMethod::Complete && c.status != Status::Fits {
                    // T is left out only for a reason the table states.
                    assert!(matches!(
                        c.status,
                        Status::NotComplete(_) | Status::Refused(_)
                    ));
                }
            }
            chosen_counting += matches!(best.method, IocoMethod::Counting(_)) as usize;
            assert_eq!(suite.header().method, "ioco-auto");
            assert_eq!(
                suite.header().extra["auto"]["chosen"],
                candidate_name(best.method)
            );
        }
        assert!(chosen_counting > 0);
    }

    #[test]
    fn a_refused_candidate_is_listed_and_all_refused_is_an_error() {
        let sa = fig_2_1();
        let budget = Budget {
            max_runs: 300,
            ..Budget::default()
        };
        let (_, choice) = choose(&sa, Bound::States(3), budget).unwrap();
        let text = choice.to_text();
        assert!(
            text.contains("refused: runs over 300 (--max-runs)"),
            "{text}"
        );
        assert!(text.contains("chosen"), "{text}");
        let none = Budget {
            max_runs: 1,
            ..Budget::default()
        };
        let e = choose(&sa, Bound::States(3), none).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("no complete suite for n = 3 fits"),
            "{e}"
        );
    }
}
