//! The entry of an exploration ([`explore`]): the loop run until a failure or a stop
//! condition, and the timing rule's replays of a run that failed on timing.

use crate::exec::stdio::{Adapter, TIMING_SCALES, TimingReruns, trace_text};
use std::time::Instant;

use super::explorer::{Explorer, Move, ReplayVerdict};
use super::options::{ExploreOptions, StopReason};
use super::report::{ExploreReport, ExploreStatus};
use super::spec::ExploreSpec;

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
pub(super) fn replay_timing_fail(
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
