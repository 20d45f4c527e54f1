//! What an STS run found ([`StsRunReport`]): a verdict per purpose executed, the run's
//! verdict and figures, the a posteriori coverage, as text and JSON.

use crate::sts::purposes::{Criterion, ratio};
use serde_json::json;
use std::fmt::Write as _;

/// The verdict of a purpose.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PurposeVerdict {
    /// The purpose's end was reached.
    Pass,
    /// The system left the purpose in a way the STS allows, every attempt.
    Inconclusive,
    /// The system did what the STS does not allow.
    Fail,
}

impl PurposeVerdict {
    /// `pass`, `inconclusive` or `fail`.
    pub fn as_str(self) -> &'static str {
        match self {
            PurposeVerdict::Pass => "pass",
            PurposeVerdict::Inconclusive => "inconclusive",
            PurposeVerdict::Fail => "fail",
        }
    }
}

/// What executing one purpose gave.
#[derive(Clone, Debug)]
pub struct PurposeOutcome {
    /// The purpose's switches, by name.
    pub switches: Vec<String>,
    /// Its verdict.
    pub verdict: PurposeVerdict,
    /// Attempts made.
    pub attempts: usize,
    /// The trace of the last attempt (`?in`, `!out`, `delta` for quiescence).
    pub trace: Vec<String>,
    /// Why it ended so (the failing observation, or what left the purpose).
    pub reason: String,
}

/// A run of purposes.
#[derive(Clone, Debug)]
pub struct StsRunReport {
    /// The model's name.
    pub model: String,
    /// Per purpose executed, in order (the run stops at the first failure).
    pub purposes: Vec<PurposeOutcome>,
    /// Purposes given.
    pub total: usize,
    /// Rounds asked for (the purposes executed at most `total * rounds` times).
    pub rounds: usize,
    /// Per switch of the model, whether an observed trace was taken through it.
    pub exercised: Vec<bool>,
    /// Switch names, for the report.
    pub switch_names: Vec<String>,
    /// The criterion whose items beyond switches are counted (`items`).
    pub criterion: Criterion,
    /// The criterion's items beyond switches, by name, each with whether an observed trace
    /// covered it (empty for switch coverage).
    pub items: Vec<(String, bool)>,
    /// Inputs sent and observations made (quiescence included).
    pub steps: u64,
    /// Inputs and observations up to and including the failing one, if any.
    pub steps_to_failure: Option<u64>,
}

impl StsRunReport {
    /// The run's verdict: `fail` if a purpose failed, else `inconclusive` if some purpose
    /// passed in no round, else `pass`.
    pub fn verdict(&self) -> PurposeVerdict {
        if self
            .purposes
            .iter()
            .any(|p| p.verdict == PurposeVerdict::Fail)
        {
            return PurposeVerdict::Fail;
        }
        let mut passed = vec![false; self.total];
        for (i, p) in self.purposes.iter().enumerate() {
            passed[i % self.total.max(1)] |= p.verdict == PurposeVerdict::Pass;
        }
        if passed.iter().all(|&p| p) {
            PurposeVerdict::Pass
        } else {
            PurposeVerdict::Inconclusive
        }
    }

    /// Switches exercised.
    pub fn exercised_count(&self) -> usize {
        self.exercised.iter().filter(|&&e| e).count()
    }

    fn unexercised(&self) -> Vec<&str> {
        self.switch_names
            .iter()
            .zip(&self.exercised)
            .filter(|(_, e)| !**e)
            .map(|(n, _)| n.as_str())
            .collect()
    }

    /// The criterion's items beyond switches that no observed trace covered.
    fn items_missed(&self) -> Vec<&str> {
        self.items
            .iter()
            .filter(|(_, e)| !e)
            .map(|(n, _)| n.as_str())
            .collect()
    }

    /// The report as text: a line per purpose, the failing trace, a posteriori coverage.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for (i, p) in self.purposes.iter().enumerate() {
            let _ = writeln!(
                s,
                "{}purpose {}/{} ({} steps: {}): {} after {} attempt{}: {}",
                if self.rounds > 1 {
                    format!("round {}, ", i / self.total.max(1) + 1)
                } else {
                    String::new()
                },
                i % self.total.max(1) + 1,
                self.total,
                p.switches.len(),
                p.switches.join(" "),
                p.verdict.as_str(),
                p.attempts,
                if p.attempts == 1 { "" } else { "s" },
                p.reason
            );
            if p.verdict == PurposeVerdict::Fail {
                let _ = writeln!(s, "  trace: {}", p.trace.join(" "));
            }
        }
        let _ = writeln!(
            s,
            "a posteriori switch coverage {}{}",
            ratio(self.exercised_count(), self.switch_names.len()),
            match self.unexercised() {
                u if u.is_empty() => String::new(),
                u => format!("; not exercised: {}", u.join(", ")),
            }
        );
        if self.criterion != Criterion::SWITCHES {
            let missed = self.items_missed();
            let _ = writeln!(
                s,
                "a posteriori {} coverage {} (pairs and bounds){}",
                self.criterion.name(),
                ratio(self.items.len() - missed.len(), self.items.len()),
                if missed.is_empty() {
                    String::new()
                } else {
                    format!("; not exercised: {}", missed.join(", "))
                }
            );
        }
        let _ = writeln!(
            s,
            "{} inputs and outputs; verdict: {}",
            self.steps,
            self.verdict().as_str()
        );
        s
    }

    /// The report as JSON (`ncomplete-sts-run`, version 1).
    pub fn to_json(&self, seed: u64) -> String {
        let purposes: Vec<serde_json::Value> = self
            .purposes
            .iter()
            .map(|p| {
                json!({
                    "switches": p.switches,
                    "verdict": p.verdict.as_str(),
                    "attempts": p.attempts,
                    "reason": p.reason,
                    "trace": p.trace,
                })
            })
            .collect();
        let mut doc = json!({
            "format": "ncomplete-sts-run",
            "version": 1,
            "model": self.model,
            "seed": seed,
            "verdict": self.verdict().as_str(),
            "purposes_given": self.total,
            "rounds": self.rounds,
            "inputs_and_outputs": self.steps,
            "inputs_and_outputs_to_failure": self.steps_to_failure,
            "a_posteriori_coverage": {
                "switches": self.switch_names.len(),
                "exercised": self.exercised_count(),
                "not_exercised": self.unexercised(),
            },
            "purposes": purposes,
        });
        if self.criterion != Criterion::SWITCHES {
            let missed = self.items_missed();
            doc["a_posteriori_item_coverage"] = json!({
                "criterion": self.criterion.name(),
                "items": self.items.len(),
                "exercised": self.items.len() - missed.len(),
                "not_exercised": missed,
            });
        }
        let mut text = serde_json::to_string_pretty(&doc).expect("JSON values serialize");
        text.push('\n');
        text
    }
}
