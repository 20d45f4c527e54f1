//! The goals a run of a goal suite (`generate --purpose|--cover`, `crate::goals::cases`) left
//! unreached, read from the suite's `goals` header field, and whether they may turn the run's
//! verdict.
//!
//! A joker goal (van den Bos Def. 6.11: reached only when the system helps) whose test ended
//! every attempt in `retry` was not reached because the system, within its rights, did not help:
//! a race-dependent goal (see [`crate::goals::Arena::reachable_without_races`]) against a fast system,
//! or an output choice the system did not make. That says nothing against the system, so such a
//! goal is listed and counted, but does not make the run inconclusive. A winning goal's test
//! cannot end in `retry` against a conforming system, and a test that ended inconclusive for any
//! other reason (timing) is not excused: both keep the run inconclusive.
//!
//! An excused test keeps the verdict `inconclusive` with a reason of its own,
//! `race-dependent goal` or `joker goal` ([`UnreachedGoal::reason`]): on its line of the run
//! (`t0007 inconclusive (race-dependent goal): ...`), in the JSON results (`"reason"`), the JUnit
//! file (the `<skipped>` message) and the HTML report; the counts give such tests apart as
//! `unreached goals`, not as inconclusive ([`GoalCoverage::counts`]).

use super::TestVerdict;
pub use super::records::EXCUSED_REASONS;
use super::records::VerdictCounts;
use crate::suite::SuiteHeader;
use std::collections::HashMap;

/// One goal of a suite's `goals` field whose test has a name.
#[derive(Clone, Debug, PartialEq, Eq)]
struct GoalEntry {
    goal: String,
    /// `None` for a winning goal, else the joker count.
    jokers: Option<u64>,
    race_dependent: bool,
}

/// A joker goal whose test ended in `retry` on every attempt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnreachedGoal {
    /// The goal in words.
    pub goal: String,
    /// Its test.
    pub test: String,
    /// Jokers its strategy needs.
    pub jokers: u64,
    /// Whether only a won race reaches it.
    pub race_dependent: bool,
}

impl UnreachedGoal {
    /// The reason its test is given in the results: `race-dependent goal` or `joker goal`.
    pub fn reason(&self) -> &'static str {
        EXCUSED_REASONS[usize::from(!self.race_dependent)]
    }
}

/// The goals of a goal suite, by the name of their test.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoalTable {
    by_test: HashMap<String, GoalEntry>,
}

impl GoalTable {
    /// The goals of the suite's `goals` header field; `None` when it has none (not a goal
    /// suite).
    pub fn of(header: &SuiteHeader) -> Option<GoalTable> {
        let entries = header.extra.get("goals")?.as_array()?;
        let mut by_test = HashMap::new();
        for e in entries {
            let Some(test) = e.get("test").and_then(|t| t.as_str()) else {
                continue;
            };
            let jokers = match e.get("reach").and_then(|r| r.as_str()) {
                Some("winning") => None,
                Some("jokers") => Some(e.get("jokers").and_then(|j| j.as_u64()).unwrap_or(1)),
                _ => continue,
            };
            by_test.insert(
                test.to_owned(),
                GoalEntry {
                    goal: e
                        .get("goal")
                        .and_then(|g| g.as_str())
                        .unwrap_or(test)
                        .into(),
                    jokers,
                    race_dependent: e.get("race_dependent").and_then(|r| r.as_bool()) == Some(true),
                },
            );
        }
        Some(GoalTable { by_test })
    }

    /// The unreached goal that excuses test `name` with this verdict and message: a joker
    /// goal's test whose every attempt ended in `retry`.
    pub fn excused(
        &self,
        name: &str,
        verdict: TestVerdict,
        message: Option<&str>,
    ) -> Option<UnreachedGoal> {
        let entry = self.by_test.get(name)?;
        match (verdict, entry.jokers) {
            (TestVerdict::Inconclusive, Some(jokers)) if ended_in_retry(message) => {
                Some(UnreachedGoal {
                    goal: entry.goal.clone(),
                    test: name.to_owned(),
                    jokers,
                    race_dependent: entry.race_dependent,
                })
            }
            _ => None,
        }
    }
}

/// What a run of a goal suite reached.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoalCoverage {
    /// Goals with a test.
    pub goals: usize,
    /// Goals whose test passed.
    pub reached: usize,
    /// Joker goals left unreached because the system did not help, in test order.
    pub unreached: Vec<UnreachedGoal>,
}

