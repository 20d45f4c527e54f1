//! Running suites against a real system through an adapter, and the stdio adapter: the system is
//! a process started from a shell command; inputs are written to its stdin and outputs read from
//! its stdout, one label per line; no line within the quiescence timeout is observed as
//! quiescence (the TorX thesis, Sec. 2.2 and 4: quiescence is observed by a timeout; adapters
//! translate labels to real interactions). Reset restarts the process.
//!
//! The same lines can be carried by a TCP connection instead of the pipes ([`LineAdapter`] over
//! a [`System`](super::tcp::System) of [`super::tcp`]): one `Session` per reset reads and writes lines over its
//! `Peer`, so every rule below holds for both; where a rule speaks of the system exiting, a
//! connection closed (or reset) by the system is meant, and reset connects anew unless the
//! system has a reset label.
//!
//! The execution semantics, shared with the generated pytest and Cargo runtimes
//! (`templates/python/ncomplete_runtime.py.j2`, `templates/rust/runtime.rs.j2`) and checked on the
//! same hostile systems by `tests/hostile_runners.rs`:
//! - Three timeouts ([`Timeouts`]): the quiescence timeout where the test allows quiescence, the
//!   (long) response timeout where it requires an output (always in Mealy suites), and a start-up
//!   allowance added to every wait until the system's first output. The specification's
//!   timeout annotations raise the first two where they apply ([`super::timeouts`]).
//! - A system that exits (any status) or is killed fails the running test with its status; the
//!   exit is detected by waiting on the process, not only by end-of-file on its stdout (a child
//!   may keep that open). Lines it wrote before exiting are still observed first.
//! - A line is the label's bytes exactly, after removing one trailing `\n` or `\r\n`: nothing
//!   else is trimmed, so a line with spaces, `\v`, `\f`, U+0085 or any control character around
//!   the label is an unknown label, shown with those characters escaped ([`shown_label`]).
//! - Invalid UTF-8, an empty line, a line longer than [`MAX_LINE_BYTES`], and an unfinished line
//!   (no newline within the response timeout, or at the end of the output) fail the test: none of
//!   them is quiescence. Lines are read into a bounded buffer and passed on through a bounded
//!   queue, so neither a huge line nor a flood fills the memory.
//! - When a test reaches a verdict other than `fail`, the runner polls the system's exit status
//!   without waiting ([`Adapter::check_alive`]): a system that has already exited or been killed
//!   by then fails the test, even after its last expected output.
//! - The system runs in its own process group (Unix), and the whole group is killed on reset and
//!   when the adapter is dropped: nothing it started survives the test. The groups alive are
//!   registered, and an interrupt of the tester (SIGINT, SIGTERM, SIGHUP) kills them before the
//!   tester dies of it ([`kill_systems_on_interrupt`]).
//! - Inputs are written by a thread, so a system that stops reading cannot block the tester. The
//!   reader and writer threads wait on their pipes in slices of [`PIPE_POLL`] and end when the
//!   test ends, even when a process outside the group (started with `setsid`) keeps the pipes
//!   open: no thread and no pipe outlives its test.
//! - Before the first test, [`startup_problem`] starts the system once: a command the shell
//!   cannot run (status 126 or 127) is one error of the whole run, not one failure per test.
//! - Before it sends an input, the tester listens for the send grace ([`send_grace`]) for an
//!   output already on its way; one that arrives takes the send node's `race` branch.
//!
//! The input/output race (van den Bos Sec. 2.7.4, `Moves(q, a, x) = {T(q, a), T(q, x)}`): an
//! output `x` that arrives after the tester wrote input `a` may have been written by the system
//! before it read `a`. The runner therefore keeps every *reading* of the observations, in order of
//! preference: first the one in which the system read each input as soon as it was written
//! (input-first), then those in which outputs came before inputs still unread (output-first).
//! A reading is a test node and how many of the inputs sent the system has read:
//! - sending `a` at a send node keeps, besides the input-first reading (at `then`), the reading at
//!   the send node with `a` unread; an output in that reading takes the node's `race` branch, and
//!   where that branch reaches a send node of the same input `a`, the input counts as sent there
//!   (it is read, giving its `then`, or stays unread for more racing outputs);
//! - a reading that reaches any other node with an input unread cannot be followed by the test:
//!   it ends in `retry`; quiescence means the system has read every input (readings with one
//!   unread end); there is no bound on the inputs a reading leaves unread, so a burst of inputs
//!   answered late never fails a conforming system;
//! - an observation whose branch is `fail` refutes a reading; the test fails only when every
//!   reading is refuted (the message is that of the preferred one). Otherwise the first
//!   remaining reading decides: the tester sends or waits as its node says, and its verdict
//!   (`pass`, `retry`) is the test's;
//! - with the specification (`run --spec`, [`Timeouts::spec_readings`]), a `retry` is a `fail`
//!   when the specification allows no reading of the trace since the reset
//!   ([`super::spec_readings`]: the output-first readings the tree leaves at `retry` are read
//!   against the specification's states).
//!
//! So a conforming system never fails from a race; the price is that a system whose output `x`,
//! allowed before `a`, comes right after `a` where it is not allowed, is read as racing: the test
//! then goes on in the output-first reading (ioco suites end it in `retry` there). The generated
//! runtimes and on-the-fly testers apply the same rule; `explore` keeps the same readings as sets
//! of specification states. An adapter whose system reads every input at once
//! ([`Adapter::reads_inputs_at_once`]: a model or program stepped in the tester's process) has no
//! race: the input-first reading is the only one, and such a late `x` fails the test.
//!
//! The timing rule (one rule for every runner, issue 41): an observation is *timing-dependent*
//! when it is quiescence (or no output within the response timeout, or at start-up), an output
//! read before an input could be sent (the race branch) or in an output-first reading (the
//! reading followed afterwards is not the trace's order), an unfinished line given up on, a
//! declared timer output ([`Timeouts::timer_outputs`]) read where the node of some reading
//! allowed another output (not quiescence, not a timer output), or
//! any observation made across the tester's own starvation: a wait slice that took longer than
//! asked by more than `max(asked, 50 ms)` ([`starved`]). Before a wait concludes silence, the
//! pipe or socket is looked at without reading (`Session::output_pending`): output the
//! system wrote but the reader thread has not passed on yet (a descheduled tester) is waited
//! for, not read as quiescence. A model stepped in process ([`Adapter::reads_inputs_at_once`])
//! observes nothing by timing.
//! - A `fail` whose trace holds a timing-dependent observation is not reported: the test is
//!   run again on its own (with its retries) with every timeout scaled by 4, then by 16
//!   ([`TIMING_SCALES`], [`Timeouts::scaled`]: capped at 10 s quiescence, 60 s response and
//!   start-up, never below the unscaled value; the send grace scales too). A re-run that fails
//!   with no timing-dependent observation is the `fail` reported; a re-run that does not fail
//!   makes the test `inconclusive` with reason `timing`, both traces reported
//!   ([`SystemOutcome::timing`]); when every scale fails on timing, the `fail` of the largest
//!   is reported with the first trace beside it. Any other `fail` is reported at once.
//! - Latency: the adapter records the delay from each input written (the earliest not yet
//!   answered) or the start to the next output read ([`Adapter::largest_latency`]); a run whose
//!   quiescence timeout is below 3 times the largest warns ([`LatencyWarning`]).
//! - Over TCP, a connection the kernel accepted may never be served (a server that serves
//!   fewer sessions at once than `--jobs`): its silence is not the system's. `run` drives one
//!   session at a time over TCP unless `--jobs` says more; in parallel, a test whose
//!   executions saw no output gets its verdict from a run of its own after the others, one
//!   session at a time ([`run_suite_in_parallel`]).
//!
//! The pieces, bottom to top: `lines.rs` (the line reader), `process.rs` (the pipes and process
//! groups of started systems), `adapter.rs` (one session per reset, and [`LineAdapter`] over
//! them), `race.rs` (one execution of a test and the readings of the input/output race),
//! `run.rs` (a suite run: retries, following, the timing re-runs, parallel jobs).

