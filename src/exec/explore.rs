//! On-the-fly testing (`ncomplete explore`): the TorX test derivation (seed 000, TorX thesis
//! Algorithm 2.2.18: with `S = s after σ`, at every step either end the test case, supply an
//! input, or observe the next output, failing on an output not in `out(S)`) executed directly
//! against a system, without a suite.
//!
//! The specification is a suspension automaton (an LTS through `lts_to_suspension`, TorX Def.
//! 2.2.12; a Mealy machine through `mealy_to_suspension`); one of its states is the set of
//! specification states the observed trace can lead to, so tracking the trace is one step per
//! observation. Only inputs the specification enables are sent (after an unspecified input ioco
//! allows anything). An observed output, or quiescence (silence for the quiescence timeout), that
//! the current state does not enable is `fail` with the trace since the last reset: ioco's
//! `out(i after σ) ⊆ out(s after σ)` is violated there.
//!
//! Which move to make is a [`Policy`]: uniform among the enabled inputs and waiting; Goga's
//! probabilities (seed 001, Sec. 5.2, the modified TorX algorithm: input with probability `p2`, every input alike, observe
//! with `p3`, end the run with `p1`); or goal-directed: the shortest path in the specification
//! to the nearest state with an uncovered transition, sending its inputs and waiting where it
//! goes through an output (the tester's view: outputs are the system's choice, so the path is
//! re-planned after every observation). A run stops at the first failure, after a step budget,
//! at a coverage target (every state or every transition of the specification's reachable part
//! seen), or at a time limit.
//!
//! The input/output race (the rule of [`super::stdio`]): an output that arrives after an input
//! was sent may have been written before the system read it. Besides the reading the tester
//! follows (`state`: every input read as soon as it was sent), the explorer keeps the other
//! readings of the run since the reset, each a specification state, the number of inputs sent
//! that the system has read in it, and its labels. Sending an input keeps the reading in which
//! it is still unread; an output steps every reading; quiescence ends the readings with an input
//! unread. An observation fails only when no reading allows it; when the followed reading is
//! refuted, the first other one (with every input read) is followed instead (its labels become
//! the run's, the goal strategy's position is replayed). A reading in which the system read an
//! input the specification does not enable allows anything after it (ioco), so the run cannot
//! fail any more: the explorer resets. Coverage counts the transitions of the followed reading.
//!
//! `Policy::Goal` gives each uncovered transition `GOAL_PATIENCE` tries (waits in its state
//! for an output the system does not give; runs that ended in a reset while it was the target)
//! and then sets it aside: a conforming system need not offer every output, and resetting for
//! what it never offers would dominate the run. Once every uncovered transition is set aside
//! the moves are uniform.
//!
//! The timing rule (issue 41): a run that failed with a timing-dependent observation is
//! replayed from a reset with every timeout x4, then x16 (`replay_timing_fail`); a replay
//! repeats the whole run since the reset, each wait at the scaled timeout. A missing output
//! (the wait ended in quiescence, the response timeout, or a declared timer output where
//! another output was due) is confirmed without a replay when nothing timing-dependent before
//! it could have misled the tester: the wait goes on in place up to the x4, then the x16 wait
//! (`Explorer::confirm_in_place` proves that this is what a replay sees), and an output no
//! reading allows, read in a wait after such a run, is a `fail` at once. The claim does not
//! hold for every prefix: after a quiescence observed where an output was allowed, an output
//! read before an input could be sent or output-first, or a timer output where another output
//! was allowed, a slow conforming system's late output may have been read as a later step's, the readings since then may all be wrong, and the final silence may be right; there
//! the run is replayed. `ncomplete run` and the generated pytest and Cargo runtimes keep the
//! replay: the same argument holds for a test case, but a test is replayed from its own short
//! start (its depth, not the whole run since a reset), so waiting in place would save little
//! and would be a second way to decide that the two independent runtimes must both implement
//! alike. The generated on-the-fly testers (`render --explore-spec`) follow this rule too (the
//! argument holds for them unchanged): they wait in place and replay on the same conditions.
//!
//! The system is an [`Adapter`]: a process on the stdio protocol (the timeouts and failure rules
//! of [`super::stdio`]), or a model in process ([`ModelAdapter`], outputs chosen by a seeded
//! generator as `ncomplete simulate --choose random` does).

use super::error::ExecError;
use super::simulate::{InputEnabling, SimulatedSystem};
pub use super::spec_automaton::specification_automaton;
use super::stdio::{
    Adapter, Execution, Observation, TIMING_SCALES, Timeouts, TimingReruns, send_grace, trace_text,
};
use super::sut::suspension_labels;
use crate::goals::{Goal, Position, Reachability, Strategy, reach_strategy};
use crate::model::{LabelId, StateId, SuspensionAutomaton};
use crate::rng::SplitMix64;
use crate::suite::SuiteModel;
use std::borrow::Cow;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Resolution of probabilities given as fractions.
const PROBABILITY_SCALE: usize = 1_000_000;
/// Share of goal-directed moves replaced by a uniformly random one, so that a goal the system
/// keeps avoiding (an output it never gives) cannot trap the tester.
const GOAL_RANDOM_PERMILLE: usize = 100;
/// Steps `Policy::Strategy` plays for one goal without progress (the system not helping at
/// joker states, or resets for a goal out of reach from the current position) before it skips
/// the goal.
const STRATEGY_PATIENCE: u32 = 40;
/// Tries `Policy::Goal` gives an uncovered transition before it sets it aside: waits in its
/// state for an output the system does not give, or runs that ended in a reset because it went
/// out of reach while it was the target.
const GOAL_PATIENCE: u32 = 6;

/// How the tester chooses its next move.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Policy {
    /// Uniformly among the inputs the specification enables and waiting for an output; the run
    /// is ended (reset) with the reset probability.
    Random,
    /// Goga's probabilities: send an input (uniformly among the enabled ones) with probability
    /// `input`, else wait; the run is ended with the reset probability.
    InputBias {
        /// Probability of sending an input when one is enabled.
        input: f64,
    },
    /// Steer to the nearest state with an uncovered transition by shortest paths over the
    /// specification; reset when nothing uncovered is reachable; uniform once all is covered.
    Goal,
    /// Play the attractor or joker strategy (van den Bos Ch. 6, [`crate::goals`]) of one goal at
    /// a time: the goals of [`ExploreOptions::goals`] first, then every transition of the
    /// specification in state and label order, each taken while still uncovered; a goal out of
    /// reach from the current position is retried after a reset, skipped when out of reach from
    /// the initial state or when the system kept refusing to help; uniform once all are done.
    Strategy,
}

/// When a run stops (besides a failure).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CoverageTarget {
    /// Every reachable state of the specification visited.
    States,
    /// Every transition of the specification's reachable part taken (inputs, outputs, δ).
    Transitions,
}

/// The options of an exploration.
#[derive(Clone, Debug)]
pub struct ExploreOptions {
    /// The move policy.
    pub policy: Policy,
    /// Seed of the tester's choices.
    pub seed: u64,
    /// Probability of ending the run and resetting the system before a move (Goga's `p1`).
    pub reset_probability: f64,
    /// Stop after this many steps (inputs sent and observations made).
    pub max_steps: u64,
    /// Stop once this coverage is complete.
    pub target: Option<CoverageTarget>,
    /// Stop after this much time.
    pub time_limit: Option<Duration>,
    /// The timeouts of observations.
    pub timeouts: Timeouts,
    /// Goals `Policy::Strategy` steers to before the transition coverage goals (a test purpose,
    /// a regular expression goal).
    pub goals: Vec<Goal>,
}

impl Default for ExploreOptions {
    fn default() -> Self {
        ExploreOptions {
            policy: Policy::Random,
            seed: 0,
            reset_probability: 0.01,
            max_steps: 1000,
            target: None,
            time_limit: None,
            timeouts: Timeouts::default(),
            goals: Vec::new(),
        }
    }
}

/// Why a run stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// An observation the specification does not allow (or a broken system).
    Failure,
    /// The step budget was used up.
    StepBudget,
    /// The coverage target was reached.
    Coverage,
    /// The time limit passed.
    TimeLimit,
}

