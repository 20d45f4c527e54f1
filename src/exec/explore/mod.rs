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
//! The system is an [`Adapter`](super::stdio::Adapter): a process on the stdio protocol (the
//! timeouts and failure rules of [`super::stdio`]), or a model in process ([`ModelAdapter`],
//! outputs chosen by a seeded generator as `ncomplete simulate --choose random` does).
//!
//! The pieces, bottom to top: `options.rs` ([`ExploreOptions`], [`Policy`]), `spec.rs`
//! ([`ExploreSpec`]), `report.rs` ([`ExploreReport`]), `model_adapter.rs` ([`ModelAdapter`]),
//! `explorer.rs` (the loop, one move at a time), `run.rs` ([`explore`] and the replays of the
//! timing rule).

mod explorer;
mod model_adapter;
mod options;
mod report;
mod run;
mod spec;
#[cfg(test)]
mod tests;

pub use super::spec_automaton::specification_automaton;
pub use model_adapter::ModelAdapter;
pub use options::{CoverageTarget, ExploreOptions, Policy, StopReason};
pub use report::{Coverage, ExploreReport, ExploreStatus, GoalTally, UNCOVERED_LISTED};
pub use run::explore;
pub use spec::ExploreSpec;
