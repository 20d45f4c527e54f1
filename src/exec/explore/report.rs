//! What an exploration found ([`ExploreReport`]): its verdict, trace, coverage and goal tally,
//! as text (the coverage table) and as JSON (`--out FILE`).

use crate::exec::stdio::TimingReruns;
use std::time::Duration;

use super::options::{ExploreOptions, Policy, StopReason};

/// Coverage of the specification's reachable part so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coverage {
    /// States visited.
    pub states: usize,
    /// Reachable states.
    pub states_total: usize,
    /// Transitions taken.
    pub transitions: usize,
    /// Reachable transitions.
    pub transitions_total: usize,
    /// Of the reachable transitions, the quiescence loops (`state --delta--> state`), which
    /// are taken by observing silence.
    pub quiescence_loops: usize,
    /// Reachable states never visited, by name (the first [`UNCOVERED_LISTED`]).
    pub uncovered_states: Vec<String>,
    /// Reachable transitions never taken, as `state label` (the first [`UNCOVERED_LISTED`]).
    pub uncovered_transitions: Vec<String>,
}

/// How many missed states and transitions a report lists (their numbers are in the counts).
pub const UNCOVERED_LISTED: usize = 50;

/// What the progress callback sees after every step.
#[derive(Copy, Clone, Debug)]
pub struct ExploreStatus {
    /// Steps so far.
    pub steps: u64,
    /// Resets so far.
    pub resets: u64,
    /// States visited and reachable.
    pub states: (usize, usize),
    /// Transitions taken and reachable.
    pub transitions: (usize, usize),
}

/// What `Policy::Strategy` did with its goals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoalTally {
    /// Goals in the list (the given ones, then one per reachable transition).
    pub total: usize,
    /// Goals reached by playing their strategy.
    pub reached: usize,
    /// Goals found covered (on the way to others) when their turn came.
    pub covered_before: usize,
    /// Goals skipped: out of reach from the initial state, or the system kept not helping.
    pub skipped: usize,
    /// The skipped goals, described.
    pub skipped_goals: Vec<String>,
    /// The given goals ([`ExploreOptions::goals`]), described, with their outcome: `reached`,
    /// `skipped`, or `not reached` (the run stopped first).
    pub given: Vec<(String, &'static str)>,
}

/// The result of an exploration.
#[derive(Clone, Debug)]
pub struct ExploreReport {
    /// `fail` when a non-conforming observation was made, else `pass` (nothing found).
    pub failed: bool,
    /// Why the run stopped.
    pub stop: StopReason,
    /// Steps made (inputs sent and observations).
    pub steps: u64,
    /// Resets of the system after the first start.
    pub resets: u64,
    /// The trace since the last reset (for a failure: the counterexample, its last step the
    /// offending observation).
    pub trace: Vec<String>,
    /// For a failure: what went wrong, readably.
    pub message: Option<String>,
    /// Coverage reached.
    pub coverage: Coverage,
    /// The goals of `Policy::Strategy` (`None` for the other policies).
    pub goals: Option<GoalTally>,
    /// Wall time.
    pub elapsed: Duration,
    /// Per state of the specification's suspension automaton: whether the run visited it.
    pub visited: Vec<bool>,
    /// Per transition (states in order, each state's transitions in the order of
    /// `SuspensionAutomaton::enabled`): whether the run took it.
    pub taken: Vec<bool>,
    /// Set when the verdict rests on replays with scaled timeouts after a timing-dependent
    /// failure (the timing rule): the first failing run. With `failed` false, the verdict is
    /// `inconclusive` (reason `timing`).
    pub timing: Option<TimingReruns>,
}