impl StopReason {
    /// The name used in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            StopReason::Failure => "failure",
            StopReason::StepBudget => "step budget",
            StopReason::Coverage => "coverage target reached",
            StopReason::TimeLimit => "time limit",
        }
    }
}

/// The specification as the tester tracks it: a suspension automaton, its labels, and the
/// states and transitions reachable from its initial state (what coverage counts).
pub struct ExploreSpec {
    sa: SuspensionAutomaton,
    labels: SuiteModel,
    reachable: Vec<bool>,
    /// Per state, the index of its first transition in the transition numbering.
    first_transition: Vec<usize>,
    num_reachable_states: usize,
    num_reachable_transitions: usize,
    /// Reachable quiescence loops (counted among the transitions).
    num_reachable_quiescence: usize,
}

impl ExploreSpec {
    /// The specification from its suspension automaton.
    pub fn new(sa: SuspensionAutomaton) -> Self {
        let reachable = crate::model::RestrictToReachable::reachable(&sa);
        let mut first_transition = Vec::with_capacity(sa.num_states() + 1);
        first_transition.push(0);
        for q in sa.states() {
            first_transition.push(first_transition[q.index()] + sa.enabled(q).len());
        }
        let count = |c: crate::goals::Coverage| usize::try_from(c.count(&sa)).unwrap_or(usize::MAX);
        let delta = sa.quiescence();
        let num_reachable_quiescence = sa
            .states()
            .filter(|q| reachable[q.index()])
            .filter(|&q| sa.enabled(q).iter().any(|&(l, _)| l == delta))
            .count();
        ExploreSpec {
            labels: suspension_labels(&sa),
            num_reachable_quiescence,
            num_reachable_states: count(crate::goals::Coverage::States),
            num_reachable_transitions: count(crate::goals::Coverage::Transitions),
            reachable,
            first_transition,
            sa,
        }
    }

    /// The specification's labels (inputs, outputs, quiescence by name).
    pub fn labels(&self) -> &SuiteModel {
        &self.labels
    }

    /// The suspension automaton.
    pub fn automaton(&self) -> &SuspensionAutomaton {
        &self.sa
    }

    fn transition_index(&self, q: StateId, k: usize) -> usize {
        self.first_transition[q.index()] + k
    }

    fn num_transitions(&self) -> usize {
        self.first_transition[self.sa.num_states()]
    }

    /// A label as written in traces.
    fn marked(&self, l: LabelId) -> String {
        let name = self.sa.alphabet.name(l);
        if l == self.sa.quiescence() {
            name.to_owned()
        } else if self.sa.alphabet.is_input(l) {
            format!("?{name}")
        } else {
            format!("!{name}")
        }
    }
}

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

/// A model acting as the system in process: outputs (quiescence among them) are chosen by a
/// seeded generator, inputs the model refuses are ignored, as `ncomplete simulate --choose
/// random` does (an input is taken before a pending output).
pub struct ModelAdapter {
    system: SimulatedSystem,
    inputs: Vec<String>,
    rng: SplitMix64,
    state: u32,
}

impl ModelAdapter {
    /// The implementation `sa` over the specification's `labels`; `seed` drives its choices.
    pub fn new(
        sa: &SuspensionAutomaton,
        labels: &SuiteModel,
        seed: u64,
    ) -> Result<Self, ExecError> {
        let system = SimulatedSystem::from_suspension(sa, labels, InputEnabling::SelfLoop)?;
        let state = system.initial();
        Ok(ModelAdapter {
            system,
            inputs: labels.inputs.clone(),
            rng: SplitMix64::new(seed),
            state,
        })
    }
}

impl Adapter for ModelAdapter {
    fn reset(&mut self) -> Result<(), String> {
        self.state = self.system.initial();
        Ok(())
    }

    fn send(&mut self, input: &str) -> Result<(), String> {
        let id = self.inputs.iter().position(|i| i == input);
        match id
            .map(|k| LabelId(k as u32))
            .and_then(|i| self.system.after_input(self.state, i))
        {
            Some(t) => self.state = t,
            None => return Err(format!("input `{input}` is not one of the model's")),
        }
        Ok(())
    }

    /// The model steps on an input when it is sent: its outputs after it come after it.
    fn reads_inputs_at_once(&self) -> bool {
        true
    }

    /// A model's output is never on its way before the tester waits for it: an input goes
    /// first (as with `simulate --delay-ms`).
    fn pending_output(&mut self, _grace: Duration) -> Result<Option<String>, String> {
        Ok(None)
    }

    fn receive(&mut self, _timeout: Duration) -> Result<Observation, String> {
        let outs = self.system.outputs(self.state);
        if outs.is_empty() {
            return Ok(Observation::Quiescence);
        }
        let (o, t) = *self.rng.pick(outs);
        self.state = t;
        if o == self.system.quiescence() {
            Ok(Observation::Quiescence)
        } else {
            Ok(Observation::Output(self.system.output_name(o).to_owned()))
        }
    }
}

/// The tester's next move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Move {
    Input(LabelId),
    Wait,
    Reset,
}

/// The goal `Policy::Strategy` is playing: its solved game and the position the run since the
/// last reset has reached in it (`None`: the run left the arena).
struct GoalInPlay {
    goal: usize,
    strategy: Strategy,
    position: Option<Position>,
    /// Steps without progress and resets this goal has cost.
    stalls: u32,
}

/// The goal list of `Policy::Strategy` and how far it got.
struct GoalPlay {
    goals: Vec<Goal>,
    next: usize,
    current: Option<GoalInPlay>,
    tally: GoalTally,
}

impl GoalPlay {
    fn new(spec: &ExploreSpec, given: &[Goal]) -> Self {
        let mut goals = given.to_vec();
        goals.extend(crate::goals::Coverage::Transitions.goals(&spec.sa));
        GoalPlay {
            tally: GoalTally {
                total: goals.len(),
                given: given
                    .iter()
                    .map(|g| (g.describe(&spec.sa), "not reached"))
                    .collect(),
                ..GoalTally::default()
            },
            goals,
            next: 0,
            current: None,
        }
    }

    /// Follows `label` in the current goal's arena.
    fn advance(&mut self, label: LabelId) {
        if let Some(c) = &mut self.current {
            let next = c.position.and_then(|p| c.strategy.after(p, label));
            let progress = match (c.position, next) {
                (Some(p), Some(n)) => c.strategy.progressed(p, n),
                _ => false,
            };
            c.stalls += u32::from(!progress);
            c.position = next;
        }
    }

    /// Counts the current goal when the last step of the run reached it.
    fn settle(&mut self) {
        if let Some(c) = &self.current
            && c.position.is_some_and(|p| c.strategy.reached(p))
        {
            self.tally.reached += 1;
            if let Some(given) = self.tally.given.get_mut(c.goal) {
                given.1 = "reached";
            }
            self.current = None;
        }
    }

    fn restart(&mut self) {
        if let Some(c) = &mut self.current {
            c.position = Some(c.strategy.start());
        }
    }

    /// Gives up goal `index` (`current`, if it is being played).
    fn skip(&mut self, spec: &ExploreSpec, index: usize) {
        self.current = None;
        self.tally.skipped += 1;
        self.tally
            .skipped_goals
            .push(self.goals[index].describe(&spec.sa));
        if let Some(given) = self.tally.given.get_mut(index) {
            given.1 = "skipped";
        }
    }
}

/// A reading of the run since the last reset other than the one the tester follows (the
/// input/output race of [`super::stdio`]): an output that arrived after an input was sent may
/// have been written before the system read it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Reading {
    /// The specification state the labels of this reading lead to.
    state: StateId,
    /// How many of the inputs sent since the reset the system has read in this reading.
    read: usize,
    /// The labels of this reading since the reset, in its order.
    labels: Vec<LabelId>,
}

