//! On-the-fly execution of switch-coverage test purposes of an STS against a system (van den
//! Bos Sec. 4.4 and its on-the-fly algorithm; `ncomplete explore X.sts.yaml --cover switches`
//! or `--purposes FILE`), and an STS in process as the system ([`StsAdapter`]).
//!
//! A purpose is a path `r1 … rn` of the symbolic execution graph with its path condition over
//! the path's symbols. It is walked step by step after a reset:
//! - an input step gets concrete values from the solver for the path condition with the values
//!   of earlier steps fixed (so the rest of the path stays feasible), random where the
//!   condition leaves freedom (seeded: the same seed and system give the same run); the label
//!   `gate(v1,…)` is sent;
//! - an output step waits for an output (the stdio timeouts), parsed as a gate value.
//!
//! The tester tracks the concrete semantic states (Def. 4.5) the trace can lead to: once inputs
//! and outputs are concrete the STS's interpretation is followed exactly, without instantiating
//! it. An output no tracked state enables, a label that is no output gate value, or quiescence
//! where every tracked state certainly enables an output (the solver finds values for a guard)
//! is `fail`: ioco is violated on that trace. An output the STS allows but that does not take
//! the purpose's switch, or quiescence where the purpose expects an output, ends the attempt
//! `inconclusive` (it is not continued towards the purpose: the path from the new state is
//! not the purpose's); the purpose is then retried with fresh values, up to its attempts.
//! Reaching the purpose's end, and then one more observation the STS allows (a test case ends
//! with an observation), is `pass`. The set of purposes is executed `rounds` times (the thesis
//! repeats the whole set before a purpose is tried again); a run stops at the first `fail`.
//!
//! The input/output race (van den Bos Sec. 2.7.4, `Moves(q, a, x) = {T(q, a), T(q, x)}`, the
//! rule of [`super::stdio`]): an output read after inputs were sent may have been written before
//! the system read some of them. When the system does not read inputs at once, the tester keeps,
//! besides the states after every input sent (the followed reading), the other *readings* since
//! the reset: states with the number of inputs sent the system has read in them (any number
//! of inputs unread: a burst of inputs answered late is no fail). Sending an input keeps the
//! reading in which it is unread;
//! an output steps every reading, and a reading that has an input unread may then read it (and
//! the next ones); quiescence drops the readings with an input unread. An observation fails only
//! when no reading allows it; readings that caught up with every input join the followed states.
//! A reading in which the system read an input the STS does not enable allows anything after it
//! (ioco), so the attempt can then no longer fail.
//!
//! The timing rule of [`super::stdio`]: an attempt that fails with a timing-dependent
//! observation (quiescence, an output read before an input could be sent or read output-first,
//! an observation across the tester's starvation) is not reported: the same attempt (the same
//! values: the generator is restored) is made again with every timeout scaled by 4, then 16;
//! a re-run that does not fail makes the purpose `inconclusive` with reason `timing`, and no
//! further attempt is made.
//!
//! A posteriori switch coverage: the switches the observed traces were taken through, counted
//! where the trace determines the switch (one tracked state, one switch enabling the step).

use super::stdio::{Adapter, Observation, TIMING_SCALES, Timeouts, expect_wait, trace_text};
use crate::rng::SplitMix64;
use crate::sts::concrete::{StsSystem, random_solution};
use crate::sts::expr::{BinOp, Value};
use crate::sts::purposes::{Criterion, Item, Pin, pinned_path, ratio, step_items};
use crate::sts::solver::Solver;
use crate::sts::symbolic::{SegNode, Sym};
use crate::sts::types::{Direction, SemState, Sts};
use serde_json::json;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// How long the tester listens for an output already on its way before it sends an input.
const SEND_GRACE: Duration = Duration::from_millis(20);

/// A purpose to execute: its switches and the node of the symbolic execution graph it reaches
/// (symbols and path condition).
#[derive(Clone, Debug)]
pub struct PurposePath {
    /// The switches, in order.
    pub switches: Vec<usize>,
    /// The symbolic state at its end.
    pub node: SegNode,
}

impl From<crate::sts::purposes::Purpose> for PurposePath {
    fn from(p: crate::sts::purposes::Purpose) -> Self {
        PurposePath {
            switches: p.path,
            node: p.end,
        }
    }
}

