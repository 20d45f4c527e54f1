//! One attempt at a purpose, a step at a time (`Walker`): the tracked symbolic states, the
//! values the tester chooses for an input, the outputs it reads, and the timing rule's re-runs.

use crate::exec::stdio::{Adapter, Observation, TIMING_SCALES, Timeouts, expect_wait, trace_text};
use crate::rng::SplitMix64;
use crate::sts::concrete::random_solution;
use crate::sts::expr::{BinOp, Value};
use crate::sts::purposes::{Criterion, Item, step_items};
use crate::sts::solver::Solver;
use crate::sts::symbolic::Sym;
use crate::sts::types::{Direction, SemState, Sts};
use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::purposes::PurposePath;
use super::report::PurposeVerdict;

/// How long the tester listens for an output already on its way before it sends an input.
pub(super) const SEND_GRACE: Duration = Duration::from_millis(20);

pub(super) enum Step {
    Continue,
    Leave(String),
    Fail(String),
}

pub(super) struct Walker<'a> {
    pub(super) sts: &'a Sts,
    pub(super) solver: &'a mut dyn Solver,
    pub(super) rng: SplitMix64,
    pub(super) exercised: Vec<bool>,
    pub(super) steps: u64,
    pub(super) trace: Vec<String>,
    pub(super) states: Vec<SemState>,
    /// The inputs sent since the reset, while the system may not read them at once.
    pub(super) sent: Vec<(usize, Vec<Value>)>,
    /// The readings with an input unread: a state and the number of `sent` read in it.
    pub(super) others: Vec<(SemState, usize)>,
    /// A reading read an input the STS does not enable: anything is allowed after it.
    pub(super) dead_end: bool,
    pub(super) criterion: Criterion,
    /// The position of each item of the criterion beyond switches.
    pub(super) item_index: HashMap<Item, usize>,
    /// Per item, whether an observed trace covered it.
    pub(super) items_exercised: Vec<bool>,
    /// The switch the trace's last step determined, if it did.
    pub(super) last: Option<usize>,
    /// Whether the attempt's trace holds a timing-dependent observation (the timing rule of
    /// [`crate::exec::stdio`]): quiescence, an output read before an input could be sent or read
    /// output-first, an observation the adapter notes ([`Adapter::take_timing_note`]).
    pub(super) timing: bool,
}

impl<'a> Walker<'a> {
    /// A walker of `sts` at its initial state, its choices from `seed`, tracking the coverage
    /// of `criterion` and of `items`.
    pub(super) fn new(
        sts: &'a Sts,
        solver: &'a mut dyn Solver,
        seed: u64,
        criterion: Criterion,
        items: &[Item],
    ) -> Self {
        Walker {
            sts,
            solver,
            rng: SplitMix64::new(seed),
            exercised: vec![false; sts.switches.len()],
            steps: 0,
            trace: Vec::new(),
            states: vec![sts.initial_state()],
            sent: Vec::new(),
            others: Vec::new(),
            dead_end: false,
            criterion,
            item_index: items.iter().enumerate().map(|(i, x)| (*x, i)).collect(),
            items_exercised: vec![false; items.len()],
            last: None,
            timing: false,
        }
    }

    /// The tracked states after a gate value, marking a switch exercised where the step
    /// determines it; a model error is the message of the `Err`.
    pub(super) fn after(
        &mut self,
        from: &[SemState],
        gate: usize,
        values: &[Value],
        mark: bool,
    ) -> Result<Vec<SemState>, String> {
        let mut next: Vec<SemState> = Vec::new();
        for state in from {
            let steps = self
                .sts
                .steps(state, gate, values)
                .map_err(|e| e.to_string())?;
            if mark && from.len() == 1 && steps.len() == 1 {
                let k = steps[0].0;
                self.exercised[k] = true;
                for item in step_items(self.sts, self.criterion, self.last, state, k) {
                    if let Some(&i) = self.item_index.get(&item) {
                        self.items_exercised[i] = true;
                    }
                }
                self.last = Some(k);
            } else if mark {
                self.last = None;
            }
            for (_, s) in steps {
                if !next.contains(&s) {
                    next.push(s);
                }
            }
        }
        Ok(next)
    }