/// The state of one exploration. Its [`Execution`] is the run since the last reset as the runner
/// of suites keeps it: its trace, start-up clock and whether an output was seen.
struct Explorer<'a> {
    spec: &'a ExploreSpec,
    options: &'a ExploreOptions,
    rng: SplitMix64,
    state: StateId,
    visited: Vec<bool>,
    taken: Vec<bool>,
    states_covered: usize,
    transitions_covered: usize,
    /// Per transition: the tries `Policy::Goal` gave it while uncovered ([`GOAL_PATIENCE`]).
    tries: Vec<u32>,
    /// Uncovered transitions `Policy::Goal` has set aside.
    set_aside: usize,
    /// The state `Policy::Goal` last steered to.
    target: Option<StateId>,
    /// Inputs sent and observations made, over all runs.
    steps: u64,
    resets: u64,
    /// The run since the last reset (its label-id `steps` are left empty: `run` holds them in
    /// the specification's numbering).
    execution: Execution,
    /// The labels of the run since the last reset (in the reading the tester follows, whose
    /// state is `state` and which has read every input sent).
    run: Vec<LabelId>,
    /// The inputs sent since the last reset.
    sent: Vec<LabelId>,
    /// The other readings of the run since the last reset, in order of preference.
    others: Vec<Reading>,
    /// Set when no reading the tester can follow is left but the run cannot fail either (the
    /// system read an input the specification does not enable in some reading, after which ioco
    /// allows anything): the next move is a reset.
    dead_end: bool,
    /// The goals of `Policy::Strategy`.
    play: Option<GoalPlay>,
    /// Per specification state: its largest annotated quiescence timeout (annotated
    /// specifications only; [`super::timeouts`]).
    quiescence_ms: Option<Vec<Option<u64>>>,
    /// The response timeout of the last wait (annotations included), for its failure message.
    response_wait: Duration,
    /// The moves made since the last reset, to replay a run that failed on timing.
    moves: Vec<Move>,
    /// Set when the run since the last reset has a timing-dependent observation that a slow
    /// conforming system could have made wrong ([`Explorer::misleads`]): a failure after it is
    /// replayed, never confirmed in place.
    misleading: bool,
    /// When the last wait for an output began.
    wait_started: Instant,
    /// Set when the failing observation was a missing output: quiescence (or no output within
    /// the response timeout) or a declared timer output where the specification required
    /// another output.
    missing_output: bool,
}

fn scaled(p: f64) -> usize {
    (p.clamp(0.0, 1.0) * PROBABILITY_SCALE as f64).round() as usize
}

impl<'a> Explorer<'a> {
    fn new(spec: &'a ExploreSpec, options: &'a ExploreOptions) -> Self {
        let init = spec.sa.initial();
        let mut e = Explorer {
            spec,
            options,
            rng: SplitMix64::new(options.seed),
            state: init,
            visited: vec![false; spec.sa.num_states()],
            taken: vec![false; spec.num_transitions()],
            states_covered: 0,
            transitions_covered: 0,
            tries: vec![0; spec.num_transitions()],
            set_aside: 0,
            target: None,
            steps: 0,
            resets: 0,
            execution: Execution::start(),
            run: Vec::new(),
            sent: Vec::new(),
            others: Vec::new(),
            dead_end: false,
            play: (options.policy == Policy::Strategy).then(|| GoalPlay::new(spec, &options.goals)),
            quiescence_ms: options
                .timeouts
                .annotations
                .as_ref()
                .map(|a| a.sa_quiescence_ms(&spec.sa)),
            response_wait: options.timeouts.response,
            moves: Vec::new(),
            misleading: false,
            wait_started: Instant::now(),
            missing_output: false,
        };
        e.visit(init);
        e
    }

    fn visit(&mut self, q: StateId) {
        if !self.visited[q.index()] {
            self.visited[q.index()] = true;
            self.states_covered += 1;
        }
    }

    /// Follows label `l` in the specification, covering what it passes; `None` if disabled.
    fn take(&mut self, l: LabelId) -> Option<StateId> {
        let q = self.state;
        let enabled = self.spec.sa.enabled(q);
        let k = enabled.iter().position(|&(m, _)| m == l)?;
        let t = enabled[k].1;
        let index = self.spec.transition_index(q, k);
        if !self.taken[index] {
            self.taken[index] = true;
            self.transitions_covered += 1;
            if self.tries[index] > GOAL_PATIENCE {
                self.set_aside -= 1;
            }
        }
        self.visit(t);
        self.state = t;
        self.run.push(l);
        if let Some(play) = &mut self.play {
            play.advance(l);
        }
        Some(t)
    }

    fn complete(&self, target: CoverageTarget) -> bool {
        match target {
            CoverageTarget::States => self.states_covered >= self.spec.num_reachable_states,
            CoverageTarget::Transitions => {
                self.transitions_covered >= self.spec.num_reachable_transitions
            }
        }
    }

    fn status(&self) -> ExploreStatus {
        ExploreStatus {
            steps: self.steps,
            resets: self.resets,
            states: (self.states_covered, self.spec.num_reachable_states),
            transitions: (
                self.transitions_covered,
                self.spec.num_reachable_transitions,
            ),
        }
    }

    fn enabled_inputs(&self) -> Vec<LabelId> {
        self.spec.sa.inputs_enabled(self.state).collect()
    }

    fn random_move(&mut self, inputs: &[LabelId]) -> Move {
        let k = self.rng.below(inputs.len() + 1);
        inputs.get(k).map_or(Move::Wait, |&i| Move::Input(i))
    }

    fn choose(&mut self) -> Move {
        if self.dead_end {
            return Move::Reset;
        }
        if !self.execution.trace.is_empty()
            && self
                .rng
                .chance(scaled(self.options.reset_probability), PROBABILITY_SCALE)
        {
            return Move::Reset;
        }
        let inputs = self.enabled_inputs();
        match self.options.policy {
            Policy::Random => self.random_move(&inputs),
            Policy::InputBias { input } => {
                if !inputs.is_empty() && self.rng.chance(scaled(input), PROBABILITY_SCALE) {
                    Move::Input(*self.rng.pick(&inputs))
                } else {
                    Move::Wait
                }
            }
            Policy::Goal => {
                if self.transitions_covered + self.set_aside >= self.spec.num_reachable_transitions
                    || self.rng.chance(GOAL_RANDOM_PERMILLE, 1000)
                {
                    return self.random_move(&inputs);
                }
                match self.goal_move() {
                    Some(m) => m,
                    None if self.execution.trace.is_empty() => self.random_move(&inputs),
                    None => {
                        // The target went out of reach in this run: one try of its transitions.
                        if let Some(q) = self.target.take() {
                            self.try_uncovered(q, false);
                        }
                        Move::Reset
                    }
                }
            }
            Policy::Strategy => match self.strategy_move() {
                Some(m) => m,
                None => self.random_move(&inputs),
            },
        }
    }

    /// Whether a coverage goal is already covered (test purposes and regular expressions only
    /// count when their strategy reaches them).
    fn covered(&self, goal: &Goal) -> bool {
        let sa = &self.spec.sa;
        match *goal {
            Goal::State(q) => self.visited[q.index()],
            Goal::Transition(q, l) => sa
                .enabled(q)
                .iter()
                .position(|&(m, _)| m == l)
                .is_some_and(|k| self.taken[self.spec.transition_index(q, k)]),
            _ => false,
        }
    }

    /// The move of the current goal's strategy, choosing the next goal when the current one is
    /// reached, covered or given up; `None` when no goal is left.
    fn strategy_move(&mut self) -> Option<Move> {
        let mut play = self.play.take()?;
        let chosen = loop {
            let Some(c) = &mut play.current else {
                let Some(goal) = play.goals.get(play.next) else {
                    break None;
                };
                let index = play.next;
                play.next += 1;
                if self.covered(goal) {
                    play.tally.covered_before += 1;
                    continue;
                }
                match reach_strategy(&self.spec.sa, goal) {
                    Ok(strategy) if strategy.reachability() != Reachability::Unreachable => {
                        // The run so far, replayed in the new goal's arena.
                        let position = self
                            .run
                            .iter()
                            .try_fold(strategy.start(), |p, &l| strategy.after(p, l));
                        play.current = Some(GoalInPlay {
                            goal: index,
                            strategy,
                            position,
                            stalls: 0,
                        });
                    }
                    _ => play.skip(self.spec, index),
                }
                continue;
            };
            if c.position.is_some_and(|p| c.strategy.reached(p)) {
                play.settle();
                continue;
            }
            if self.covered(&play.goals[c.goal]) {
                play.tally.covered_before += 1;
                play.current = None;
                continue;
            }
            if c.stalls > STRATEGY_PATIENCE {
                let index = c.goal;
                play.skip(self.spec, index);
                continue;
            }
            match c.position.and_then(|p| c.strategy.move_at(p)) {
                Some(crate::goals::Move::Input(i)) => break Some(Move::Input(i)),
                Some(crate::goals::Move::Wait) => break Some(Move::Wait),
                // Out of reach from here: start again from the initial state.
                None if !self.execution.trace.is_empty() => {
                    c.stalls += 1;
                    break Some(Move::Reset);
                }
                None => {
                    let index = c.goal;
                    play.skip(self.spec, index);
                }
            }
        };
        self.play = Some(play);
        chosen
    }