/// Why purpose paths could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PurposeError {
    /// The purposes file is not what `generate --cover switches` writes.
    #[error("{0}")]
    Shape(String),
    /// A switch named in the file is not in the model.
    #[error("purpose {purpose}: the model has no switch `{switch}`")]
    UnknownSwitch {
        /// The purpose's number, from 1.
        purpose: usize,
        /// The name.
        switch: String,
    },
    /// The path is not a path of the model's symbolic execution graph.
    #[error(
        "purpose {purpose}: switch `{switch}` at step {step} does not continue the path (wrong location, or its guard contradicts the path condition)"
    )]
    NotAPath {
        /// The purpose's number, from 1.
        purpose: usize,
        /// The switch.
        switch: String,
        /// Its step, from 1.
        step: usize,
    },
}

/// The symbolic path of `switches` from the root with its pins, checked with the solver.
pub fn purpose_path(
    sts: &Sts,
    solver: &mut dyn Solver,
    switches: Vec<usize>,
    pins: &[Pin],
    number: usize,
) -> Result<PurposePath, PurposeError> {
    match pinned_path(sts, solver, &switches, pins) {
        Ok((node, _)) => Ok(PurposePath { switches, node }),
        Err(step) => Err(PurposeError::NotAPath {
            purpose: number,
            switch: sts.switches[switches[step - 1]].name.clone(),
            step,
        }),
    }
}

/// What a purposes file holds for a run: its purposes, the criterion that selected them and
/// the criterion's feasible items beyond switches when the file lists them.
#[derive(Clone, Debug)]
pub struct PurposeFile {
    /// The purposes, in the file's order.
    pub paths: Vec<PurposePath>,
    /// `cover` (switch coverage when absent).
    pub criterion: Criterion,
    /// `item_coverage.feasible`; `None` when the file has no such key (a file written before
    /// the key existed, or of switch coverage).
    pub items: Option<Vec<Item>>,
}

