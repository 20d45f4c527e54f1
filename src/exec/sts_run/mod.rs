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
//!
//! The pieces, bottom to top: `purposes.rs` ([`PurposePath`], the purposes file),
//! `report.rs` ([`StsRunReport`]), `options.rs` ([`StsRunOptions`]), `walker.rs` (one attempt,
//! a step at a time), `run.rs` ([`run_purposes`], [`random_run`]), `adapter.rs`
//! ([`StsAdapter`]).

mod adapter;
mod options;
mod purposes;
mod report;
mod run;
#[cfg(all(test, feature = "smt"))]
mod tests;
mod walker;

pub use adapter::StsAdapter;
pub use options::{DEFAULT_ATTEMPTS, StsRunOptions};
pub use purposes::{PurposeError, PurposeFile, PurposePath, purpose_path, purposes_from_json};
pub use report::{PurposeOutcome, PurposeVerdict, StsRunReport};
pub use run::{random_run, run_purposes};