    /// Counts one try of the uncovered transitions of `q` (only its outputs with
    /// `outputs_only`), setting aside those out of patience.
    fn try_uncovered(&mut self, q: StateId, outputs_only: bool) {
        let sa = &self.spec.sa;
        for (k, &(l, _)) in sa.enabled(q).iter().enumerate() {
            let index = self.spec.transition_index(q, k);
            if !(self.taken[index] || outputs_only && sa.alphabet.is_input(l)) {
                self.tries[index] += 1;
                if self.tries[index] == GOAL_PATIENCE + 1 {
                    self.set_aside += 1;
                }
            }
        }
    }

    /// The first move of a shortest path from the current state to a state with an uncovered
    /// transition not set aside (that transition itself when the current state has one: an
    /// input is sent, an output waited for, which counts as a try of the outputs); `None` when
    /// no such transition is reachable.
    fn goal_move(&mut self) -> Option<Move> {
        let sa = &self.spec.sa;
        let (spec, taken, tries, here) = (&self.spec, &self.taken, &self.tries, self.state);
        let uncovered = |q: StateId| {
            sa.enabled(q)
                .iter()
                .enumerate()
                .filter(move |&(k, _)| {
                    let index = spec.transition_index(q, k);
                    !taken[index] && tries[index] <= GOAL_PATIENCE
                })
                .map(|(_, &(l, _))| l)
        };
        if uncovered(here).next().is_some() {
            self.target = Some(here);
            let inputs = || uncovered(here).filter(|&l| sa.alphabet.is_input(l));
            let count = inputs().count();
            if count == 0 {
                self.try_uncovered(here, true);
                return Some(Move::Wait);
            }
            // As `rng.pick` over the uncovered inputs, without collecting them.
            return inputs().nth(self.rng.below(count)).map(Move::Input);
        }
        // Breadth-first over the specification; each state remembers the first label of the
        // path that reached it.
        let mut first: Vec<Option<LabelId>> = vec![None; sa.num_states()];
        let mut seen = vec![false; sa.num_states()];
        seen[self.state.index()] = true;
        let mut queue = VecDeque::new();
        for &(l, t) in sa.enabled(self.state) {
            if !seen[t.index()] {
                seen[t.index()] = true;
                first[t.index()] = Some(l);
                queue.push_back(t);
            }
        }
        while let Some(q) = queue.pop_front() {
            if uncovered(q).next().is_some() {
                self.target = Some(q);
                let l = first[q.index()]?;
                return Some(if sa.alphabet.is_input(l) {
                    Move::Input(l)
                } else {
                    Move::Wait
                });
            }
            for &(_, t) in sa.enabled(q) {
                if !seen[t.index()] {
                    seen[t.index()] = true;
                    first[t.index()] = first[q.index()];
                    queue.push_back(t);
                }
            }
        }
        None
    }

    fn coverage(&self) -> Coverage {
        let sa = &self.spec.sa;
        let mut uncovered_states = Vec::new();
        let mut uncovered_transitions = Vec::new();
        for q in sa.states().filter(|q| self.spec.reachable[q.index()]) {
            if !self.visited[q.index()] && uncovered_states.len() < UNCOVERED_LISTED {
                uncovered_states.push(sa.state_name(q).to_owned());
            }
            for (k, &(l, _)) in sa.enabled(q).iter().enumerate() {
                if !self.taken[self.spec.transition_index(q, k)]
                    && uncovered_transitions.len() < UNCOVERED_LISTED
                {
                    uncovered_transitions.push(format!(
                        "{} {}",
                        sa.state_name(q),
                        self.spec.marked(l)
                    ));
                }
            }
        }
        Coverage {
            states: self.states_covered,
            states_total: self.spec.num_reachable_states,
            transitions: self.transitions_covered,
            transitions_total: self.spec.num_reachable_transitions,
            quiescence_loops: self.spec.num_reachable_quiescence,
            uncovered_states,
            uncovered_transitions,
        }
    }

    fn reset(&mut self, adapter: &mut dyn Adapter) -> Result<(), String> {
        adapter.set_timing_scale(self.options.timeouts.scale);
        adapter.reset()?;
        self.state = self.spec.sa.initial();
        self.execution = Execution::start();
        self.run.clear();
        self.sent.clear();
        self.others.clear();
        self.dead_end = false;
        self.moves.clear();
        self.misleading = false;
        if let Some(play) = &mut self.play {
            play.restart();
        }
        Ok(())
    }

    /// Handles an observation; `Err` is the failure message.
    fn observe(&mut self, obs: Observation, quiescence_allowed: bool) -> Result<(), String> {
        let sa = &self.spec.sa;
        let (label, shown) = match obs {
            Observation::Output(name) => {
                self.execution.seen_output = true;
                let label = sa
                    .alphabet
                    .get(&name)
                    .filter(|&l| sa.alphabet.is_output(l) && l != sa.quiescence());
                (label, format!("!{name}"))
            }
            Observation::Quiescence => {
                self.execution.timing = true;
                (Some(sa.quiescence()), self.spec.marked(sa.quiescence()))
            }
        };
        self.steps += 1;
        self.execution.trace.push(shown);
        let others = self.others_after(label);
        let followed = label.is_some_and(|l| self.spec.sa.after(self.state, l).is_some());
        if followed {
            if let Some(l) = label {
                self.take(l);
            }
            self.others = others;
            self.others
                .retain(|r| r.state != self.state || r.read != self.sent.len());
            return Ok(());
        }
        if let Some(first) = others.first() {
            // The reading the tester followed is refuted; another one explains the run: the
            // observation is read output-first.
            self.execution.timing = true;
            if first.read == self.sent.len() {
                self.follow_reading(others);
            } else {
                self.others.clear();
                self.dead_end = true;
            }
            return Ok(());
        }
        if self.dead_end {
            self.others.clear();
            return Ok(());
        }
        // A failure: the readings before this observation stay (a late output is judged in
        // them, [`Explorer::confirm_in_place`]).
        let sa = &self.spec.sa;
        self.missing_output = label.is_some_and(|l| {
            l == sa.quiescence()
                || self
                    .options
                    .timeouts
                    .timer_outputs
                    .iter()
                    .any(|t| t == sa.alphabet.name(l))
        });
        let allowed: Vec<String> = sa
            .outputs_enabled(self.state)
            .map(|l| self.spec.marked(l))
            .collect();
        // Only a failure needs the trace before this observation as text.
        let (shown, earlier) = self
            .execution
            .trace
            .split_last()
            .map_or(("", &[][..]), |(s, e)| (s.as_str(), e));
        let before = trace_text(earlier);
        Err(if label == Some(sa.quiescence()) && !quiescence_allowed {
            format!(
                "no output within the response timeout of {} ms (expected one of: {}) after {before}",
                self.response_wait.as_millis(),
                allowed.join(", ")
            )
        } else {
            format!(
                "unexpected {shown} (expected one of: {}) after {before}",
                allowed.join(", ")
            )
        })
    }

    /// The other readings after observing `label` (`None`: an output the specification does
    /// not know), the input read first where a reading has one unread. A reading in which the
    /// system read an input the specification does not enable sets `dead_end`.
    fn others_after(&mut self, label: Option<LabelId>) -> Vec<Reading> {
        let sa = &self.spec.sa;
        let mut stepped = Vec::with_capacity(self.others.len());
        for r in &self.others {
            // Quiescence: the system has read every input (the reading where it did is kept).
            if label == Some(sa.quiescence()) && r.read < self.sent.len() {
                continue;
            }
            if let Some((l, t)) = label.and_then(|l| sa.after(r.state, l).map(|t| (l, t))) {
                let mut labels = r.labels.clone();
                labels.push(l);
                stepped.push(Reading {
                    state: t,
                    read: r.read,
                    labels,
                });
            }
        }
        self.expanded(stepped)
    }