    /// Reading `(state, read)` and those in which the system read the next unread inputs too:
    /// readings that read every input sent go to `caught_up`, the others to `still`.
    pub(super) fn read_on(
        &mut self,
        state: SemState,
        read: usize,
        caught_up: &mut Vec<SemState>,
        still: &mut Vec<(SemState, usize)>,
    ) -> Result<(), String> {
        let Some((gate, values)) = self.sent.get(read).cloned() else {
            if !caught_up.contains(&state) {
                caught_up.push(state);
            }
            return Ok(());
        };
        let next = self.after(std::slice::from_ref(&state), gate, &values, false)?;
        if next.is_empty() {
            self.dead_end = true;
        }
        for s in next {
            self.read_on(s, read + 1, caught_up, still)?;
        }
        if !still.contains(&(state.clone(), read)) {
            still.push((state, read));
        }
        Ok(())
    }

    /// An input sent: the followed states step it; where the system may read it later, the
    /// states before it become a reading with it unread.
    pub(super) fn sent_input(
        &mut self,
        gate: usize,
        values: &[Value],
        reads_at_once: bool,
    ) -> Result<(), String> {
        let states = std::mem::take(&mut self.states);
        self.states = self.after(&states, gate, values, true)?;
        if !reads_at_once {
            let read = self.sent.len();
            self.sent.push((gate, values.to_vec()));
            self.others.extend(states.into_iter().map(|s| (s, read)));
        }
        Ok(())
    }

    /// Judges an observation; `expected` is the purpose's output switch and the on-purpose
    /// state, or `None` where the purpose expects an input.
    pub(super) fn observe(
        &mut self,
        observation: Observation,
        on: &mut SemState,
        expected: Option<usize>,
    ) -> Result<(Step, Option<Vec<Value>>), String> {
        self.steps += 1;
        let label = match observation {
            Observation::Quiescence => {
                self.trace.push("delta".into());
                // Quiescence only once every input sent is read.
                self.others.clear();
                let states = std::mem::take(&mut self.states);
                let quiet: Vec<SemState> = states
                    .into_iter()
                    .filter(|s| self.sts.may_be_quiescent(self.solver, s))
                    .collect();
                if quiet.is_empty() && !self.dead_end {
                    return Ok((
                        Step::Fail("quiescence, where the STS requires an output".into()),
                        None,
                    ));
                }
                self.states = quiet;
                return Ok((
                    Step::Leave(match expected {
                        Some(k) => format!(
                            "quiescence, where the purpose expects switch `{}`",
                            self.sts.switches[k].name
                        ),
                        None => "quiescence".into(),
                    }),
                    None,
                ));
            }
            Observation::Output(label) => label,
        };
        self.trace.push(format!("!{label}"));
        let Some((gate, values)) = self
            .sts
            .parse_gate_value(&label)
            .filter(|(g, _)| self.sts.gates[*g].direction == Direction::Output)
        else {
            return Ok((
                Step::Fail(format!(
                    "output `{label}` is no output gate value of the STS"
                )),
                None,
            ));
        };
        let states = std::mem::take(&mut self.states);
        let mut after = self.after(&states, gate, &values, true)?;
        // The other readings: the output first, then the inputs the system may have read since.
        let raced = after.is_empty();
        self.timing |= raced && !self.others.is_empty();
        let mut still = Vec::new();
        for (state, read) in std::mem::take(&mut self.others) {
            for s in self.after(&[state], gate, &values, false)? {
                self.read_on(s, read, &mut after, &mut still)?;
            }
        }
        self.others = still;
        if after.is_empty() {
            if self.dead_end {
                return Ok((
                    Step::Leave(format!(
                        "output `{label}` after an input the STS does not enable in some reading (ioco allows anything there)"
                    )),
                    None,
                ));
            }
            return Ok((
                Step::Fail(format!("output `{label}`, which the STS does not allow")),
                None,
            ));
        }
        self.states = after;
        let on_purpose = !raced
            && expected.is_some_and(|k| {
                let s = &self.sts.switches[k];
                s.gate == gate && self.sts.enabled(on, s, &values)
            });
        if !on_purpose {
            return Ok((
                Step::Leave(format!("output `{label}` leaves the purpose")),
                None,
            ));
        }
        let k = expected.unwrap_or_default();
        *on = self
            .sts
            .successor(on, &self.sts.switches[k], &values)
            .map_err(|e| e.to_string())?;
        Ok((Step::Continue, Some(values)))
    }

