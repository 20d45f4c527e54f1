//! The requirements coverage of a run (issue 45, GraphWalker's shape): for a suite whose header
//! names the tests of each requirement of its model (`crate::suite::requirements`), each
//! requirement's tests and how they ended.
//!
//! A requirement is `failed` when a test touching it failed (a test's failure counts against
//! every requirement its tree touches: the verdict is the test's, not a transition's),
//! `passed` when no such test failed and some passed, `inconclusive` when its tests were all
//! inconclusive, and `not covered` when no test of the suite touches it. The run prints one line
//! per requirement and a count; the JSON results and the HTML report hold the same table, the
//! JUnit file names each test's requirements as properties.

use super::TestVerdict;
use crate::suite::SuiteHeader;
use std::collections::HashMap;

/// One requirement's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequirementRow {
    /// The requirement.
    pub name: String,
    /// Tests of the suite touching it.
    pub tests: usize,
    /// Those that passed.
    pub pass: usize,
    /// Those that failed.
    pub fail: usize,
    /// Those that were inconclusive.
    pub inconclusive: usize,
}

impl RequirementRow {
    /// `failed`, `passed`, `inconclusive` or `not covered`.
    pub fn status(&self) -> &'static str {
        if self.fail > 0 {
            "failed"
        } else if self.pass > 0 {
            "passed"
        } else if self.tests > 0 {
            "inconclusive"
        } else {
            "not covered"
        }
    }
}

/// The rows of a run, in requirement name order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RequirementCoverage {
    /// One row per requirement of the model.
    pub rows: Vec<RequirementRow>,
}

impl RequirementCoverage {
    /// The coverage of a run of the suite of `header` whose tests ended with these verdicts;
    /// `None` when the header names no requirements. A test named in the header that did not
    /// run counts for none of the verdicts.
    pub fn of<'a>(
        header: &SuiteHeader,
        verdicts: impl IntoIterator<Item = (&'a str, TestVerdict)>,
    ) -> Option<RequirementCoverage> {
        let named = crate::suite::requirements::of_header(header);
        if named.is_empty() {
            return None;
        }
        let verdicts: HashMap<&str, TestVerdict> = verdicts.into_iter().collect();
        let rows = named
            .into_iter()
            .map(|(name, tests)| {
                let mut row = RequirementRow {
                    name,
                    tests: tests.len(),
                    pass: 0,
                    fail: 0,
                    inconclusive: 0,
                };
                for t in &tests {
                    match verdicts.get(t.as_str()) {
                        Some(TestVerdict::Pass) => row.pass += 1,
                        Some(TestVerdict::Fail) => row.fail += 1,
                        Some(TestVerdict::Inconclusive) => row.inconclusive += 1,
                        None => {}
                    }
                }
                row
            })
            .collect();
        Some(RequirementCoverage { rows })
    }

    /// The run's report lines: one per requirement, then the count by status.
    pub fn lines(&self) -> String {
        let mut out = String::new();
        for r in &self.rows {
            out.push_str(&format!(
                "requirement {}: {} ({} tests: {} pass, {} fail, {} inconclusive)\n",
                r.name,
                r.status(),
                r.tests,
                r.pass,
                r.fail,
                r.inconclusive
            ));
        }
        let count = |status: &str| self.rows.iter().filter(|r| r.status() == status).count();
        out.push_str(&format!(
            "requirements: {} passed, {} failed, {} inconclusive, {} not covered\n",
            count("passed"),
            count("failed"),
            count("inconclusive"),
            count("not covered")
        ));
        out
    }

    /// The rows as the JSON results list them.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::Value::Array(
            (self.rows.iter())
                .map(|r| {
                    serde_json::json!({
                        "requirement": r.name,
                        "status": r.status(),
                        "tests": r.tests,
                        "pass": r.pass,
                        "fail": r.fail,
                        "inconclusive": r.inconclusive,
                    })
                })
                .collect(),
        )
    }
}

pub use crate::suite::requirements::by_test;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::SuiteModel;

    #[test]
    fn rows_count_verdicts_and_give_a_status() {
        let mut extra = serde_json::Map::new();
        extra.insert(
            "requirements".into(),
            serde_json::json!({"A": ["t1", "t2"], "B": ["t2"], "C": [], "D": ["t3"]}),
        );
        let header = header_with(extra);
        let c = RequirementCoverage::of(
            &header,
            [
                ("t1", TestVerdict::Pass),
                ("t2", TestVerdict::Fail),
                ("t3", TestVerdict::Inconclusive),
            ],
        )
        .unwrap();
        let status: Vec<&str> = c.rows.iter().map(|r| r.status()).collect();
        assert_eq!(status, ["failed", "failed", "not covered", "inconclusive"]);
        assert_eq!(
            c.lines().lines().last(),
            Some("requirements: 0 passed, 2 failed, 1 inconclusive, 1 not covered")
        );
        let passing = RequirementCoverage::of(&header, [("t1", TestVerdict::Pass)]).unwrap();
        assert_eq!(passing.rows[0].status(), "passed");
        assert_eq!(by_test(&header)["t2"], ["A", "B"]);
        header_without_requirements_has_none();
    }

    /// The header of an empty suite with these extra fields.
    fn header_with(extra: serde_json::Map<String, serde_json::Value>) -> SuiteHeader {
        SuiteHeader {
            model: SuiteModel {
                name: "m".into(),
                inputs: vec![],
                outputs: vec![],
                quiescence: None,
            },
            method: "w".into(),
            n: None,
            guarantee: String::new(),
            extra,
        }
    }

    fn header_without_requirements_has_none() {
        let header = header_with(serde_json::Map::new());
        assert!(RequirementCoverage::of(&header, []).is_none());
    }
}
