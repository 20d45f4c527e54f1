//! The entries of an STS run: the purposes executed in rounds ([`run_purposes`]) and the
//! random walk ([`random_run`]).

use crate::exec::stdio::{Adapter, Observation, Timeouts, expect_wait};
use crate::sts::purposes::Criterion;
use crate::sts::solver::Solver;
use crate::sts::types::Sts;
use std::time::Instant;

use super::options::StsRunOptions;
use super::purposes::PurposePath;
use super::report::{PurposeOutcome, PurposeVerdict, StsRunReport};
use super::walker::{SEND_GRACE, Step, Walker};

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