mod adapter;
mod lines;
mod process;
mod race;
mod run;
#[cfg(test)]
mod tests;

pub use super::spec_readings::TraceStep;
pub use crate::timing::{
    DEFAULT_QUIESCENCE_MS, DEFAULT_RESPONSE_MS, DEFAULT_RETRIES, DEFAULT_STARTUP_MS, START_CHECK,
};
pub use adapter::{LineAdapter, startup_problem};
pub use lines::MAX_LINE_BYTES;
pub use process::{PIPE_POLL, allow_systems, kill_systems_on_interrupt, stop_all_systems};
pub(in crate::exec) use race::trace_text;
pub use race::{
    Attempt, Ending, Execution, execute_from, execute_once, expect_wait, follow, send_grace,
};
pub use run::{
    LatencyWarning, SuiteRun, SystemOutcome, TimingReruns, run_suite_in_parallel,
    run_suite_on_adapter, run_suite_on_system, run_with_retries,
};

use super::spec_readings::SpecReadings;
use crate::suite::timeouts::ModelTimeouts;
use std::sync::Arc;
use std::time::Duration;

/// The timeouts of a run against a system.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// Added to every wait for an output until the system's first output: the time it may take
    /// to start.
    pub startup: Duration,
    /// Silence for this long is observed as quiescence, where the test allows quiescence.
    pub quiescence: Duration,
    /// How long to wait for an output the test requires (quiescence not allowed, every output
    /// of a Mealy suite), and for the rest of an unfinished line.
    pub response: Duration,
    /// The specification's per-state and per-input timeouts, which lengthen the waits above
    /// where they apply ([`super::timeouts`]).
    pub annotations: Option<Arc<ModelTimeouts>>,
    /// The factor every timeout was scaled by for a re-run after a timing-dependent `fail`
    /// ([`Timeouts::scaled`]; 1 for a first run): it also scales the annotations and the send
    /// grace.
    pub scale: u32,
    /// Outputs an adapter's own timer writes (a "settled" label after a silence it measures,
    /// `--timer-outputs`): observing one where another output was allowed is timing-dependent,
    /// like quiescence (docs/src/running.md, "Adapters with timers of their own").
    pub timer_outputs: Vec<String>,
    /// The specification, which refutes the readings a test leaves at `retry` (`run --spec`,
    /// [`super::spec_readings`]).
    pub spec_readings: Option<Arc<SpecReadings>>,
}