    /// `readings` with, before each one that has an input unread, the reading in which the
    /// system read it; without duplicates. A reading in which the system read an input the
    /// specification does not enable sets `dead_end`.
    fn expanded(&mut self, readings: Vec<Reading>) -> Vec<Reading> {
        let mut out: Vec<Reading> = Vec::with_capacity(readings.len());
        for r in readings {
            self.expand_into(r, &mut out);
        }
        out
    }

    fn expand_into(&mut self, r: Reading, out: &mut Vec<Reading>) {
        if let Some(&input) = self.sent.get(r.read) {
            match self.spec.sa.after(r.state, input) {
                Some(t) => {
                    let mut labels = r.labels.clone();
                    labels.push(input);
                    let read = Reading {
                        state: t,
                        read: r.read + 1,
                        labels,
                    };
                    self.expand_into(read, out);
                }
                None => self.dead_end = true,
            }
        }
        if !out.iter().any(|o| o.state == r.state && o.read == r.read) {
            out.push(r);
        }
    }

    /// Makes the first of `readings` (which has read every input) the one the tester follows.
    fn follow_reading(&mut self, mut readings: Vec<Reading>) {
        let lead = readings.remove(0);
        self.state = lead.state;
        self.visit(lead.state);
        self.run = lead.labels;
        self.others = readings;
        if let Some(c) = self.play.as_mut().and_then(|p| p.current.as_mut()) {
            c.position = self
                .run
                .iter()
                .try_fold(c.strategy.start(), |p, &l| c.strategy.after(p, l));
        }
    }

    /// One move; `Err` is the failure message.
    fn step(&mut self, adapter: &mut dyn Adapter, m: Move) -> Result<(), String> {
        if m != Move::Reset {
            self.moves.push(m);
        }
        // The states the tester holds possible before the move (every reading).
        let believed: Vec<StateId> = std::iter::once(self.state)
            .chain(self.others.iter().map(|r| r.state))
            .collect();
        let timing_before = std::mem::replace(&mut self.execution.timing, false);
        let result = self.make(adapter, m);
        // A model in process observes nothing by timing.
        if adapter.reads_inputs_at_once() {
            self.execution.timing = false;
            return result;
        }
        let noted = adapter.take_timing_note();
        let timer = adapter.take_timer_note() && self.another_output_allowed(&believed);
        // Quiescence, an output read before the input could be sent or output-first.
        let observed = self.execution.timing;
        self.execution.timing = timing_before || observed || noted || timer;
        if result.is_ok() && self.misleads(m, observed, timer, &believed) {
            self.misleading = true;
        }
        result
    }

    /// Whether a move could have misled the tester had the system been slow but conforming:
    /// a timer output read where another output was allowed, or a timing-dependent
    /// `observed` (quiescence, an output read before the input could be sent or output-first),
    /// except quiescence in a wait in which every reading's state allows no output but
    /// quiescence: a conforming system whose state is among them (as it is when nothing before
    /// misled the tester) writes nothing before its next input, so that quiescence holds at any
    /// timeout. The tester's starvation alone misleads nothing: an output read across it was
    /// written (the race readings cover its order with the inputs), and a send grace that
    /// overran only lets the input go (see [`Explorer::confirm_in_place`]).
    fn misleads(&self, m: Move, observed: bool, timer: bool, believed: &[StateId]) -> bool {
        let sa = &self.spec.sa;
        let only_quiescence = || {
            believed
                .iter()
                .all(|&s| sa.outputs_enabled(s).all(|o| o == sa.quiescence()))
        };
        timer || (observed && (m != Move::Wait || !only_quiescence()))
    }

    /// Whether one of `states` allows an output other than quiescence and the declared timer
    /// outputs. Only there can a timer output (an adapter's "all quiet" label) have overtaken an
    /// output of a slow system, so only there does reading one make a failure timing-dependent;
    /// where the timer output is the only output allowed, no late output can be behind it.
    fn another_output_allowed(&self, states: &[StateId]) -> bool {
        let sa = &self.spec.sa;
        let timers = &self.options.timeouts.timer_outputs;
        states.iter().any(|&s| {
            sa.alphabet.outputs().any(|o| {
                o != sa.quiescence()
                    && !timers.iter().any(|t| t == sa.alphabet.name(o))
                    && sa.after(s, o).is_some()
            })
        })
    }

    /// The timeouts of a wait in the current state: `timeouts` with the specification's
    /// annotations applied ([`Timeouts::at`]).
    fn wait_timeouts<'t>(&self, timeouts: &'t Timeouts) -> Cow<'t, Timeouts> {
        let sa = &self.spec.sa;
        match &self.quiescence_ms {
            Some(waits) => {
                let last_input = self.run.iter().rev().find(|&&l| sa.alphabet.is_input(l));
                Cow::Owned(timeouts.at(
                    waits[self.state.index()],
                    last_input.map(|&l| sa.alphabet.name(l)),
                ))
            }
            None => Cow::Borrowed(timeouts),
        }
    }

    /// Makes one move; `Err` is the failure message.
    fn make(&mut self, adapter: &mut dyn Adapter, m: Move) -> Result<(), String> {
        let sa = &self.spec.sa;
        let quiescence_allowed = sa.after(self.state, sa.quiescence()).is_some();
        match m {
            Move::Reset => {
                self.resets += 1;
                self.reset(adapter)
            }
            Move::Wait => {
                let here = self.wait_timeouts(&self.options.timeouts);
                let wait = self.execution.output_wait(&here, quiescence_allowed);
                self.response_wait = here.response;
                self.wait_started = Instant::now();
                let obs = adapter.receive(wait).map_err(|e| self.broken(e))?;
                self.observe(obs, quiescence_allowed)
            }
            Move::Input(i) => {
                // An output already on its way is observed first (it won the race).
                let grace = send_grace(&self.spec.labels, &self.options.timeouts);
                match adapter.pending_output(grace).map_err(|e| self.broken(e))? {
                    Some(o) => {
                        // Read before the input could be sent: the race.
                        self.execution.timing = true;
                        self.observe(Observation::Output(o), true)
                    }
                    None => {
                        let name = sa.alphabet.name(i).to_owned();
                        adapter.send(&name).map_err(|e| self.broken(e))?;
                        self.steps += 1;
                        self.execution.trace.push(format!("?{name}"));
                        if adapter.reads_inputs_at_once() {
                            self.sent.push(i);
                            self.take(i);
                            return Ok(());
                        }
                        // The readings so far may all leave the input unread for a while.
                        let before = Reading {
                            state: self.state,
                            read: self.sent.len(),
                            labels: self.run.clone(),
                        };
                        self.sent.push(i);
                        let mut waiting = vec![before];
                        waiting.append(&mut self.others);
                        let mut others = self.expanded(waiting);
                        self.take(i);
                        others.retain(|r| r.state != self.state || r.read != self.sent.len());
                        self.others = others;
                        Ok(())
                    }
                }
            }
        }
    }

    /// The timing rule for a missing output, without a replay: the run failed in a wait that
    /// ended with no output (quiescence, the response timeout, or a declared timer output where
    /// another output was required), and nothing timing-dependent before it could have misled
    /// the tester ([`Explorer::misleads`]). The wait goes on in place, up to the wait a replay
    /// with the timeouts x4, then x16, would make at this step (measured from the start of the
    /// failing wait, as the replay measures it from the same input). An output arriving is
    /// judged in the readings before the failing observation: allowed, the verdict is
    /// `inconclusive` (reason `timing`), as when a replay does not fail; not allowed, it is a
    /// `fail` with no timing-dependent observation. Silence through the x16 wait is the `fail`.
    ///
    /// Why this is the replay's observation. A replay exists to give a slow system the scaled
    /// timeouts at every step. Before the failing step, the run observed only outputs (which
    /// no timeout changes, nor the tester's starvation: the race readings cover every order of
    /// an output and the inputs sent before it) and quiescence where every reading allowed
    /// nothing else. By induction, a conforming system's state is among the readings after each
    /// of them, so such a system is quiescent there at any timeout: a replay at scale x4 or x16 observes the same prefix (up
    /// to the system's own choices, which a replay does not fix either) and, at the failing
    /// step, sees an output exactly when one arrives within the scaled wait, which is what the
    /// wait in place sees. It does not hold after a quiescence where a reading allowed an
    /// output, an output read before an input could be sent or output-first, or a timer output
    /// where another output was allowed: a slow conforming system's late output may have been read later as another step's output,
    /// and the tester's readings since then may all be wrong, so that its final silence is
    /// correct and only a replay with longer waits can tell; those failures are replayed
    /// ([`replay_timing_fail`]). By the same induction, an output that no reading allows,
    /// read in a wait after such a prefix, is a `fail` at every scale: it is reported at once,
    /// as a failure that does not rest on timing (`explore` has no replay to make). Any other
    /// failure (an output read before an input could be sent) is replayed.
    fn confirm_in_place(
        &mut self,
        adapter: &mut dyn Adapter,
        first_trace: &[String],
        first_message: &str,
    ) -> Result<ReplayVerdict, String> {
        let sa = &self.spec.sa;
        let quiescence_allowed = sa.after(self.state, sa.quiescence()).is_some();
        self.execution.trace.pop();
        self.steps -= 1;
        for factor in TIMING_SCALES {
            let scaled = self.options.timeouts.scaled(factor);
            let here = self.wait_timeouts(&scaled);
            let mut wait = if quiescence_allowed {
                here.quiescence
            } else {
                here.response
            };
            if !self.execution.seen_output {
                wait += (self.execution.started() + here.startup)
                    .saturating_duration_since(self.wait_started);
            }
            let left = (self.wait_started + wait).saturating_duration_since(Instant::now());
            let reruns = TimingReruns {
                first_trace: first_trace.to_vec(),
                first_message: first_message.to_owned(),
                scale: factor,
            };
            let obs = adapter.receive(left).map_err(|e| self.broken(e))?;
            let Observation::Output(_) = &obs else {
                continue;
            };
            let judged = self.observe(obs, quiescence_allowed);
            let trace = self.execution.trace.clone();
            return Ok(match judged {
                Ok(()) => ReplayVerdict {
                    failed: false,
                    message: format!(
                        "inconclusive (timing): failed with the timeouts given ({first_message}), an output came when waiting in place up to the timeouts x{factor} (trace: {}); the verdict depends on timing",
                        trace_text(&trace)
                    ),
                    trace,
                    reruns,
                },
                Err(why) => ReplayVerdict {
                    failed: true,
                    message: format!(
                        "{why} (waited in place up to the timeouts x{factor}; the first failure depended on timing: {first_message})"
                    ),
                    trace,
                    reruns,
                },
            });
        }
        let scale = TIMING_SCALES[TIMING_SCALES.len() - 1];
        Ok(ReplayVerdict {
            failed: true,
            message: format!(
                "{first_message} (no output when waiting in place up to the timeouts x{scale}, what a replay at every scale would see at this step)"
            ),
            trace: first_trace.to_vec(),
            reruns: TimingReruns {
                first_trace: first_trace.to_vec(),
                first_message: first_message.to_owned(),
                scale,
            },
        })
    }

    fn broken(&self, e: String) -> String {
        format!("{e}; trace: {}", trace_text(&self.execution.trace))
    }
}