impl GoalCoverage {
    /// The coverage of a run: `None` when the suite has no `goals` field (not a goal suite).
    /// `outcomes` are the tests' names, verdicts and messages; a test counts as unreached when
    /// its message says every attempt ended in `retry`.
    pub fn of<'a>(
        header: &SuiteHeader,
        outcomes: impl IntoIterator<Item = (&'a str, TestVerdict, Option<&'a str>)>,
    ) -> Option<GoalCoverage> {
        let table = GoalTable::of(header)?;
        let mut coverage = GoalCoverage {
            goals: table.by_test.len(),
            ..GoalCoverage::default()
        };
        for (name, verdict, message) in outcomes {
            if !table.by_test.contains_key(name) {
                continue;
            }
            if verdict == TestVerdict::Pass {
                coverage.reached += 1;
            } else if let Some(unreached) = table.excused(name, verdict, message) {
                coverage.unreached.push(unreached);
            }
        }
        Some(coverage)
    }

    /// The run's report lines: one per unreached goal, then the goal count.
    pub fn lines(&self) -> String {
        let mut out = String::new();
        for u in &self.unreached {
            let jokers = if u.jokers == 1 {
                "1 joker".to_owned()
            } else {
                format!("{} jokers", u.jokers)
            };
            let why = if u.race_dependent {
                "race-dependent: a fast conforming system outputs before the input can be read"
            } else {
                "the system did not make the helping choice"
            };
            out.push_str(&format!(
                "unreached goal {} ({jokers}, {why}), test {}\n",
                u.goal, u.test
            ));
        }
        let races = self.unreached.iter().filter(|u| u.race_dependent).count();
        out.push_str(&format!(
            "goals: {} of {} reached, {} joker goals unreached ({races} race-dependent), not a failure\n",
            self.reached,
            self.goals,
            self.unreached.len()
        ));
        out
    }

    /// `counts` with the tests of unreached joker goals counted apart, as unreached goals, not
    /// as inconclusive: the suite verdict is then `inconclusive` only while some inconclusive
    /// test is not one of them.
    pub fn counts(&self, counts: VerdictCounts) -> VerdictCounts {
        let excused = self.unreached.len().min(counts.inconclusive);
        VerdictCounts {
            inconclusive: counts.inconclusive - excused,
            unreached_goals: counts.unreached_goals + excused,
            ..counts
        }
    }
}

/// Whether an inconclusive test's message says every attempt ended in `retry` (and not, say,
/// that timing made it inconclusive).
fn ended_in_retry(message: Option<&str>) -> bool {
    message.is_some_and(|m| m.contains("attempts ended in retry") && !m.contains("(timing)"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::SuiteModel;

    fn header(goals: serde_json::Value) -> SuiteHeader {
        let mut extra = serde_json::Map::new();
        extra.insert("goals".into(), goals);
        SuiteHeader {
            model: SuiteModel {
                name: "m".into(),
                inputs: vec![],
                outputs: vec![],
                quiescence: Some("delta".into()),
            },
            method: "cover-transitions".into(),
            n: None,
            guarantee: String::new(),
            extra,
        }
    }

    const RETRY: Option<&str> = Some("inconclusive: all 21 attempts ended in retry (...)");

    #[test]
    fn unreached_joker_goals_are_excused_and_others_are_not() {
        let h = header(serde_json::json!([
            {"goal": "w", "reach": "winning", "test": "tw"},
            {"goal": "r", "reach": "jokers", "jokers": 2, "race_dependent": true, "test": "tr"},
            {"goal": "c", "reach": "jokers", "jokers": 1, "race_dependent": false, "test": "tc"},
            {"goal": "u", "reach": "unreachable", "test": null},
        ]));
        let c = GoalCoverage::of(
            &h,
            [
                ("tw", TestVerdict::Pass, None),
                ("tr", TestVerdict::Inconclusive, RETRY),
                ("tc", TestVerdict::Inconclusive, RETRY),
            ],
        )
        .unwrap();
        assert_eq!((c.goals, c.reached, c.unreached.len()), (3, 1, 2));
        assert!(c.unreached[0].race_dependent && !c.unreached[1].race_dependent);
        assert_eq!(
            (c.unreached[0].reason(), c.unreached[1].reason()),
            ("race-dependent goal", "joker goal")
        );
        let counted = |c: &GoalCoverage, verdicts: &[TestVerdict]| {
            c.counts(VerdictCounts::of(verdicts.iter().copied()))
        };
        let both = counted(
            &c,
            &[
                TestVerdict::Pass,
                TestVerdict::Inconclusive,
                TestVerdict::Inconclusive,
            ],
        );
        assert_eq!((both.inconclusive, both.unreached_goals), (0, 2));
        assert_eq!(both.verdict(), TestVerdict::Pass);
        assert!(
            both.summary_line()
                .ends_with("(1 pass, 0 fail, 0 inconclusive, 2 goals unreached)\n")
        );
        assert!(c.lines().contains(
            "unreached goal r (2 jokers, race-dependent: a fast conforming system outputs before the input can be read), test tr\n"
        ));
        assert!(c.lines().ends_with(
            "goals: 1 of 3 reached, 2 joker goals unreached (1 race-dependent), not a failure\n"
        ));
        // A winning goal left inconclusive, or a joker goal inconclusive for timing, is not excused.
        for (name, message) in [
            ("tw", RETRY),
            ("tr", Some("inconclusive (timing): ...")),
            ("tr", None),
        ] {
            let c = GoalCoverage::of(&h, [(name, TestVerdict::Inconclusive, message)]).unwrap();
            assert!(c.unreached.is_empty());
            let counts = counted(&c, &[TestVerdict::Inconclusive]);
            assert_eq!(counts.verdict(), TestVerdict::Inconclusive);
        }
        // A fail stays a fail.
        let failed = counted(&c, &[TestVerdict::Fail]);
        assert_eq!(failed.verdict(), TestVerdict::Fail);
        // A suite without goals has no goal coverage.
        let mut plain = h.clone();
        plain.extra.clear();
        assert!(GoalCoverage::of(&plain, []).is_none());
    }
}