/// The factors of the re-runs after a timing-dependent `fail`, in order (the timing rule).
pub const TIMING_SCALES: [u32; 2] = [4, 16];
/// The caps of scaled timeouts (never below the unscaled value).
const SCALED_QUIESCENCE_CAP: Duration = Duration::from_secs(10);
const SCALED_RESPONSE_CAP: Duration = Duration::from_secs(60);
const SCALED_STARTUP_CAP: Duration = Duration::from_secs(60);

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts::from_millis(
            DEFAULT_STARTUP_MS,
            DEFAULT_QUIESCENCE_MS,
            DEFAULT_RESPONSE_MS,
        )
    }
}

impl Timeouts {
    /// The timeouts from milliseconds.
    pub fn from_millis(startup: u64, quiescence: u64, response: u64) -> Self {
        Timeouts {
            startup: Duration::from_millis(startup),
            quiescence: Duration::from_millis(quiescence),
            response: Duration::from_millis(response),
            annotations: None,
            scale: 1,
            timer_outputs: Vec::new(),
            spec_readings: None,
        }
    }

    /// These timeouts with `labels` declared as timer outputs ([`Timeouts::timer_outputs`]).
    pub fn with_timer_outputs(self, labels: Vec<String>) -> Self {
        Timeouts {
            timer_outputs: labels,
            ..self
        }
    }

    /// These timeouts with the specification that refutes readings ([`Timeouts::spec_readings`]).
    pub fn with_spec_readings(self, spec: SpecReadings) -> Self {
        Timeouts {
            spec_readings: Some(Arc::new(spec)),
            ..self
        }
    }

    /// These timeouts for a re-run: every one multiplied by `factor`, capped at 10 s
    /// (quiescence) and 60 s (response, start-up) but never below its unscaled value.
    pub fn scaled(&self, factor: u32) -> Timeouts {
        Timeouts {
            startup: scale_capped(self.startup, factor, SCALED_STARTUP_CAP),
            quiescence: scale_capped(self.quiescence, factor, SCALED_QUIESCENCE_CAP),
            response: scale_capped(self.response, factor, SCALED_RESPONSE_CAP),
            annotations: self.annotations.clone(),
            scale: self.scale.saturating_mul(factor),
            timer_outputs: self.timer_outputs.clone(),
            spec_readings: self.spec_readings.clone(),
        }
    }

    /// These timeouts with the specification's annotations ([`super::timeouts`]).
    pub fn annotated(self, annotations: Option<ModelTimeouts>) -> Self {
        Timeouts {
            annotations: annotations.map(Arc::new),
            ..self
        }
    }

    /// The timeouts at one point of a test: the quiescence timeout raised to `quiescence_ms`
    /// (the largest annotation of the states the tester may be in) and the response timeout to
    /// the annotation of `last_input`, the last input sent.
    pub fn at(&self, quiescence_ms: Option<u64>, last_input: Option<&str>) -> Timeouts {
        let raise = |default: Duration, ms: Option<u64>, cap: Duration| {
            ms.map_or(default, |ms| {
                let annotated = Duration::from_millis(ms);
                default.max(scale_capped(annotated, self.scale, cap.max(annotated)))
            })
        };
        let response_ms = match (&self.annotations, last_input) {
            (Some(a), Some(input)) => a.response_ms(input),
            _ => None,
        };
        Timeouts {
            startup: self.startup,
            quiescence: raise(self.quiescence, quiescence_ms, SCALED_QUIESCENCE_CAP),
            response: raise(self.response, response_ms, SCALED_RESPONSE_CAP),
            annotations: None,
            scale: self.scale,
            timer_outputs: self.timer_outputs.clone(),
            spec_readings: self.spec_readings.clone(),
        }
    }
}