/// Explores `adapter` against `spec` until a failure or a stop condition; `progress` is called
/// after every step. An error is a system that cannot be (re)started.
pub fn explore(
    spec: &ExploreSpec,
    adapter: &mut dyn Adapter,
    options: &ExploreOptions,
    mut progress: impl FnMut(&ExploreStatus),
) -> Result<ExploreReport, String> {
    let started = Instant::now();
    let mut e = Explorer::new(spec, options);
    e.reset(adapter)?;
    let mut message = None;
    let mut last_move = Move::Reset;
    let stop = loop {
        if e.steps >= options.max_steps {
            break StopReason::StepBudget;
        }
        if options.target.is_some_and(|t| e.complete(t)) {
            break StopReason::Coverage;
        }
        if options.time_limit.is_some_and(|t| started.elapsed() >= t) {
            break StopReason::TimeLimit;
        }
        let m = e.choose();
        last_move = m;
        if let Err(why) = e.step(adapter, m) {
            if m == Move::Reset {
                return Err(why);
            }
            message = Some(why);
            break StopReason::Failure;
        }
        progress(&e.status());
    };
    if let Some(play) = &mut e.play {
        play.settle();
    }
    let mut trace = e.execution.trace.clone();
    let mut failed = stop == StopReason::Failure;
    let mut timing = None;
    // An output no reading allows, read in a wait after a run in which nothing could have
    // misled the tester, does not rest on timing ([`Explorer::confirm_in_place`]: a replay at
    // any scale would observe the same).
    let settled = last_move == Move::Wait && !e.misleading;
    if settled && !e.missing_output {
        e.execution.timing = false;
    }
    if let Some(first_message) = message.as_ref().filter(|_| failed && e.execution.timing) {
        let in_place = if settled && e.missing_output {
            Some(e.confirm_in_place(adapter, &trace, first_message)?)
        } else {
            None
        };
        let decided = match in_place {
            Some(decided) => decided,
            None => replay_timing_fail(spec, adapter, options, &e.moves, &trace, first_message)?,
        };
        (failed, message, trace, timing) = (
            decided.failed,
            Some(decided.message),
            decided.trace,
            Some(decided.reruns),
        );
    }
    Ok(ExploreReport {
        failed,
        stop,
        steps: e.steps,
        resets: e.resets,
        trace,
        message,
        coverage: e.coverage(),
        goals: e.play.as_ref().map(|p| p.tally.clone()),
        elapsed: started.elapsed(),
        visited: std::mem::take(&mut e.visited),
        taken: std::mem::take(&mut e.taken),
        timing,
    })
}

/// How replays decided a run that failed on timing.
struct ReplayVerdict {
    failed: bool,
    message: String,
    trace: Vec<String>,
    reruns: TimingReruns,
}

