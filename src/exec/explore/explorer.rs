//! The loop of an exploration, one move at a time (`Explorer`): the tester's choice of input,
//! wait or reset by its [`Policy`], the readings of the input/output race it keeps, coverage,
//! goals, and the timing rule's confirmation in place.

use crate::exec::stdio::{
    Adapter, Execution, Observation, TIMING_SCALES, Timeouts, TimingReruns, send_grace, trace_text,
};
use crate::goals::{Goal, Position, Reachability, Strategy, reach_strategy};
use crate::model::{LabelId, StateId};
use crate::rng::SplitMix64;
use std::borrow::Cow;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::options::{
    CoverageTarget, ExploreOptions, GOAL_PATIENCE, GOAL_RANDOM_PERMILLE, PROBABILITY_SCALE, Policy,
    STRATEGY_PATIENCE,
};
use super::report::{Coverage, ExploreStatus, GoalTally, UNCOVERED_LISTED};
use super::spec::ExploreSpec;

/// The tester's next move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Move {
    Input(LabelId),
    Wait,
    Reset,
}

/// The goal `Policy::Strategy` is playing: its solved game and the position the run since the
/// last reset has reached in it (`None`: the run left the arena).
pub(super) struct GoalInPlay {
    pub(super) goal: usize,
    pub(super) strategy: Strategy,
    pub(super) position: Option<Position>,
    /// Steps without progress and resets this goal has cost.
    pub(super) stalls: u32,
}

/// The goal list of `Policy::Strategy` and how far it got.
pub(super) struct GoalPlay {
    pub(super) goals: Vec<Goal>,
    pub(super) next: usize,
    pub(super) current: Option<GoalInPlay>,
    pub(super) tally: GoalTally,
}