/// `d` times `factor`, at most `cap` but never below `d`.
fn scale_capped(d: Duration, factor: u32, cap: Duration) -> Duration {
    d.saturating_mul(factor.max(1)).min(cap).max(d)
}

/// What the tester observes when it waits for an output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Observation {
    /// The system produced this output label.
    Output(String),
    /// Nothing arrived within the timeout.
    Quiescence,
}

impl Observation {
    /// The output observed, `None` for quiescence.
    pub fn output(self) -> Option<String> {
        match self {
            Observation::Output(o) => Some(o),
            Observation::Quiescence => None,
        }
    }
}

/// The interface between test execution and a system under test.
pub trait Adapter {
    /// Brings the system to its initial state (for a process: restart it).
    fn reset(&mut self) -> Result<(), String>;
    /// Applies an input.
    fn send(&mut self, input: &str) -> Result<(), String>;
    /// Waits at most `timeout` for the next output. `timeout` may be [`Duration::ZERO`] (before
    /// every input of a Mealy suite, see [`send_grace`]): then only an output that has already
    /// arrived is returned, else quiescence at once.
    fn receive(&mut self, timeout: Duration) -> Result<Observation, String>;
    /// An output already on its way before an input is sent: listens for `grace` (a model in
    /// process, which only outputs when waited for, answers `None` at once).
    fn pending_output(&mut self, grace: Duration) -> Result<Option<String>, String> {
        Ok(self.receive(grace)?.output())
    }
    /// Whether the system reads every input before it writes any output that follows it (a
    /// model in process): then the trace's order is the system's and the input/output race
    /// has one reading. A process may write an output before it reads an input on its way.
    fn reads_inputs_at_once(&self) -> bool {
        false
    }
    /// Called when a test reaches a verdict other than `fail`: why the system can no longer be
    /// said to behave (it has exited or was killed), checked without waiting; `Ok` if nothing
    /// is known against it.
    fn check_alive(&mut self) -> Result<(), String> {
        Ok(())
    }
    /// Whether, since the last call, an observation was made in a way that makes it
    /// timing-dependent beyond what the trace shows (the timing rule): across the tester's own
    /// starvation (a wait that took far longer than asked), an unfinished line given up on, or
    /// an output found only by the drain at the end of a wait. Clears the note.
    fn take_timing_note(&mut self) -> bool {
        false
    }
    /// Whether, since the last call, an output declared a timer output
    /// ([`Timeouts::timer_outputs`]: an adapter's own "all quiet" label) was read. Kept apart
    /// from [`Adapter::take_timing_note`] because every runner counts it only where another
    /// output was allowed (the test node's branches, or the specification's states). Clears
    /// the note.
    fn take_timer_note(&mut self) -> bool {
        false
    }
    /// The largest delay seen from an input written (or the start) to the next output read.
    fn largest_latency(&self) -> Option<Duration> {
        None
    }
    /// The factor the timeouts are scaled by from now on (1 for a first run, then those of
    /// [`TIMING_SCALES`]): a process the adapter starts gets it as `NCOMPLETE_TIMING_SCALE`,
    /// so that an adapter process scales its own timers with the runner's.
    fn set_timing_scale(&mut self, _scale: u32) {}
}

/// The variable that tells a started system the factor of the runner's timeouts
/// ([`Adapter::set_timing_scale`]).
pub const TIMING_SCALE_VARIABLE: &str = "NCOMPLETE_TIMING_SCALE";

/// Whether a wait or sleep that was asked to take `asked` and took `took` shows the tester's
/// own starvation (the timing rule): it took longer than asked by more than
/// `max(asked, 50 ms)`.
pub fn starved(asked: Duration, took: Duration) -> bool {
    took.saturating_sub(asked) > asked.max(STARVATION_MARGIN)
}

/// The least lateness of a wait that counts as starvation ([`starved`]).
const STARVATION_MARGIN: Duration = Duration::from_millis(50);

/// A label as messages show it: control characters anywhere, and whitespace at either end, as
/// `\u{..}` (lowercase hexadecimal), the rest as it is. Labels of a model hold neither, so only
/// unknown labels change; the generated runtimes show labels the same way.
pub fn shown_label(label: &str) -> String {
    let last = label.chars().count().saturating_sub(1);
    let mut shown = String::with_capacity(label.len());
    for (k, c) in label.chars().enumerate() {
        if c.is_control() || (c.is_whitespace() && (k == 0 || k == last)) {
            shown.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            shown.push(c);
        }
    }
    shown
}