    /// Notes a timing-dependent observation: quiescence, one the adapter notes, or a timer
    /// output where a tracked state allowed another output (called before the observation
    /// moves the states on).
    pub(super) fn note_timing(
        &mut self,
        observation: &Observation,
        adapter: &mut dyn Adapter,
        exact: bool,
        timers: &[String],
    ) {
        let timer = adapter.take_timer_note() && self.another_output_allowed(timers);
        let noted = adapter.take_timing_note() | timer;
        self.timing |= !exact && (noted || *observation == Observation::Quiescence);
    }

    /// Whether a tracked state (the followed ones and the other readings) may enable an output
    /// switch whose gate is not one of the timer outputs `timers` (a parameterless gate named
    /// like one): only there can a timer output have overtaken a late answer. A switch the
    /// solver cannot decide counts as enabled, and after an unspecified input anything is.
    pub(super) fn another_output_allowed(&mut self, timers: &[String]) -> bool {
        if self.dead_end {
            return true;
        }
        let states: Vec<SemState> = self
            .states
            .iter()
            .cloned()
            .chain(self.others.iter().map(|(s, _)| s.clone()))
            .collect();
        states.iter().any(|state| {
            self.sts
                .output_switches(self.solver, state)
                .iter()
                .any(|&(k, _)| {
                    let gate = &self.sts.gates[self.sts.switches[k].gate];
                    !(gate.parameters.is_empty() && timers.contains(&gate.name))
                })
        })
    }

    /// The timing rule for a purpose whose attempt (made from the generator state `rng`)
    /// failed with a timing-dependent observation: the attempt is made again with the same
    /// values (the generator restored) and every timeout scaled by 4, then by 16. A re-run that
    /// fails with no timing-dependent observation is the `fail`; one that fails on timing again
    /// goes on to the next scale (after the last one its `fail` stands); one that does not fail
    /// makes the purpose `inconclusive` (reason `timing`), both traces in the reason.
    pub(super) fn rerun_timing_fail(
        &mut self,
        purpose: &PurposePath,
        adapter: &mut dyn Adapter,
        timeouts: &Timeouts,
        rng: &SplitMix64,
        first: String,
    ) -> Result<(PurposeVerdict, String), String> {
        let first = format!("{first}; trace: {}", trace_text(&self.trace));
        let mut last = String::new();
        for factor in TIMING_SCALES {
            self.rng = rng.clone();
            let (verdict, reason) = self.attempt(purpose, adapter, &timeouts.scaled(factor))?;
            match verdict {
                PurposeVerdict::Fail if self.timing => last = reason,
                PurposeVerdict::Fail => {
                    return Ok((
                        PurposeVerdict::Fail,
                        format!(
                            "{reason} (with the timeouts x{factor}; the first failure depended on timing: {first})"
                        ),
                    ));
                }
                PurposeVerdict::Pass | PurposeVerdict::Inconclusive => {
                    return Ok((
                        PurposeVerdict::Inconclusive,
                        format!(
                            "inconclusive (timing): failed with the timeouts given ({first}), did not fail with the timeouts x{factor} ({reason}); the verdict depends on timing"
                        ),
                    ));
                }
            }
        }
        Ok((
            PurposeVerdict::Fail,
            format!("{last} (failed with every scale of the timeouts; first failure: {first})"),
        ))
    }