impl GoalPlay {
    pub(super) fn new(spec: &ExploreSpec, given: &[Goal]) -> Self {
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
    pub(super) fn advance(&mut self, label: LabelId) {
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
    pub(super) fn settle(&mut self) {
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

    pub(super) fn restart(&mut self) {
        if let Some(c) = &mut self.current {
            c.position = Some(c.strategy.start());
        }
    }

    /// Gives up goal `index` (`current`, if it is being played).
    pub(super) fn skip(&mut self, spec: &ExploreSpec, index: usize) {
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
/// input/output race of [`crate::exec::stdio`]): an output that arrived after an input was sent may
/// have been written before the system read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Reading {
    /// The specification state the labels of this reading lead to.
    pub(super) state: StateId,
    /// How many of the inputs sent since the reset the system has read in this reading.
    pub(super) read: usize,
    /// The labels of this reading since the reset, in its order.
    pub(super) labels: Vec<LabelId>,
}

/// The state of one exploration. Its [`Execution`] is the run since the last reset as the runner
/// of suites keeps it: its trace, start-up clock and whether an output was seen.
pub(super) struct Explorer<'a> {
    pub(super) spec: &'a ExploreSpec,
    pub(super) options: &'a ExploreOptions,
    pub(super) rng: SplitMix64,
    pub(super) state: StateId,
    pub(super) visited: Vec<bool>,
    pub(super) taken: Vec<bool>,
    pub(super) states_covered: usize,
    pub(super) transitions_covered: usize,
    /// Per transition: the tries `Policy::Goal` gave it while uncovered ([`GOAL_PATIENCE`]).
    pub(super) tries: Vec<u32>,
    /// Uncovered transitions `Policy::Goal` has set aside.
    pub(super) set_aside: usize,
    /// The state `Policy::Goal` last steered to.
    pub(super) target: Option<StateId>,
    /// Inputs sent and observations made, over all runs.
    pub(super) steps: u64,
    pub(super) resets: u64,
    /// The run since the last reset (its label-id `steps` are left empty: `run` holds them in
    /// the specification's numbering).
    pub(super) execution: Execution,
    /// The labels of the run since the last reset (in the reading the tester follows, whose
    /// state is `state` and which has read every input sent).
    pub(super) run: Vec<LabelId>,
    /// The inputs sent since the last reset.
    pub(super) sent: Vec<LabelId>,
    /// The other readings of the run since the last reset, in order of preference.
    pub(super) others: Vec<Reading>,
    /// Set when no reading the tester can follow is left but the run cannot fail either (the
    /// system read an input the specification does not enable in some reading, after which ioco
    /// allows anything): the next move is a reset.
    pub(super) dead_end: bool,
    /// The goals of `Policy::Strategy`.
    pub(super) play: Option<GoalPlay>,
    /// Per specification state: its largest annotated quiescence timeout (annotated
    /// specifications only; [`crate::exec::timeouts`]).
    pub(super) quiescence_ms: Option<Vec<Option<u64>>>,
    /// The response timeout of the last wait (annotations included), for its failure message.
    pub(super) response_wait: Duration,
    /// The moves made since the last reset, to replay a run that failed on timing.
    pub(super) moves: Vec<Move>,
    /// Set when the run since the last reset has a timing-dependent observation that a slow
    /// conforming system could have made wrong ([`Explorer::misleads`]): a failure after it is
    /// replayed, never confirmed in place.
    pub(super) misleading: bool,
    /// When the last wait for an output began.
    pub(super) wait_started: Instant,
    /// Set when the failing observation was a missing output: quiescence (or no output within
    /// the response timeout) or a declared timer output where the specification required
    /// another output.
    pub(super) missing_output: bool,
}

pub(super) fn scaled(p: f64) -> usize {
    (p.clamp(0.0, 1.0) * PROBABILITY_SCALE as f64).round() as usize
}

impl<'a> Explorer<'a> {
    pub(super) fn new(spec: &'a ExploreSpec, options: &'a ExploreOptions) -> Self {
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

    pub(super) fn visit(&mut self, q: StateId) {
        if !self.visited[q.index()] {
            self.visited[q.index()] = true;
            self.states_covered += 1;
        }
    }

    /// Follows label `l` in the specification, covering what it passes; `None` if disabled.
    pub(super) fn take(&mut self, l: LabelId) -> Option<StateId> {
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

    pub(super) fn complete(&self, target: CoverageTarget) -> bool {
        match target {
            CoverageTarget::States => self.states_covered >= self.spec.num_reachable_states,
            CoverageTarget::Transitions => {
                self.transitions_covered >= self.spec.num_reachable_transitions
            }
        }
    }

    pub(super) fn status(&self) -> ExploreStatus {
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

    pub(super) fn enabled_inputs(&self) -> Vec<LabelId> {
        self.spec.sa.inputs_enabled(self.state).collect()
    }

    pub(super) fn random_move(&mut self, inputs: &[LabelId]) -> Move {
        let k = self.rng.below(inputs.len() + 1);
        inputs.get(k).map_or(Move::Wait, |&i| Move::Input(i))
    }

    pub(super) fn choose(&mut self) -> Move {
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
    pub(super) fn covered(&self, goal: &Goal) -> bool {
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
    pub(super) fn strategy_move(&mut self) -> Option<Move> {
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
    pub(super) fn try_uncovered(&mut self, q: StateId, outputs_only: bool) {
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
    pub(super) fn goal_move(&mut self) -> Option<Move> {
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

    pub(super) fn coverage(&self) -> Coverage {
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

    pub(super) fn reset(&mut self, adapter: &mut dyn Adapter) -> Result<(), String> {
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
    pub(super) fn observe(
        &mut self,
        obs: Observation,
        quiescence_allowed: bool,
    ) -> Result<(), String> {
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
    pub(super) fn others_after(&mut self, label: Option<LabelId>) -> Vec<Reading> {
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
    pub(super) fn expanded(&mut self, readings: Vec<Reading>) -> Vec<Reading> {
        let mut out: Vec<Reading> = Vec::with_capacity(readings.len());
        for r in readings {
            self.expand_into(r, &mut out);
        }
        out
    }

    pub(super) fn expand_into(&mut self, r: Reading, out: &mut Vec<Reading>) {
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
    pub(super) fn follow_reading(&mut self, mut readings: Vec<Reading>) {
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
    pub(super) fn step(&mut self, adapter: &mut dyn Adapter, m: Move) -> Result<(), String> {
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
    pub(super) fn misleads(
        &self,
        m: Move,
        observed: bool,
        timer: bool,
        believed: &[StateId],
    ) -> bool {
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
    pub(super) fn another_output_allowed(&self, states: &[StateId]) -> bool {
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
    pub(super) fn wait_timeouts<'t>(&self, timeouts: &'t Timeouts) -> Cow<'t, Timeouts> {
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
    pub(super) fn make(&mut self, adapter: &mut dyn Adapter, m: Move) -> Result<(), String> {
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
    /// (`run::replay_timing_fail`). By the same induction, an output that no reading allows,
    /// read in a wait after such a prefix, is a `fail` at every scale: it is reported at once,
    /// as a failure that does not rest on timing (`explore` has no replay to make). Any other
    /// failure (an output read before an input could be sent) is replayed.
    pub(super) fn confirm_in_place(
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

    pub(super) fn broken(&self, e: String) -> String {
        format!("{e}; trace: {}", trace_text(&self.execution.trace))
    }
}

/// How replays decided a run that failed on timing.
pub(super) struct ReplayVerdict {
    pub(super) failed: bool,
    pub(super) message: String,
    pub(super) trace: Vec<String>,
    pub(super) reruns: TimingReruns,
}