impl ExploreReport {
    /// The verdict name.
    pub fn verdict(&self) -> &'static str {
        match (self.failed, &self.timing) {
            (true, _) => "fail",
            (false, Some(_)) => "inconclusive",
            (false, None) => "pass",
        }
    }

    /// The report as JSON (`ncomplete explore --out`).
    pub fn to_json(&self, options: &ExploreOptions) -> String {
        let policy = match options.policy {
            Policy::Random => serde_json::json!({"name": "random"}),
            Policy::InputBias { input } => serde_json::json!({"name": "bias", "input": input}),
            Policy::Goal => serde_json::json!({"name": "goal"}),
            Policy::Strategy => serde_json::json!({"name": "strategy"}),
        };
        let value = serde_json::json!({
            "verdict": self.verdict(),
            "stop": self.stop.as_str(),
            "message": self.message,
            "reason": (!self.failed && self.timing.is_some()).then_some("timing"),
            "first_trace": self.timing.as_ref().map(|t| &t.first_trace),
            "steps": self.steps,
            "resets": self.resets,
            "trace": self.trace,
            "seed": options.seed,
            "policy": policy,
            "coverage": {
                "states": self.coverage.states,
                "states_total": self.coverage.states_total,
                "transitions": self.coverage.transitions,
                "transitions_total": self.coverage.transitions_total,
                "quiescence_loops": self.coverage.quiescence_loops,
                "uncovered_listed": UNCOVERED_LISTED,
                "uncovered_states": self.coverage.uncovered_states,
                "uncovered_transitions": self.coverage.uncovered_transitions,
            },
            "goals": self.goals.as_ref().map(|g| serde_json::json!({
                "total": g.total,
                "reached": g.reached,
                "covered_before": g.covered_before,
                "skipped": g.skipped,
                "skipped_goals": g.skipped_goals,
                "given": g.given.iter().map(|(goal, outcome)| serde_json::json!({
                    "goal": goal,
                    "outcome": outcome,
                })).collect::<Vec<_>>(),
            })),
        });
        let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
        text.push('\n');
        text
    }

    /// The final coverage table and verdict, as text.
    pub fn to_text(&self) -> String {
        let c = &self.coverage;
        let percent = |a: usize, b: usize| {
            if b == 0 {
                100.0
            } else {
                100.0 * a as f64 / b as f64
            }
        };
        let mut text = format!(
            "coverage     covered  total  percent\nstates      {:>8} {:>6} {:>7.1}%\ntransitions {:>8} {:>6} {:>7.1}%\n",
            c.states,
            c.states_total,
            percent(c.states, c.states_total),
            c.transitions,
            c.transitions_total,
            percent(c.transitions, c.transitions_total),
        );
        if c.quiescence_loops > 0 {
            text.push_str(&format!(
                "(the transitions include {} quiescence loops: staying silent in a state that allows it)\n",
                c.quiescence_loops
            ));
        }
        let missed = |what: &str, missed: usize, listed: &[String], text: &mut String| {
            if missed == 0 {
                return;
            }
            let more = missed.saturating_sub(listed.len());
            let more = if more > 0 {
                format!(" (and {more} more)")
            } else {
                String::new()
            };
            text.push_str(&format!("missed {what}: {}{more}\n", listed.join(", ")));
        };
        missed(
            "states",
            c.states_total.saturating_sub(c.states),
            &c.uncovered_states,
            &mut text,
        );
        missed(
            "transitions",
            c.transitions_total.saturating_sub(c.transitions),
            &c.uncovered_transitions,
            &mut text,
        );
        if let Some(g) = &self.goals {
            text.push_str(&format!(
                "goals: {} reached by strategy, {} covered on the way, {} skipped, of {}\n",
                g.reached, g.covered_before, g.skipped, g.total
            ));
            for (goal, outcome) in &g.given {
                text.push_str(&format!("goal {goal}: {outcome}\n"));
            }
        }
        text.push_str(&format!(
            "steps: {}, resets: {}, stopped: {}\n",
            self.steps,
            self.resets,
            self.stop.as_str()
        ));
        match (&self.message, self.failed) {
            (Some(m), true) => text.push_str(&format!("explore: fail: {m}\n")),
            (Some(m), false) => text.push_str(&format!("explore: {m}\n")),
            (None, _) => text.push_str("explore: pass (no non-conforming observation)\n"),
        }
        text
    }
}