    /// One attempt at a purpose.
    pub(super) fn attempt(
        &mut self,
        purpose: &PurposePath,
        adapter: &mut dyn Adapter,
        timeouts: &Timeouts,
    ) -> Result<(PurposeVerdict, String), String> {
        adapter.set_timing_scale(timeouts.scale);
        adapter.reset()?;
        let started = Instant::now();
        let mut seen_output = false;
        // A model in process observes nothing by timing.
        let exact = adapter.reads_inputs_at_once();
        self.timing = false;
        self.trace.clear();
        self.sent.clear();
        self.others.clear();
        self.dead_end = false;
        self.last = None;
        self.states = vec![self.sts.initial_state()];
        let mut on = self.sts.initial_state();
        let node = &purpose.node;
        let mut fixed: Vec<Sym> = node.condition.clone();
        let mut first_symbol = 0;
        for (i, &k) in purpose.switches.iter().enumerate() {
            let switch = &self.sts.switches[k];
            let gate = &self.sts.gates[switch.gate];
            let symbols: Vec<usize> =
                (first_symbol..first_symbol + gate.parameters.len()).collect();
            first_symbol += gate.parameters.len();
            let (step, values) = if gate.direction == Direction::Input {
                let grace = SEND_GRACE.saturating_mul(timeouts.scale.max(1));
                if let Some(o) = adapter.pending_output(grace)? {
                    // An output where the purpose sends an input leaves it (`observe` without
                    // an expected switch never continues).
                    self.timing |= !exact;
                    return Ok(
                        match self.observe(Observation::Output(o), &mut on, None)?.0 {
                            Step::Fail(r) => (PurposeVerdict::Fail, r),
                            Step::Leave(r) => (PurposeVerdict::Inconclusive, r),
                            Step::Continue => (PurposeVerdict::Inconclusive, String::new()),
                        },
                    );
                }
                let Some(all) =
                    random_solution(self.solver, &node.symbols, &fixed, &symbols, &mut self.rng)
                else {
                    return Ok((
                        PurposeVerdict::Inconclusive,
                        format!("the solver found no values for step {}", i + 1),
                    ));
                };
                let values: Vec<Value> = symbols.iter().map(|&s| all[s]).collect();
                if !self.sts.enabled(&on, switch, &values) {
                    return Ok((
                        PurposeVerdict::Inconclusive,
                        format!("the solver's values do not enable switch `{}`", switch.name),
                    ));
                }
                let label = self.sts.show_gate_value(switch.gate, &values);
                adapter.send(&label)?;
                self.steps += 1;
                self.trace.push(format!("?{label}"));
                self.sent_input(switch.gate, &values, adapter.reads_inputs_at_once())?;
                on = self
                    .sts
                    .successor(&on, switch, &values)
                    .map_err(|e| e.to_string())?;
                (Step::Continue, Some(values))
            } else {
                let wait = expect_wait(timeouts, true, seen_output, started);
                let observation = adapter.receive(wait)?;
                seen_output |= matches!(observation, Observation::Output(_));
                self.note_timing(&observation, adapter, exact, &timeouts.timer_outputs);
                self.observe(observation, &mut on, Some(k))?
            };
            match step {
                Step::Fail(r) => return Ok((PurposeVerdict::Fail, r)),
                Step::Leave(r) => return Ok((PurposeVerdict::Inconclusive, r)),
                Step::Continue => {}
            }
            for (&s, v) in symbols.iter().zip(values.unwrap_or_default()) {
                fixed.push(Sym::binary(BinOp::Eq, Sym::Symbol(s), Sym::Const(v)));
            }
        }
        // A test case ends with an observation (Def. 3.12): what the system does at the
        // purpose's end must be allowed too.
        let wait = expect_wait(timeouts, true, seen_output, started);
        let observation = adapter.receive(wait)?;
        self.note_timing(&observation, adapter, exact, &timeouts.timer_outputs);
        if let (Step::Fail(r), _) = self.observe(observation, &mut on, None)? {
            return Ok((PurposeVerdict::Fail, r));
        }
        Ok((PurposeVerdict::Pass, "the purpose's end is reached".into()))
    }
}

impl Walker<'_> {
    /// A random input enabled in a random tracked state, with random values, if the solver
    /// finds one.
    pub(super) fn random_input(&mut self) -> Option<(usize, Vec<Value>)> {
        let state = self.states[self.rng.below(self.states.len())].clone();
        let mut candidates: Vec<usize> = (0..self.sts.switches.len())
            .filter(|&k| {
                let s = &self.sts.switches[k];
                s.from == state.location && self.sts.gates[s.gate].direction == Direction::Input
            })
            .collect();
        while !candidates.is_empty() {
            let k = candidates.remove(self.rng.below(candidates.len()));
            let gate = self.sts.switches[k].gate;
            let symbols = self.sts.parameter_symbols(gate);
            let constraints = self.sts.guard_in(&state, k)?;
            let free: Vec<usize> = (0..symbols.len()).collect();
            if let Some(values) =
                random_solution(self.solver, &symbols, &constraints, &free, &mut self.rng)
            {
                return Some((gate, values));
            }
        }
        None
    }
}