/// The timing rule for an exploration: a run (since its last reset) that failed with a
/// timing-dependent observation is replayed from a reset, its moves (the same inputs and waits,
/// chosen by the same seed) made again with every timeout scaled by 4, then by 16. A replay that
/// fails with no timing-dependent observation is the `fail`; one that fails on timing again
/// goes on to the next scale (after the last one, its `fail` stands, the first trace beside
/// it); one that does not fail (every move made, or the system leaving the moves' path: an
/// input the specification does not enable where the replay is) makes the verdict
/// `inconclusive` (reason `timing`), except as `run` does: a failure already reproduced at x4
/// stays a `fail` when the x16 replay only leaves the moves' path (the system took another
/// allowed branch, as a lost race does: longer waits give its spontaneous outputs time to come
/// first, which is no evidence against the failure).
fn replay_timing_fail(
    spec: &ExploreSpec,
    adapter: &mut dyn Adapter,
    options: &ExploreOptions,
    moves: &[Move],
    first_trace: &[String],
    first_message: &str,
) -> Result<ReplayVerdict, String> {
    let mut last = None;
    for factor in TIMING_SCALES {
        let scaled = ExploreOptions {
            timeouts: options.timeouts.scaled(factor),
            ..options.clone()
        };
        let mut replay = Explorer::new(spec, &scaled);
        replay.reset(adapter)?;
        let mut failure = None;
        let mut left_path = false;
        for &m in moves {
            if let Move::Input(i) = m
                && replay.spec.sa.after(replay.state, i).is_none()
            {
                left_path = true;
                break;
            }
            if let Err(why) = replay.step(adapter, m) {
                failure = Some(why);
                break;
            }
        }
        let trace = std::mem::take(&mut replay.execution.trace);
        let reruns = TimingReruns {
            first_trace: first_trace.to_vec(),
            first_message: first_message.to_owned(),
            scale: factor,
        };
        match failure {
            Some(why) if replay.execution.timing => last = Some((why, trace, reruns)),
            None if left_path && last.is_some() => break,
            Some(why) => {
                return Ok(ReplayVerdict {
                    failed: true,
                    message: format!(
                        "{why} (replayed with the timeouts x{factor}; the first failure depended on timing: {first_message})"
                    ),
                    trace,
                    reruns,
                });
            }
            None => {
                return Ok(ReplayVerdict {
                    failed: false,
                    message: format!(
                        "inconclusive (timing): failed with the timeouts given ({first_message}), did not fail when replayed with the timeouts x{factor} (trace: {}); the verdict depends on timing",
                        trace_text(&trace)
                    ),
                    trace,
                    reruns,
                });
            }
        }
    }
    let (why, trace, reruns) = last.unwrap_or_default();
    Ok(ReplayVerdict {
        failed: true,
        message: format!(
            "{why} (failed when replayed with every scale up to x{}; first failure: {first_message})",
            reruns.scale
        ),
        trace,
        reruns,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::{MutantModel, MutateOptions, SizeBound, mutants};
    use crate::format::{LoadOptions, parse_model};

    fn bundled(name: &str, text: &str) -> SuspensionAutomaton {
        let model = parse_model(text, name, &LoadOptions::default()).unwrap();
        specification_automaton(&model).unwrap()
    }

    fn vending() -> SuspensionAutomaton {
        bundled("vending.aut", include_str!("../../models/vending.aut"))
    }

    fn in_process(
        spec: &ExploreSpec,
        imp: &SuspensionAutomaton,
        options: &ExploreOptions,
    ) -> ExploreReport {
        let mut adapter = ModelAdapter::new(imp, spec.labels(), options.seed ^ 0x5eed).unwrap();
        explore(spec, &mut adapter, options, |_| {}).unwrap()
    }

    fn options(policy: Policy, seed: u64) -> ExploreOptions {
        ExploreOptions {
            policy,
            seed,
            max_steps: 5_000,
            target: Some(CoverageTarget::Transitions),
            ..ExploreOptions::default()
        }
    }

    const POLICIES: [Policy; 4] = [
        Policy::Random,
        Policy::InputBias { input: 0.3 },
        Policy::Goal,
        Policy::Strategy,
    ];

    fn nondeterministic_models() -> [SuspensionAutomaton; 3] {
        [
            vending(),
            bundled(
                "tea_machine.dot",
                include_str!("../../models/tea_machine.dot"),
            ),
            bundled(
                "selfkicking_coffee.aut",
                include_str!("../../models/selfkicking_coffee.aut"),
            ),
        ]
    }

    /// Steps to full transition coverage per policy, summed over 20 seeds, on the bundled
    /// nondeterministic models (printed with `--nocapture`; the table in docs/src/explore.md). Playing the
    /// strategies covers everything without skipping a goal, and with fewer steps than
    /// uniform random choice.
    #[test]
    fn strategy_play_reaches_full_transition_coverage_and_compares_with_shortest_paths() {
        for sa in nondeterministic_models() {
            let spec = ExploreSpec::new(sa.clone());
            let mut sums = Vec::new();
            for policy in POLICIES {
                let mut steps = 0;
                for seed in 0..20 {
                    let report = in_process(&spec, &sa, &options(policy, seed));
                    assert_eq!(report.stop, StopReason::Coverage, "{policy:?} {}", sa.name);
                    if policy == Policy::Strategy {
                        let goals = report.goals.as_ref().unwrap();
                        assert_eq!(goals.total, spec.num_reachable_transitions);
                        assert!(goals.reached > 0, "{goals:?}");
                        assert_eq!(goals.skipped, 0, "{}: {goals:?}", sa.name);
                    } else {
                        assert!(report.goals.is_none());
                    }
                    steps += report.steps;
                }
                sums.push(steps);
            }
            println!(
                "{}: random {} bias {} goal {} strategy {} (steps over 20 seeds)",
                sa.name, sums[0], sums[1], sums[2], sums[3]
            );
            assert!(sums[3] < sums[0], "{}: {sums:?}", sa.name);
        }
    }

    #[test]
    fn every_policy_covers_the_nondeterministic_bundled_models_and_passes_them() {
        let models = [
            vending(),
            bundled(
                "tea_machine.dot",
                include_str!("../../models/tea_machine.dot"),
            ),
            bundled(
                "selfkicking_coffee.aut",
                include_str!("../../models/selfkicking_coffee.aut"),
            ),
        ];
        for sa in models {
            let spec = ExploreSpec::new(sa.clone());
            for policy in POLICIES {
                let report = in_process(&spec, &sa, &options(policy, 7));
                assert!(
                    !report.failed,
                    "{policy:?} {}: {:?}",
                    sa.name, report.message
                );
                assert_eq!(
                    report.stop,
                    StopReason::Coverage,
                    "{policy:?} {}: {}",
                    sa.name,
                    report.to_text()
                );
                assert!(report.coverage.uncovered_transitions.is_empty());
                assert_eq!(report.coverage.states, report.coverage.states_total);
            }
        }
    }

    #[test]
    fn strategy_play_steers_to_a_regular_expression_goal_first() {
        let sa = vending();
        let spec = ExploreSpec::new(sa.clone());
        let text = ".* tea change coin refund";
        let regex = crate::check::Regex::parse(text, "test").unwrap();
        let goal = crate::goals::RegexGoal::new(&regex, text, &sa).unwrap();
        for seed in 0..10 {
            let mut o = options(Policy::Strategy, seed);
            o.goals = vec![Goal::Regex(Box::new(goal.clone()))];
            o.target = None;
            o.max_steps = 40;
            o.reset_probability = 0.0;
            let report = in_process(&spec, &sa, &o);
            let goals = report.goals.unwrap();
            assert_eq!(goals.given.len(), 1);
            assert_eq!(goals.given[0].1, "reached", "seed {seed}: {goals:?}");
        }
    }

    #[test]
    fn goal_direction_needs_fewer_steps_than_random_choice() {
        let sa = vending();
        let spec = ExploreSpec::new(sa.clone());
        let total = |policy| -> u64 {
            (0..20)
                .map(|seed| in_process(&spec, &sa, &options(policy, seed)).steps)
                .sum()
        };
        let (goal, random) = (total(Policy::Goal), total(Policy::Random));
        assert!(goal < random, "goal {goal} steps, random {random}");
    }

    #[test]
    fn the_same_seed_gives_the_same_run() {
        let sa = vending();
        let spec = ExploreSpec::new(sa.clone());
        let mut o = options(Policy::Random, 3);
        o.target = None;
        o.max_steps = 300;
        let a = in_process(&spec, &sa, &o);
        let b = in_process(&spec, &sa, &o);
        assert_eq!(a.to_json(&o), b.to_json(&o));
        assert_eq!(a.steps, 300);
        assert_eq!(a.stop, StopReason::StepBudget);
    }

    /// A process-like system by script: the `k`-th input since a reset is answered by the
    /// `k`-th list of `script`, one entry per wait (`None`: the wait ends in silence; silence
    /// once the list is used up). Counts the resets and records the waits asked for.
    struct Scripted {
        script: Vec<Vec<Option<&'static str>>>,
        sent: usize,
        pending: VecDeque<Option<&'static str>>,
        timer_read: bool,
        /// Every observation is made across the tester's starvation.
        starved: bool,
        resets: usize,
        waits: Vec<Duration>,
    }

    impl Scripted {
        fn new(script: Vec<Vec<Option<&'static str>>>) -> Self {
            Scripted {
                script,
                sent: 0,
                pending: VecDeque::new(),
                timer_read: false,
                starved: false,
                resets: 0,
                waits: Vec::new(),
            }
        }
    }

    impl Adapter for Scripted {
        fn reset(&mut self) -> Result<(), String> {
            self.resets += 1;
            self.sent = 0;
            self.pending.clear();
            Ok(())
        }

        fn send(&mut self, _input: &str) -> Result<(), String> {
            self.pending = self
                .script
                .get(self.sent)
                .cloned()
                .unwrap_or_default()
                .into();
            self.sent += 1;
            Ok(())
        }

        fn pending_output(&mut self, _grace: Duration) -> Result<Option<String>, String> {
            Ok(None)
        }

        fn receive(&mut self, timeout: Duration) -> Result<Observation, String> {
            self.waits.push(timeout);
            Ok(match self.pending.pop_front().flatten() {
                Some(o) => {
                    self.timer_read |= o == "settled";
                    Observation::Output(o.to_owned())
                }
                None => Observation::Quiescence,
            })
        }

        fn take_timer_note(&mut self) -> bool {
            std::mem::take(&mut self.timer_read)
        }

        fn take_timing_note(&mut self) -> bool {
            self.starved
        }
    }

    /// `?a` must be answered by `!x` (or, after `!x`, by the timer output `settled`); `!y` only
    /// where the run never goes. The tester always sends what it can, else waits.
    /// The specification of `states` states with these marked transitions (`delta` for
    /// quiescence), as the explorer reads it.
    fn spec_of(states: usize, transitions: &[(u32, &str, u32)]) -> ExploreSpec {
        ExploreSpec::new(crate::model::suspension_from_marked("s", states, transitions).unwrap())
    }

    /// `?a` answered by `!x`, then the timer output `!settled`; `!y` only in an unreachable state.
    fn answer_spec() -> ExploreSpec {
        spec_of(
            4,
            &[
                (0, "?a", 1),
                (0, "delta", 0),
                (1, "!x", 2),
                (2, "!settled", 0),
                (3, "!y", 0),
            ],
        )
    }

    fn eager_options() -> ExploreOptions {
        let mut timeouts = Timeouts::from_millis(0, 10, 100);
        timeouts.timer_outputs = vec!["settled".to_owned()];
        ExploreOptions {
            policy: Policy::InputBias { input: 1.0 },
            reset_probability: 0.0,
            max_steps: 12,
            timeouts,
            ..ExploreOptions::default()
        }
    }

    /// A missing output after a prefix with nothing timing-dependent is confirmed by waiting in
    /// place up to the x4 and x16 waits (no replay: the system is reset once, at the start);
    /// an output arriving in that wait makes the verdict inconclusive (timing) when allowed and
    /// a fail when not; a timer output where `!x` was due is a missing output too. The tester's
    /// starvation alone (every observation made across it) changes none of this.
    #[test]
    fn a_missing_output_is_confirmed_by_waiting_in_place() {
        let spec = answer_spec();
        let options = eager_options();
        let run_starved = |script: Vec<Vec<Option<&'static str>>>, starved: bool| {
            let mut adapter = Scripted::new(script);
            adapter.starved = starved;
            let report = explore(&spec, &mut adapter, &options, |_| {}).unwrap();
            (report, adapter)
        };
        let run = |script| run_starved(script, false);
        let (starved, adapter) = run_starved(vec![vec![Some("x"), Some("settled")], vec![]], true);
        assert!(
            starved.failed && adapter.resets == 1,
            "{:?}",
            starved.message
        );
        // An output no reading allows, after nothing that could mislead: no replay, no waiting.
        let (forbidden, adapter) = run_starved(vec![vec![Some("y")]], true);
        let message = forbidden.message.unwrap();
        assert!(forbidden.failed && forbidden.timing.is_none(), "{message}");
        assert_eq!(message, "unexpected !y (expected one of: !x) after ?a");
        assert_eq!((adapter.resets, adapter.waits.len()), (1, 1));
        let (mute, adapter) = run(vec![vec![Some("x"), Some("settled")], vec![]]);
        assert!(mute.failed);
        let message = mute.message.unwrap();
        assert!(
            message.starts_with("no output within the response timeout of 100 ms")
                && message.contains("no output when waiting in place up to the timeouts x16"),
            "{message}"
        );
        assert_eq!(mute.timing.map(|t| t.scale), Some(16));
        assert_eq!(adapter.resets, 1);
        let ms = |d: &Duration| d.as_millis();
        let waits: Vec<u128> = adapter.waits.iter().map(ms).collect();
        let n = waits.len();
        assert!(n >= 3 && waits[n - 3] == 100, "{waits:?}");
        assert!((300..=400).contains(&waits[n - 2]), "{waits:?}");
        assert!((1500..=1600).contains(&waits[n - 1]), "{waits:?}");
        let (late, adapter) = run(vec![vec![None, Some("x")]]);
        assert!(!late.failed);
        let message = late.message.unwrap();
        assert!(
            message.starts_with(
                "inconclusive (timing): failed with the timeouts given (no output within"
            ) && message.contains("x4 (trace: ?a !x)"),
            "{message}"
        );
        assert_eq!(late.trace, ["?a", "!x"]);
        assert_eq!(adapter.resets, 1);
        let (wrong, _) = run(vec![vec![None, None, Some("y")]]);
        assert!(wrong.failed);
        let message = wrong.message.unwrap();
        assert!(
            message.starts_with("unexpected !y (expected one of: !x) after ?a")
                && message.contains("waited in place up to the timeouts x16"),
            "{message}"
        );
        // The timer output `settled` overtook a slow `!x` (the Conference adapter's case).
        let (timer, adapter) = run(vec![vec![Some("settled"), Some("x")]]);
        assert!(!timer.failed, "{:?}", timer.message);
        assert!(
            timer.message.unwrap().contains("(trace: ?a !x)"),
            "{:?}",
            timer.trace
        );
        assert_eq!(adapter.resets, 1);
    }

    /// After a quiescence observed where an output was allowed (a slow conforming system's
    /// output may have come later and been read as another step's), a missing output is
    /// replayed from a reset at x4 and x16, not confirmed in place.
    #[test]
    fn a_missing_output_after_a_quiescence_that_may_mislead_is_replayed() {
        let spec = spec_of(
            4,
            &[
                (0, "?a", 1),
                (0, "delta", 0),
                (1, "!x", 0),
                (1, "delta", 2),
                (2, "?a", 3),
                (2, "delta", 2),
                (3, "!y", 0),
            ],
        );
        let mut adapter = Scripted::new(vec![vec![None], vec![]]);
        let report = explore(&spec, &mut adapter, &eager_options(), |_| {}).unwrap();
        assert!(report.failed);
        let message = report.message.unwrap();
        assert!(
            message.contains("failed when replayed with every scale up to x16"),
            "{message}"
        );
        assert_eq!(adapter.resets, 3);
    }

    #[test]
    fn a_forbidden_output_fails_with_the_trace() {
        // The specification answers ?a with !x; the implementation answers !y, which only an
        // unreachable state allows (so no reading of the race allows it either).
        let spec = spec_of(
            3,
            &[
                (0, "?a", 1),
                (0, "delta", 0),
                (1, "!x", 0),
                (1, "!z", 0),
                (2, "!y", 0),
            ],
        );
        let imp = crate::model::suspension_from_marked(
            "i",
            2,
            &[(0, "?a", 1), (0, "delta", 0), (1, "!y", 0)],
        )
        .unwrap();
        let report = in_process(&spec, &imp, &options(Policy::Goal, 1));
        assert!(report.failed);
        assert_eq!(report.stop, StopReason::Failure);
        assert_eq!(report.trace.last().map(String::as_str), Some("!y"));
        let message = report.message.unwrap();
        assert!(
            message.starts_with("unexpected !y (expected one of: !x, !z) after"),
            "{message}"
        );
    }

    /// Mutants of the bundled nondeterministic models: every non-conforming one that exploring
    /// can show (a detection within the step budget) is counted; no conforming one ever fails.
    #[test]
    fn explore_fails_non_conforming_mutants_and_never_a_conforming_one() {
        let mut detected = 0;
        let mut non_conforming = 0;
        for sa in [
            vending(),
            bundled(
                "tea_machine.dot",
                include_str!("../../models/tea_machine.dot"),
            ),
        ] {
            let spec = ExploreSpec::new(sa.clone());
            let opts = MutateOptions {
                count: 30,
                bound: SizeBound::Extra(1),
                seed: 11,
            };
            for m in mutants(&MutantModel::Suspension(sa.clone()), &opts).unwrap() {
                let MutantModel::Suspension(imp) = &m.model else {
                    unreachable!("suspension mutants")
                };
                let mut o = options(Policy::Goal, 5);
                o.target = None;
                o.max_steps = 3_000;
                let report = in_process(&spec, imp, &o);
                if m.conforms {
                    assert!(
                        !report.failed,
                        "{} ({}) conforms: {:?}",
                        m.name, m.description, report.message
                    );
                } else {
                    non_conforming += 1;
                    detected += usize::from(report.failed);
                }
            }
        }
        assert!(non_conforming > 10, "{non_conforming}");
        // A model in process reads each input when it is sent, so the race has one reading and
        // every fault the step budget reaches shows.
        assert_eq!(
            detected, non_conforming,
            "{detected} of {non_conforming} non-conforming mutants found"
        );
    }
}