/// The purposes of an `ncomplete-sts-purposes` JSON document for `sts`.
pub fn purposes_from_json(
    sts: &Sts,
    solver: &mut dyn Solver,
    text: &str,
) -> Result<PurposeFile, PurposeError> {
    let shape = |m: &str| PurposeError::Shape(m.to_owned());
    let doc: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        PurposeError::Shape(format!(
            "not JSON at line {}, column {}: {e}",
            e.line(),
            e.column()
        ))
    })?;
    if doc["format"] != crate::sts::purposes::FORMAT
        || doc["version"] != crate::sts::purposes::VERSION
    {
        return Err(shape(
            "expected `\"format\": \"ncomplete-sts-purposes\"`, `\"version\": 1` (what `generate --cover switches` writes)",
        ));
    }
    if doc["model"] != sts.name.as_str() {
        return Err(PurposeError::Shape(format!(
            "the purposes are of model {}, not of {}",
            doc["model"], sts.name
        )));
    }
    let criterion = match doc.get("cover") {
        None => Criterion::SWITCHES,
        Some(c) => c
            .as_str()
            .and_then(Criterion::from_name)
            .ok_or_else(|| shape("`cover` must be `switches` or `switch-pairs`"))?,
    };
    let purposes = doc["purposes"]
        .as_array()
        .ok_or_else(|| shape("`purposes` must be an array"))?;
    let mut out = Vec::new();
    for (i, p) in purposes.iter().enumerate() {
        let steps = p["steps"]
            .as_array()
            .ok_or_else(|| shape("every purpose needs its `steps` array"))?;
        let mut switches = Vec::new();
        for step in steps {
            let name = step["switch"]
                .as_str()
                .ok_or_else(|| shape("every step needs its `switch` name"))?;
            let k = sts
                .switches
                .iter()
                .position(|s| s.name == name)
                .ok_or_else(|| PurposeError::UnknownSwitch {
                    purpose: i + 1,
                    switch: name.to_owned(),
                })?;
            switches.push(k);
        }
        let mut pins = Vec::new();
        for pin in p.get("pins").map_or(Ok(&Vec::new()), |x| {
            x.as_array().ok_or_else(|| shape("`pins` must be an array"))
        })? {
            let bad = || {
                PurposeError::Shape(format!(
                    "purpose {}: a pin needs `step` (1 to {}), `variable` (an integer variable of the model) and `value`",
                    i + 1,
                    switches.len()
                ))
            };
            let step = pin["step"]
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .filter(|n| (1..=switches.len()).contains(n))
                .ok_or_else(bad)?;
            let variable = pin["variable"]
                .as_str()
                .and_then(|name| sts.variables.iter().position(|v| v.name == name))
                .filter(|&v| matches!(sts.variables[v].ty, crate::sts::types::Type::Int { .. }))
                .ok_or_else(bad)?;
            let value = pin["value"].as_i64().ok_or_else(bad)?;
            pins.push(Pin {
                step,
                variable,
                value,
            });
        }
        out.push(purpose_path(sts, solver, switches, &pins, i + 1)?);
    }
    let items = match doc.get("item_coverage").and_then(|c| c.get("feasible")) {
        None => None,
        Some(list) => Some(
            list.as_array()
                .ok_or_else(|| shape("`item_coverage.feasible` must be an array"))?
                .iter()
                .map(|x| {
                    Item::from_json(sts, x).ok_or_else(|| {
                        PurposeError::Shape(format!(
                            "`item_coverage.feasible`: {x} is no item of the model (`{{\"switches\": [r1, r2]}}` or `{{\"switch\": r, \"variable\": x, \"value\": n}}`)"
                        ))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?,
        ),
    };
    Ok(PurposeFile {
        paths: out,
        criterion,
        items,
    })
}

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

/// The options of a run.
#[derive(Clone, Debug)]
pub struct StsRunOptions {
    /// Seed of the tester's value choices.
    pub seed: u64,
    /// Attempts per purpose while it ends inconclusive.
    pub attempts: usize,
    /// Times the whole set of purposes is executed (each time with fresh values), stopping at
    /// the first failure: the thesis' repetition "all test purposes are executed before these
    /// are tried again".
    pub rounds: usize,
    /// The stdio timeouts.
    pub timeouts: Timeouts,
    /// The criterion whose a posteriori coverage is reported beyond switches.
    pub criterion: Criterion,
    /// Its feasible items beyond switches ([`crate::sts::purposes::feasible_items`]).
    pub items: Vec<Item>,
}

/// Attempts per purpose unless told otherwise (`explore --attempts`' default).
pub const DEFAULT_ATTEMPTS: usize = 5;

impl StsRunOptions {
    /// A run of `rounds` rounds seeded with `seed`, with [`DEFAULT_ATTEMPTS`] attempts per
    /// purpose and no items beyond switches counted (see [`StsRunOptions::with_items`]).
    pub fn new(seed: u64, rounds: usize, timeouts: Timeouts, criterion: Criterion) -> Self {
        StsRunOptions {
            seed,
            attempts: DEFAULT_ATTEMPTS,
            rounds,
            timeouts,
            criterion,
            items: Vec::new(),
        }
    }

    /// The same with `attempts` attempts per purpose.
    pub fn with_attempts(self, attempts: usize) -> Self {
        StsRunOptions { attempts, ..self }
    }

    /// The same counting the a posteriori coverage of `items` (the criterion's feasible items
    /// beyond switches).
    pub fn with_items(self, items: Vec<Item>) -> Self {
        StsRunOptions { items, ..self }
    }
}

enum Step {
    Continue,
    Leave(String),
    Fail(String),
}

struct Walker<'a> {
    sts: &'a Sts,
    solver: &'a mut dyn Solver,
    rng: SplitMix64,
    exercised: Vec<bool>,
    steps: u64,
    trace: Vec<String>,
    states: Vec<SemState>,
    /// The inputs sent since the reset, while the system may not read them at once.
    sent: Vec<(usize, Vec<Value>)>,
    /// The readings with an input unread: a state and the number of `sent` read in it.
    others: Vec<(SemState, usize)>,
    /// A reading read an input the STS does not enable: anything is allowed after it.
    dead_end: bool,
    criterion: Criterion,
    /// The position of each item of the criterion beyond switches.
    item_index: HashMap<Item, usize>,
    /// Per item, whether an observed trace covered it.
    items_exercised: Vec<bool>,
    /// The switch the trace's last step determined, if it did.
    last: Option<usize>,
    /// Whether the attempt's trace holds a timing-dependent observation (the timing rule of
    /// [`super::stdio`]): quiescence, an output read before an input could be sent or read
    /// output-first, an observation the adapter notes ([`Adapter::take_timing_note`]).
    timing: bool,
}

impl<'a> Walker<'a> {
    /// A walker of `sts` at its initial state, its choices from `seed`, tracking the coverage
    /// of `criterion` and of `items`.
    fn new(
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
    fn after(
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
    fn read_on(
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
    fn sent_input(
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
    fn observe(
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
    fn note_timing(
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
    fn another_output_allowed(&mut self, timers: &[String]) -> bool {
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
    fn rerun_timing_fail(
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
    fn attempt(
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

/// Executes `purposes` against the system behind `adapter`; `progress` is told each purpose's
/// number when it is done. An `Err` is the system's failure to run (or a model error met).
pub fn run_purposes(
    sts: &Sts,
    solver: &mut dyn Solver,
    purposes: &[PurposePath],
    adapter: &mut dyn Adapter,
    options: &StsRunOptions,
    mut progress: impl FnMut(usize),
) -> Result<StsRunReport, String> {
    let mut walker = Walker::new(sts, solver, options.seed, options.criterion, &options.items);
    let mut outcomes = Vec::new();
    let mut steps_to_failure = None;
    let rounds = options.rounds.max(1);
    for (i, purpose) in purposes
        .iter()
        .cycle()
        .take(purposes.len() * rounds)
        .enumerate()
    {
        let mut attempts = 0;
        let (verdict, reason) = loop {
            attempts += 1;
            let rng = walker.rng.clone();
            let (verdict, reason) = walker.attempt(purpose, adapter, &options.timeouts)?;
            if verdict == PurposeVerdict::Fail && walker.timing {
                // Decided by the re-runs: never another attempt after them.
                break walker.rerun_timing_fail(
                    purpose,
                    adapter,
                    &options.timeouts,
                    &rng,
                    reason,
                )?;
            }
            if verdict != PurposeVerdict::Inconclusive || attempts >= options.attempts.max(1) {
                break (verdict, reason);
            }
        };
        if verdict != PurposeVerdict::Fail {
            adapter.check_alive()?;
        }
        outcomes.push(PurposeOutcome {
            switches: purpose
                .switches
                .iter()
                .map(|&k| sts.switches[k].name.clone())
                .collect(),
            verdict,
            attempts,
            trace: walker.trace.clone(),
            reason,
        });
        progress(i + 1);
        if verdict == PurposeVerdict::Fail {
            steps_to_failure = Some(walker.steps);
            break;
        }
    }
    Ok(StsRunReport {
        model: sts.name.clone(),
        purposes: outcomes,
        total: purposes.len(),
        rounds,
        exercised: walker.exercised,
        switch_names: sts.switches.iter().map(|s| s.name.clone()).collect(),
        criterion: options.criterion,
        items: options
            .items
            .iter()
            .zip(&walker.items_exercised)
            .map(|(x, &e)| (x.name(sts), e))
            .collect(),
        steps: walker.steps,
        steps_to_failure,
    })
}

/// Random on-the-fly testing of an STS without purposes (the TorXakis-like baseline of the
/// thesis' Table 4.1): at every step, with even odds, an input — a random input switch of a
/// tracked state whose guard the solver can satisfy, with random values — or an observation,
/// judged as in [`run_purposes`]. No resets. Returns the inputs and outputs up to and including
/// the first failing observation, `None` when `max_steps` pass without one.
pub fn random_run(
    sts: &Sts,
    solver: &mut dyn Solver,
    adapter: &mut dyn Adapter,
    seed: u64,
    max_steps: u64,
    timeouts: &Timeouts,
) -> Result<Option<u64>, String> {
    let mut walker = Walker::new(sts, solver, seed, Criterion::SWITCHES, &[]);
    adapter.reset()?;
    let started = Instant::now();
    let mut on = sts.initial_state();
    while walker.steps < max_steps {
        let input = if walker.rng.below(2) == 0 {
            walker.random_input()
        } else {
            None
        };
        let observation = match input {
            Some((gate, values)) => {
                if let Some(o) = adapter.pending_output(SEND_GRACE)? {
                    Some(Observation::Output(o))
                } else {
                    adapter.send(&sts.show_gate_value(gate, &values))?;
                    walker.steps += 1;
                    walker.sent_input(gate, &values, adapter.reads_inputs_at_once())?;
                    None
                }
            }
            None => Some(adapter.receive(expect_wait(timeouts, true, true, started))?),
        };
        if let Some(observation) = observation
            && let (Step::Fail(_), _) = walker.observe(observation, &mut on, None)?
        {
            return Ok(Some(walker.steps));
        }
        if walker.states.is_empty() {
            // An input no tracked state enables: ioco allows anything after it.
            return Ok(None);
        }
    }
    Ok(None)
}

impl Walker<'_> {
    /// A random input enabled in a random tracked state, with random values, if the solver
    /// finds one.
    fn random_input(&mut self) -> Option<(usize, Vec<Value>)> {
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

/// An STS in process as the system under test ([`StsSystem`]: outputs and their values chosen
/// by a seeded generator and the solver; inputs no switch enables are ignored).
pub struct StsAdapter<'a> {
    system: StsSystem<'a>,
}

impl<'a> StsAdapter<'a> {
    /// The implementation `sts`, its choices seeded by `seed`.
    pub fn new(sts: &'a Sts, solver: Box<dyn Solver>, seed: u64) -> Self {
        StsAdapter {
            system: StsSystem::new(sts, solver, seed, true),
        }
    }
}

impl Adapter for StsAdapter<'_> {
    fn reset(&mut self) -> Result<(), String> {
        self.system.reset();
        Ok(())
    }

    fn send(&mut self, input: &str) -> Result<(), String> {
        self.system
            .input(input)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    fn receive(&mut self, _timeout: Duration) -> Result<Observation, String> {
        Ok(match self.system.output().map_err(|e| e.to_string())? {
            Some(o) => Observation::Output(o),
            None => Observation::Quiescence,
        })
    }

    /// The model steps on an input when it is sent.
    fn reads_inputs_at_once(&self) -> bool {
        true
    }

    /// The model outputs as soon as it can (as `simulate --delay-ms 0`): an enabled output is
    /// on its way before any input.
    fn pending_output(&mut self, _grace: Duration) -> Result<Option<String>, String> {
        self.system.output().map_err(|e| e.to_string())
    }
}

#[cfg(all(test, feature = "smt"))]
mod tests {
    use super::*;
    use crate::sts::load::{Syntax, parse_sts};
    use crate::sts::z3::Z3Solver;

    fn bundled(path: &str) -> Sts {
        let file = format!("{}/models/sts/{path}.sts.yaml", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&file).unwrap();
        parse_sts(&text, &file, path, Syntax::Yaml).unwrap()
    }

    /// The one timer-output rule in the purpose runner: a timer output counts only where a
    /// tracked state may enable another output switch (`ready_hello`: only `ready` at the
    /// start, only `hello` once ready).
    #[test]
    fn a_timer_output_counts_only_where_another_output_is_allowed() {
        let file = format!(
            "{}/tests/fixtures/ready_hello.sts.yaml",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&file).unwrap();
        let sts = parse_sts(&text, &file, "ready_hello", Syntax::Yaml).unwrap();
        let mut solver = Z3Solver::new();
        let mut walker = Walker::new(&sts, &mut solver, 0, Criterion::SWITCHES, &[]);
        let names = |labels: &[&str]| labels.iter().map(|l| l.to_string()).collect::<Vec<_>>();
        assert!(!walker.another_output_allowed(&names(&["ready"])));
        assert!(walker.another_output_allowed(&names(&["hello"])));
        let ready = sts.gates.iter().position(|g| g.name == "ready").unwrap();
        let start = std::mem::take(&mut walker.states);
        walker.states = walker.after(&start, ready, &[], false).unwrap();
        assert!(walker.another_output_allowed(&names(&["ready"])));
        assert!(!walker.another_output_allowed(&names(&["hello"])));
        // Another reading still at the start allows `ready`.
        walker.others = vec![(sts.initial_state(), 0)];
        assert!(walker.another_output_allowed(&names(&["hello"])));
    }

    #[test]
    fn random_runs_fail_a_mutant_and_not_the_specification() {
        let spec = bundled("brp");
        let mutant = bundled("mutants/brp_toggle");
        let timeouts = Timeouts::default();
        let mut found = 0;
        for seed in 0..5 {
            let mut adapter = StsAdapter::new(&mutant, Box::new(Z3Solver::new()), seed);
            let steps = random_run(
                &spec,
                &mut Z3Solver::new(),
                &mut adapter,
                seed,
                400,
                &timeouts,
            )
            .unwrap();
            found += usize::from(steps.is_some());
            let mut adapter = StsAdapter::new(&spec, Box::new(Z3Solver::new()), seed);
            let steps = random_run(
                &spec,
                &mut Z3Solver::new(),
                &mut adapter,
                seed,
                200,
                &timeouts,
            )
            .unwrap();
            assert_eq!(steps, None, "seed {seed}: the specification never fails");
        }
        assert!(
            found >= 4,
            "the toggle fault is found within 400 steps: {found}/5"
        );
    }

    #[test]
    fn a_purposes_file_gives_back_its_feasible_items() {
        let sts = bundled("brp");
        let purposes = crate::sts::purposes::item_purposes(
            &sts,
            &mut Z3Solver::new(),
            Criterion::SWITCH_PAIRS,
        )
        .unwrap();
        assert!(!purposes.items.is_empty());
        let text = purposes.to_json(&sts);
        let file = purposes_from_json(&sts, &mut Z3Solver::new(), &text).unwrap();
        assert_eq!(file.criterion, Criterion::SWITCH_PAIRS);
        assert_eq!(file.items.as_ref(), Some(&purposes.items));
        assert_eq!(file.paths.len(), purposes.purposes.len());
        // A file written before the key existed still reads, without items.
        let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        doc["item_coverage"]
            .as_object_mut()
            .unwrap()
            .remove("feasible");
        let old = purposes_from_json(&sts, &mut Z3Solver::new(), &doc.to_string()).unwrap();
        assert_eq!(old.items, None);
        // An item of another model is refused with the shape expected.
        doc["item_coverage"]["feasible"] =
            json!([{"switch": "no_such", "variable": "i", "value": 1}]);
        let err = purposes_from_json(&sts, &mut Z3Solver::new(), &doc.to_string()).unwrap_err();
        assert!(err.to_string().contains("no item of the model"), "{err}");
    }

    /// Whether the purposes of `criterion` on `spec` fail `mutant` (one round, seed 1).
    fn detects(spec: &Sts, criterion: Criterion, mutant: &Sts) -> bool {
        let purposes =
            crate::sts::purposes::item_purposes(spec, &mut Z3Solver::new(), criterion).unwrap();
        let paths: Vec<PurposePath> = purposes.purposes.into_iter().map(Into::into).collect();
        let mut adapter = StsAdapter::new(mutant, Box::new(Z3Solver::new()), 7);
        let options = StsRunOptions::new(1, 1, Timeouts::default(), criterion);
        let report = run_purposes(
            spec,
            &mut Z3Solver::new(),
            &paths,
            &mut adapter,
            &options,
            |_| {},
        )
        .unwrap();
        report.verdict() == PurposeVerdict::Fail
    }

    #[test]
    fn switch_pair_coverage_needs_both_pairs_and_bounds() {
        // The three mutants switch coverage misses: each half of switch-pair coverage alone
        // misses some, the whole criterion detects all.
        let pairs_only = Criterion {
            pairs: true,
            bounds: false,
        };
        let bounds_only = Criterion {
            pairs: false,
            bounds: true,
        };
        for (spec, mutant, by_pairs, by_bounds) in [
            ("brp", "brp_last", false, true),
            ("brp", "brp_last_dk", false, true),
            ("login", "login_assign", true, false),
        ] {
            let spec = bundled(spec);
            let mutant = bundled(&format!("mutants/{mutant}"));
            assert!(
                detects(&spec, Criterion::SWITCH_PAIRS, &mutant),
                "{}: switch-pairs",
                mutant.name
            );
            assert_eq!(
                detects(&spec, pairs_only, &mutant),
                by_pairs,
                "{}: pairs without bounds",
                mutant.name
            );
            assert_eq!(
                detects(&spec, bounds_only, &mutant),
                by_bounds,
                "{}: bounds without pairs",
                mutant.name
            );
        }
    }
}
