//! Running suites against a real system through an adapter, and the stdio adapter: the system is
//! a process started from a shell command; inputs are written to its stdin and outputs read from
//! its stdout, one label per line; no line within the quiescence timeout is observed as
//! quiescence (the TorX thesis, Sec. 2.2 and 4: quiescence is observed by a timeout; adapters
//! translate labels to real interactions). Reset restarts the process.
//!
//! The same lines can be carried by a TCP connection instead of the pipes ([`LineAdapter`] over
//! a [`System`] of [`super::tcp`]): one `Session` per reset reads and writes lines over its
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

use super::ExecError;
use super::simulate::TestVerdict;
use super::spec_readings::SpecReadings;
use super::tcp::{self, System};
use super::timeouts::ModelTimeouts;
use crate::model::LabelId;
use crate::suite::{Next, SuiteModel, TestCase, TestNode, Verdict};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
#[cfg(unix)]
use std::sync::atomic::AtomicI32;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

/// Default start-up allowance in milliseconds.
pub const DEFAULT_STARTUP_MS: u64 = 1000;
/// Default quiescence timeout in milliseconds.
pub const DEFAULT_QUIESCENCE_MS: u64 = 200;
/// Default response timeout in milliseconds.
pub const DEFAULT_RESPONSE_MS: u64 = 5000;
/// Default number of re-runs of a test that ended in `retry`.
pub const DEFAULT_RETRIES: usize = 20;
/// The longest output line accepted, newline excluded.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// Lines read ahead of the tester at most (a flooding system then blocks on its pipe).
const QUEUED_LINES: usize = 1024;
/// How often a waiting tester checks whether the system has exited.
const POLL: Duration = Duration::from_millis(10);
/// How long the tester waits for the rest of the output after the system exited, and for the
/// exit status after the system closed a pipe.
const EXIT_GRACE: Duration = Duration::from_millis(500);
/// Bytes of an unfinished line quoted in messages.
const QUOTED_BYTES: usize = 40;
/// How long the reader and writer threads wait on a pipe before they check whether their test
/// has ended.
pub const PIPE_POLL: Duration = Duration::from_millis(50);
/// How long [`startup_problem`] watches a freshly started system for the shell's "cannot run"
/// statuses.
pub const START_CHECK: Duration = Duration::from_millis(250);
/// Bytes a pipe that polls writable takes without blocking (POSIX's least `PIPE_BUF`).
#[cfg(unix)]
const PIPE_CHUNK: usize = 512;
/// Shell statuses of a command that cannot run: not executable (126), not found (127).
const CANNOT_RUN: [i32; 2] = [126, 127];

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

/// What the reader thread passes on from the system's stdout.
#[derive(Debug, PartialEq, Eq)]
enum Event {
    /// A complete line, without its line end.
    Line(String),
    /// Bytes of a line whose newline has not arrived yet (the first few, for messages).
    Partial(String),
    /// End of the output.
    End,
    /// Output that breaks the protocol; nothing more is read.
    Broken(String),
}

/// Reads `stdout` line by line into `events` until the end, a protocol violation, or until the
/// receiver is gone; `true` when the end of the output was read. Memory stays bounded by
/// [`MAX_LINE_BYTES`] whatever the system writes.
fn read_lines(mut stdout: impl Read, events: &SyncSender<Event>) -> bool {
    let mut line: Vec<u8> = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let n = match stdout.read(&mut chunk) {
            Ok(0) => {
                let _ = events.send(Event::End);
                return true;
            }
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            // A connection the system reset is closed, as one it shut down.
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                let _ = events.send(Event::End);
                return true;
            }
            Err(e) => {
                let _ = events.send(Event::Broken(format!("cannot read the output: {e}")));
                return false;
            }
        };
        let mut rest = &chunk[..n];
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            line.extend_from_slice(&rest[..end]);
            rest = &rest[end + 1..];
            let event = complete_line(std::mem::take(&mut line));
            let stop = matches!(event, Event::Broken(_));
            if events.send(event).is_err() || stop {
                return false;
            }
        }
        line.extend_from_slice(rest);
        let event = if line.len() > MAX_LINE_BYTES {
            Event::Broken(too_long())
        } else if line.is_empty() {
            continue;
        } else {
            Event::Partial(quoted(&line))
        };
        let stop = matches!(event, Event::Broken(_));
        if events.send(event).is_err() || stop {
            return false;
        }
    }
}

fn too_long() -> String {
    format!("the system wrote a line longer than {MAX_LINE_BYTES} bytes")
}

/// The first bytes of an unfinished line, readably.
fn quoted(line: &[u8]) -> String {
    let head = &line[..line.len().min(QUOTED_BYTES)];
    String::from_utf8_lossy(head).escape_debug().to_string()
}

/// A complete line (newline removed) as an event: a label, or why it is not one. One `\r`
/// before the newline is removed too; nothing else is trimmed.
fn complete_line(mut line: Vec<u8>) -> Event {
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    if line.len() > MAX_LINE_BYTES {
        return Event::Broken(too_long());
    }
    match String::from_utf8(line) {
        Err(e) => Event::Broken(format!(
            "the system wrote invalid UTF-8 (`{}`)",
            quoted(e.as_bytes())
        )),
        Ok(text) if text.is_empty() => Event::Broken(
            "the system wrote an empty line (the protocol is one label per line)".into(),
        ),
        Ok(text) => Event::Line(text),
    }
}

/// How a process ended, in the words of every runner.
fn exit_text(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("the system was killed by signal {signal}");
        }
    }
    match status.code() {
        Some(code) => format!("the system exited with status {code}"),
        None => format!("the system exited ({status})"),
    }
}

/// A pipe end of the system's that a thread of the tester reads or writes: every wait on it is
/// cut into slices of [`PIPE_POLL`], and once `stop` is set it reports the end (reading) or an
/// error (writing), so the thread ends with its test even if a process the tester cannot kill
/// keeps the other end open.
struct StoppablePipe<P> {
    pipe: P,
    stop: Arc<AtomicBool>,
}

impl<P> StoppablePipe<P> {
    /// Waits until the pipe is ready for `events` (`POLLIN` or `POLLOUT`); `false` once the
    /// test has ended.
    #[cfg(unix)]
    fn ready(&self, fd: std::os::fd::RawFd, events: libc::c_short) -> bool {
        let slice = libc::c_int::try_from(PIPE_POLL.as_millis()).unwrap_or(50);
        loop {
            if self.stop.load(Ordering::SeqCst) {
                return false;
            }
            let mut poll = libc::pollfd {
                fd,
                events,
                revents: 0,
            };
            // SAFETY: `poll` is a valid pollfd for the duration of the call, and the count is 1.
            let ready = unsafe { libc::poll(&mut poll, 1, slice) };
            // Ready, hung up or in error (the next call reports which), or poll itself failed:
            // the read or write decides.
            if ready != 0
                && !(ready < 0
                    && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted)
            {
                return true;
            }
        }
    }
}

#[cfg(unix)]
impl<P: Read + std::os::fd::AsRawFd> Read for StoppablePipe<P> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if !self.ready(self.pipe.as_raw_fd(), libc::POLLIN) {
            return Ok(0);
        }
        self.pipe.read(buf)
    }
}

#[cfg(unix)]
impl<P: Write + std::os::fd::AsRawFd> Write for StoppablePipe<P> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if !self.ready(self.pipe.as_raw_fd(), libc::POLLOUT) {
            return Err(std::io::ErrorKind::BrokenPipe.into());
        }
        // A pipe that polls writable takes at least this much without blocking.
        let atomic = buf.len().min(PIPE_CHUNK);
        self.pipe.write(&buf[..atomic])
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.pipe.flush()
    }
}

#[cfg(not(unix))]
impl<P: Read> Read for StoppablePipe<P> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.pipe.read(buf)
    }
}

#[cfg(not(unix))]
impl<P: Write> Write for StoppablePipe<P> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pipe.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.pipe.flush()
    }
}

/// The process groups of the systems alive in this process (their leaders' ids; 0 = a free
/// slot), for the interrupt handler of [`kill_systems_on_interrupt`]. Fixed-size, so the handler
/// only reads atomics; a system started while every slot is taken is not killed on an interrupt
/// (it still is on reset and drop).
#[cfg(unix)]
static SYSTEM_GROUPS: [AtomicI32; 64] = [const { AtomicI32::new(0) }; 64];

/// Registers a system's process group; the slot to free, if one was free.
#[cfg(unix)]
fn register_group(leader: u32) -> Option<usize> {
    let pid = i32::try_from(leader).ok()?;
    SYSTEM_GROUPS.iter().position(|slot| {
        slot.compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    })
}

/// Held for reading while a system is started and until its group is registered, and taken
/// for writing (for good) by [`kill_all_systems`]: a group is never started unregistered while
/// the tester dies, nor started after its systems were killed.
#[cfg(unix)]
static STARTING: std::sync::RwLock<()> = std::sync::RwLock::new(());

/// Kills the process group of every system alive and keeps new ones from starting: what an
/// interrupt does before the process ends ([`crate::interrupt::on_interrupt`]).
#[cfg(unix)]
fn kill_all_systems() {
    // The process is about to end: no system may start in the meantime.
    stop_all_systems();
    std::mem::forget(STARTING.write().unwrap_or_else(|e| e.into_inner()));
}

/// Set by [`stop_all_systems`]: no system starts until [`allow_systems`].
static STOPPED: AtomicBool = AtomicBool::new(false);

/// Stops every run of this process: kills the process group of every system alive and makes
/// starting a system fail until [`allow_systems`], so the runs end soon with errors. For a host
/// that handles an interrupt itself (the Python package on `KeyboardInterrupt`).
pub fn stop_all_systems() {
    STOPPED.store(true, Ordering::SeqCst);
    #[cfg(unix)]
    {
        // Waits for the systems being started to be registered.
        let _no_starts = STARTING.write().unwrap_or_else(|e| e.into_inner());
        for slot in &SYSTEM_GROUPS {
            let pid = slot.load(Ordering::SeqCst);
            if pid > 0 {
                // SAFETY: kill(2) takes plain integers and touches no memory of ours.
                unsafe {
                    libc::kill(-pid, libc::SIGKILL);
                }
            }
        }
    }
}

/// Lets systems start again after [`stop_all_systems`].
pub fn allow_systems() {
    STOPPED.store(false, Ordering::SeqCst);
}

/// Makes SIGINT, SIGTERM and SIGHUP kill the process group of every system alive, then end the
/// process as they would have ([`crate::interrupt`]: a watcher thread does it, not the handler,
/// so it can wait for a system being started to be registered): Ctrl-C, `kill` or `timeout` on
/// a tester leaves no system behind, although the systems run in process groups of their own
/// (which a terminal's Ctrl-C does not reach). Signals that were ignored when it is installed
/// stay ignored (`nohup`). Called when the first system starts.
pub fn kill_systems_on_interrupt() {
    #[cfg(unix)]
    crate::interrupt::on_interrupt(kill_all_systems);
}

/// An output the tester can look at without reading it ([`Session::output_pending`]).
trait WatchedOutput {
    /// A duplicate of its descriptor, if one can be made.
    #[cfg(unix)]
    fn watch(&self) -> Option<std::os::fd::OwnedFd>;
}

#[cfg(unix)]
impl<P: std::os::fd::AsFd> WatchedOutput for StoppablePipe<P> {
    fn watch(&self) -> Option<std::os::fd::OwnedFd> {
        self.pipe.as_fd().try_clone_to_owned().ok()
    }
}

#[cfg(not(unix))]
impl<P> WatchedOutput for StoppablePipe<P> {}

/// What carries the lines of a session: the pipes of a process the tester started, or a TCP
/// connection.
enum Peer {
    /// A process, in a group of its own.
    Process {
        child: Child,
        /// The slot of [`SYSTEM_GROUPS`] holding the system's group, while it is registered.
        #[cfg(unix)]
        group_slot: Option<usize>,
    },
    /// A TCP connection; `closed` is set once the system closed it (the end of its output).
    Socket {
        stream: TcpStream,
        closed: Arc<AtomicBool>,
    },
}

/// One run of the system since a reset: the line protocol over its [`Peer`]. Lines are read by
/// one thread and inputs written by another, whatever carries them.
struct Session {
    peer: Peer,
    /// Set when the test ends: the reader and writer threads then end too.
    stop: Arc<AtomicBool>,
    input: Option<Sender<String>>,
    output: Receiver<Event>,
    /// The start of an unfinished line and when it was first seen.
    partial: Option<(String, Instant)>,
    /// The exit status once the system was seen to exit (its group is killed then).
    exited: Option<ExitStatus>,
    /// After the exit: until when the rest of the output is still read.
    drain_until: Option<Instant>,
    /// Set when the session broke the protocol or ended: a reset label is not sent over it.
    broken: bool,
    /// A duplicate of the output's descriptor, to look without reading whether output is
    /// waiting for the reader ([`Session::output_pending`]).
    #[cfg(unix)]
    watch: Option<std::os::fd::OwnedFd>,
}

/// What a connection's closing is called in every message.
const CLOSED: &str = "the system closed the connection";

impl Session {
    /// The line protocol over `output` (read) and `input` (written); `closed` is set when the
    /// output ends.
    fn over<R, W>(peer: Peer, output: R, input: W, stop: Arc<AtomicBool>) -> Session
    where
        R: Read + Send + 'static + WatchedOutput,
        W: Write + Send + 'static,
    {
        #[cfg(unix)]
        let watch = output.watch();
        let closed = match &peer {
            Peer::Socket { closed, .. } => Some(Arc::clone(closed)),
            Peer::Process { .. } => None,
        };
        let (out_tx, out_rx) = mpsc::sync_channel(QUEUED_LINES);
        thread::spawn(move || {
            if read_lines(output, &out_tx)
                && let Some(closed) = closed
            {
                closed.store(true, Ordering::SeqCst);
            }
        });
        let (in_tx, in_rx) = mpsc::channel::<String>();
        let mut input = input;
        thread::spawn(move || {
            for line in in_rx {
                if writeln!(input, "{line}")
                    .and_then(|_| input.flush())
                    .is_err()
                {
                    return;
                }
            }
        });
        Session {
            peer,
            stop,
            input: Some(in_tx),
            output: out_rx,
            partial: None,
            exited: None,
            drain_until: None,
            broken: false,
            #[cfg(unix)]
            watch,
        }
    }

    /// The process of `command`, told the runner's timing scale (`NCOMPLETE_TIMING_SCALE`).
    fn start(command: &str, timing_scale: u32) -> Result<Session, String> {
        let mut cmd = if cfg!(windows) {
            let mut c = Command::new("cmd");
            c.arg("/C").arg(command);
            c
        } else {
            let mut c = Command::new("sh");
            c.arg("-c").arg(command);
            c
        };
        cmd.env(TIMING_SCALE_VARIABLE, timing_scale.to_string());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // A group of its own, so that reset kills everything the system started.
            cmd.process_group(0);
        }
        kill_systems_on_interrupt();
        // From the start to the registration an interrupt waits (see STARTING).
        #[cfg(unix)]
        let starting = STARTING.read().unwrap_or_else(|e| e.into_inner());
        if STOPPED.load(Ordering::SeqCst) {
            return Err("not started: the run was interrupted".into());
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start: {e}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("cannot open the pipes of the process".into());
        };
        #[cfg(unix)]
        let group_slot = register_group(child.id());
        #[cfg(unix)]
        drop(starting);
        let stop = Arc::new(AtomicBool::new(false));
        let stdout = StoppablePipe {
            pipe: stdout,
            stop: Arc::clone(&stop),
        };
        let stdin = StoppablePipe {
            pipe: stdin,
            stop: Arc::clone(&stop),
        };
        let peer = Peer::Process {
            child,
            #[cfg(unix)]
            group_slot,
        };
        Ok(Session::over(peer, stdout, stdin, stop))
    }

    /// The line protocol over a connection to the system.
    fn connected(stream: TcpStream) -> Result<Session, String> {
        let clone = |s: &TcpStream| {
            s.try_clone()
                .map_err(|e| format!("cannot use the connection: {e}"))
        };
        // Lines are small and answered one by one: no waiting to fill a segment.
        let _ = stream.set_nodelay(true);
        let stop = Arc::new(AtomicBool::new(false));
        let reader = StoppablePipe {
            pipe: clone(&stream)?,
            stop: Arc::clone(&stop),
        };
        let writer = StoppablePipe {
            pipe: clone(&stream)?,
            stop: Arc::clone(&stop),
        };
        let peer = Peer::Socket {
            stream,
            closed: Arc::new(AtomicBool::new(false)),
        };
        Ok(Session::over(peer, reader, writer, stop))
    }

    /// Kills the system's process group, unless an exit was handled already (the group id
    /// could have been reused since). [`Session::note_exit`] calls it right after the leader
    /// was reaped: a member still alive keeps the id reserved, and an empty group has nothing
    /// to kill.
    fn kill_group(&mut self) {
        let Peer::Process { child, .. } = &mut self.peer else {
            return;
        };
        #[cfg(unix)]
        if self.exited.is_none()
            && let Ok(pid) = libc::pid_t::try_from(child.id())
        {
            // SAFETY: kill(2) takes plain integers and touches no memory of ours; a negative
            // pid names the process group the child leads (started with process_group(0)).
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = child.kill();
    }

    /// Forgets the system's group once it was killed after its leader was reaped (the id may
    /// be reused from then on).
    fn unregister_group(&mut self) {
        #[cfg(unix)]
        if let Peer::Process { group_slot, .. } = &mut self.peer
            && let Some(slot) = group_slot.take()
        {
            SYSTEM_GROUPS[slot].store(0, Ordering::SeqCst);
        }
    }

    /// Records the exit and kills what the system left behind.
    fn note_exit(&mut self, status: ExitStatus) {
        // The group must be killed before the exit is recorded (which forbids later kills).
        self.kill_group();
        self.unregister_group();
        self.exited = Some(status);
        self.drain_until = Some(Instant::now() + EXIT_GRACE);
    }

    /// Checks without blocking whether the system has exited (a connection's end arrives as
    /// the end of its output instead).
    fn poll_exit(&mut self) {
        if let Peer::Process { child, .. } = &mut self.peer
            && self.exited.is_none()
            && let Ok(Some(status)) = child.try_wait()
        {
            self.note_exit(status);
        }
    }

    /// Why the system can no longer be said to behave, checked without waiting.
    fn gone(&mut self) -> Option<String> {
        self.poll_exit();
        match (&self.peer, self.exited) {
            (_, Some(status)) => Some(exit_text(status)),
            (Peer::Socket { closed, .. }, None) if closed.load(Ordering::SeqCst) => {
                Some(CLOSED.into())
            }
            _ => None,
        }
    }

    /// The exit of the system if it comes within [`EXIT_GRACE`], else `otherwise`; over a
    /// connection, that it was closed.
    fn exit_or(&mut self, otherwise: &str) -> String {
        if let Peer::Socket { .. } = self.peer {
            return CLOSED.into();
        }
        let deadline = Instant::now() + EXIT_GRACE;
        while self.exited.is_none() && Instant::now() < deadline {
            self.poll_exit();
            if self.exited.is_none() {
                thread::sleep(POLL);
            }
        }
        self.exited.map_or_else(|| otherwise.to_owned(), exit_text)
    }

    /// Why the output ended.
    fn end_message(&mut self) -> String {
        let what = self.exit_or("the system closed its standard output");
        match &self.partial {
            Some((text, _)) => format!("{what} after writing `{text}` without a newline"),
            None => what,
        }
    }

    /// Sends `label` as the reset of a system that stays connected, after dropping every
    /// output not yet taken; `false` when the session cannot carry it (it broke the protocol
    /// or ended), so that the caller connects anew.
    fn reset_in_place(&mut self, label: &str) -> bool {
        if self.broken || self.gone().is_some() {
            return false;
        }
        while self.output.try_recv().is_ok() {}
        self.partial = None;
        self.input
            .as_ref()
            .is_some_and(|tx| tx.send(label.to_owned()).is_ok())
    }

    fn stop(&mut self) {
        // Closing stdin first lets the writer thread end; the flag ends both threads even if
        // something outside the group holds the pipes.
        drop(self.input.take());
        self.stop.store(true, Ordering::SeqCst);
        self.kill_group();
        match &mut self.peer {
            Peer::Process { child, .. } => {
                let _ = child.wait();
            }
            Peer::Socket { stream, .. } => {
                let _ = stream.shutdown(std::net::Shutdown::Both);
            }
        }
        self.unregister_group();
    }
}

/// The adapter of a real system on the line protocol: one label per line, carried by the pipes
/// of a process it starts or by a TCP connection ([`System`]). A process is restarted on every
/// reset; a connection is made anew, unless the system has a reset label.
pub struct LineAdapter {
    system: System,
    timeouts: Timeouts,
    session: Option<Session>,
    /// Set by an observation that is timing-dependent beyond the trace
    /// ([`Adapter::take_timing_note`]).
    timing_note: bool,
    /// Set by reading a declared timer output ([`Adapter::take_timer_note`]).
    timer_note: bool,
    /// When the earliest input not yet followed by an output was written (or the session
    /// started): the start of the delay measured at the next output.
    waiting_since: Option<Instant>,
    /// The largest such delay.
    largest_latency: Option<Duration>,
    /// The factor exported to each process started ([`Adapter::set_timing_scale`]).
    timing_scale: u32,
}

impl LineAdapter {
    /// An adapter for `system`; nothing is started or connected before the first reset. The
    /// response timeout bounds the wait for the rest of an unfinished line, the start-up
    /// allowance the wait for a connection.
    pub fn new(system: System, timeouts: Timeouts) -> Self {
        LineAdapter {
            system,
            timing_scale: timeouts.scale,
            timeouts,
            session: None,
            timing_note: false,
            timer_note: false,
            waiting_since: None,
            largest_latency: None,
        }
    }

    /// An adapter for the process of a shell command; `line_timeout` bounds the wait for the
    /// rest of an unfinished line (the response timeout).
    pub fn process(command: impl Into<String>, line_timeout: Duration) -> Self {
        let timeouts = Timeouts {
            response: line_timeout,
            ..Timeouts::default()
        };
        LineAdapter::new(System::Command(command.into()), timeouts)
    }

    fn stop(&mut self) {
        if let Some(mut p) = self.session.take() {
            p.stop();
        }
    }

    /// The session, marked broken when `result` is an error.
    fn note<T>(&mut self, result: Result<T, String>) -> Result<T, String> {
        if result.is_err()
            && let Some(s) = self.session.as_mut()
        {
            s.broken = true;
        }
        result
    }
}

impl Drop for LineAdapter {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Adapter for LineAdapter {
    fn reset(&mut self) -> Result<(), String> {
        self.waiting_since = Some(Instant::now());
        if let Some(label) = self.system.reset_label()
            && let Some(s) = self.session.as_mut()
            && s.reset_in_place(label)
        {
            return Ok(());
        }
        self.stop();
        let wait = self.timeouts.startup;
        self.session = Some(match &self.system {
            System::Command(command) => Session::start(command, self.timing_scale)?,
            System::Connect { address, .. } => Session::connected(tcp::connect(address, wait)?)?,
            System::Listen { listener, .. } => Session::connected(listener.accept(wait)?)?,
        });
        Ok(())
    }

    fn check_alive(&mut self) -> Result<(), String> {
        match self.session.as_mut().and_then(Session::gone) {
            Some(why) => Err(format!("{why} at the end of the test")),
            None => Ok(()),
        }
    }

    fn send(&mut self, input: &str) -> Result<(), String> {
        let p = self.session.as_mut().ok_or("the system is not running")?;
        let result = if let Some(status) = p.exited {
            Err(format!("{} before input `{input}`", exit_text(status)))
        } else if p
            .input
            .as_ref()
            .is_some_and(|tx| tx.send(input.to_owned()).is_ok())
        {
            self.waiting_since.get_or_insert_with(Instant::now);
            Ok(())
        } else {
            let why = p.exit_or("the system closed its standard input");
            Err(format!("{why} before input `{input}`"))
        };
        self.note(result)
    }

    fn receive(&mut self, timeout: Duration) -> Result<Observation, String> {
        let result = self.receive_line(timeout);
        match &result {
            Ok(Observation::Output(label)) => {
                if self.timeouts.timer_outputs.contains(label) {
                    self.timer_note = true;
                }
                if let Some(since) = self.waiting_since.take() {
                    let delay = since.elapsed();
                    self.largest_latency =
                        Some(self.largest_latency.map_or(delay, |d| d.max(delay)));
                }
            }
            // Answered by silence: the next output answers a later input.
            Ok(Observation::Quiescence) => self.waiting_since = None,
            Err(_) => {}
        }
        self.note(result)
    }

    fn take_timing_note(&mut self) -> bool {
        std::mem::take(&mut self.timing_note)
    }

    fn take_timer_note(&mut self) -> bool {
        std::mem::take(&mut self.timer_note)
    }

    fn largest_latency(&self) -> Option<Duration> {
        self.largest_latency
    }

    fn set_timing_scale(&mut self, scale: u32) {
        self.timing_scale = scale;
    }
}

impl LineAdapter {
    fn receive_line(&mut self, timeout: Duration) -> Result<Observation, String> {
        let line_timeout = self.timeouts.response;
        let p = self.session.as_mut().ok_or("the system is not running")?;
        let deadline = Instant::now() + timeout;
        // Until when the drain at the end of the wait keeps reading output already written.
        let mut drain_limit = None;
        loop {
            // After an exit, only the rest of the output is read; an unfinished line means an
            // output is on its way, so it gets the response timeout.
            let limit = match (p.drain_until, &p.partial) {
                (Some(until), _) => until,
                (None, Some((_, since))) => deadline.max(*since + line_timeout),
                (None, None) => deadline,
            };
            // A wait that is over (or a timeout of zero) still takes what has already arrived.
            let now = Instant::now();
            let event = if now >= limit {
                p.output.try_recv().map_err(|e| match e {
                    TryRecvError::Empty => RecvTimeoutError::Timeout,
                    TryRecvError::Disconnected => RecvTimeoutError::Disconnected,
                })
            } else {
                let asked = (limit - now).min(POLL);
                let event = p.output.recv_timeout(asked);
                if starved(asked, now.elapsed()) {
                    self.timing_note = true;
                }
                event
            };
            if now >= limit && matches!(event, Err(RecvTimeoutError::Timeout)) {
                // Before silence is concluded: output the system has written but the reader
                // has not passed on yet (a starved tester) is waited for, not read as silence.
                if p.exited.is_none() && p.output_pending() {
                    let until = *drain_limit.get_or_insert(now + line_timeout);
                    if now < until {
                        self.timing_note = true;
                        if let Ok(event) = p.output.recv_timeout(POLL) {
                            match p.take_event(event) {
                                Some(result) => return result,
                                None => continue,
                            }
                        }
                        continue;
                    }
                }
                if p.partial.is_some() {
                    // An unfinished line given up on: the rest may be late, not missing.
                    self.timing_note = true;
                }
                return match (&p.exited, &p.partial) {
                    (Some(_), _) => Err(p.end_message()),
                    (None, Some((text, _))) => Err(format!(
                        "the system wrote `{text}` without a newline and did not finish the line within {} ms",
                        line_timeout.as_millis()
                    )),
                    (None, None) => Ok(Observation::Quiescence),
                };
            }
            match event {
                Ok(event) => {
                    if let Some(result) = p.take_event(event) {
                        return result;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return Err(p.ended()),
                Err(RecvTimeoutError::Timeout) => p.poll_exit(),
            }
        }
    }
}

impl Session {
    /// What an event from the reader means to a wait: its end (an output or a failure), or
    /// `None` to wait on (the start of an unfinished line).
    fn take_event(&mut self, event: Event) -> Option<Result<Observation, String>> {
        match event {
            Event::Line(label) => {
                self.partial = None;
                Some(Ok(Observation::Output(label)))
            }
            Event::Partial(text) => {
                if self.partial.is_none() {
                    self.partial = Some((text, Instant::now()));
                }
                None
            }
            Event::Broken(why) => Some(Err(why)),
            Event::End => Some(Err(self.ended())),
        }
    }

    /// The end of the output: why it ended.
    fn ended(&mut self) -> String {
        if let Peer::Socket { closed, .. } = &self.peer {
            // Known from now on, whether or not the reader has marked it yet.
            closed.store(true, Ordering::SeqCst);
        }
        self.end_message()
    }

    /// Whether the system's output holds bytes (or its end) that the reader has not taken
    /// yet: a non-blocking look at the pipe or socket.
    fn output_pending(&self) -> bool {
        #[cfg(unix)]
        if let Some(fd) = &self.watch {
            use std::os::fd::AsRawFd;
            let mut poll = libc::pollfd {
                fd: fd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: `poll` is a valid pollfd for the duration of the call, and the count is 1;
            // a timeout of 0 never blocks.
            let ready = unsafe { libc::poll(&mut poll, 1, 0) };
            return ready > 0 && poll.revents != 0;
        }
        false
    }
}

/// One execution of a test case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// The verdict leaf reached.
    pub verdict: Verdict,
    /// The observed trace (`?a` inputs, `!x` outputs, the quiescence label).
    pub trace: Vec<String>,
    /// For `fail`: what went wrong, readably.
    pub message: Option<String>,
}

/// How an execution of a test ended; its trace is the [`Execution`]'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The verdict leaf reached.
    pub verdict: Verdict,
    /// For `fail`: what went wrong, readably.
    pub message: Option<String>,
}

fn quiescence_name(model: &SuiteModel) -> &str {
    model.quiescence.as_deref().unwrap_or("quiescence")
}

/// The outputs (and quiescence) that `list` does not fail on, as messages list them after
/// "expected one of:" (`nothing` for none); the TTCN-3 rendering writes the same text into its
/// verdicts' reasons.
pub(crate) fn allowed(model: &SuiteModel, list: &[(LabelId, Next)]) -> String {
    let names: Vec<String> = list
        .iter()
        .filter(|&&(_, n)| n != Next::FAIL)
        .map(|&(o, _)| {
            if o.index() < model.outputs.len() {
                format!("!{}", model.outputs[o.index()])
            } else {
                quiescence_name(model).to_owned()
            }
        })
        .collect();
    if names.is_empty() {
        "nothing".into()
    } else {
        names.join(", ")
    }
}

pub(super) fn trace_text(trace: &[String]) -> String {
    if trace.is_empty() {
        "(empty trace)".into()
    } else {
        trace.join(" ")
    }
}

/// How long the tester listens for an output already on its way before it sends an input: a
/// twentieth of the quiescence timeout, at most 20 ms. Outputs that a system writes right after
/// its previous step then take their race branch instead of appearing after the input. Mealy
/// suites (no quiescence) need no grace: a Mealy machine only answers inputs. A re-run with
/// scaled timeouts scales the cap too.
pub fn send_grace(model: &SuiteModel, timeouts: &Timeouts) -> Duration {
    if model.quiescence.is_none() {
        Duration::ZERO
    } else {
        (timeouts.quiescence / 20)
            .min(Duration::from_millis(20).saturating_mul(timeouts.scale.max(1)))
    }
}

/// One observable step of an execution, as the suite numbers labels (quiescence is the output
/// id `outputs.len()`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TraceStep {
    /// An input sent.
    Input(LabelId),
    /// An output (or quiescence) observed.
    Output(LabelId),
}

/// An execution in progress since the last reset: its trace (readable and as steps) and the
/// clock of the start-up allowance. A run that ends in `retry` can be continued by another test
/// whose tree holds the same trace ([`follow`]).
#[derive(Clone, Debug)]
pub struct Execution {
    started: Instant,
    /// Whether the system has written an output since the reset (then the start-up allowance
    /// is over).
    pub(super) seen_output: bool,
    /// The observed trace (`?a` inputs, `!x` outputs, the quiescence label).
    pub trace: Vec<String>,
    /// The same trace as label ids.
    pub steps: Vec<TraceStep>,
    /// Whether the test ended in the reading of the trace in its own order (not an output
    /// that the system wrote before it read an input sent earlier): only then does the trace
    /// lead another test to where the system is ([`follow`]).
    pub literal: bool,
    /// Whether the trace holds a timing-dependent observation (the timing rule: quiescence or
    /// no output within the response timeout, an output read before an input could be sent or
    /// in an output-first reading, an unfinished line given up on, an observation made across
    /// the tester's starvation): a `fail` of such a trace is re-run before it is reported.
    pub timing: bool,
}

impl Execution {
    /// An execution starting now (right after a reset).
    pub fn start() -> Self {
        Execution {
            started: Instant::now(),
            seen_output: false,
            trace: Vec::new(),
            steps: Vec::new(),
            literal: true,
            timing: false,
        }
    }

    /// How long to wait for an output now ([`expect_wait`]).
    pub fn output_wait(&self, timeouts: &Timeouts, quiescence_allowed: bool) -> Duration {
        expect_wait(timeouts, quiescence_allowed, self.seen_output, self.started)
    }

    /// When the execution started (its start-up allowance counts from here).
    pub(super) fn started(&self) -> Instant {
        self.started
    }
}

/// Runs a test case once: the adapter must have been reset (the start-up allowance counts from
/// this call).
pub fn execute_once(
    adapter: &mut dyn Adapter,
    model: &SuiteModel,
    test: &TestCase,
    timeouts: &Timeouts,
) -> Attempt {
    let mut run = Execution::start();
    let Ending { verdict, message } = execute_from(adapter, model, test, 0, &mut run, timeouts);
    Attempt {
        verdict,
        trace: run.trace,
        message,
    }
}

/// One reading of the observations of an execution (the input/output race of the module doc).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Reading {
    /// The test is at `node`, the system having read the first `read` of the inputs sent.
    At {
        /// The test node reached.
        node: usize,
        /// How many of the inputs sent the system has read in this reading.
        read: usize,
    },
    /// The reading reached a verdict, or a node the test cannot follow from (`Retry`).
    Ended(Verdict),
}

impl Reading {
    fn from_next(next: Next, read: usize) -> Reading {
        match next {
            Next::Node(k) => Reading::At {
                node: k as usize,
                read,
            },
            Next::Verdict(v) => Reading::Ended(v),
        }
    }
}

/// The readings of an execution in order of preference (input-first before output-first): the
/// first one decides what the tester does and the verdict; `literal` says whether it is the
/// reading whose order of labels is the trace's.
struct Readings {
    list: Vec<(Reading, bool)>,
    /// The inputs sent since the readings started.
    sent: Vec<LabelId>,
    /// The system reads every input before any output that follows it
    /// ([`Adapter::reads_inputs_at_once`]): the literal reading is the only one.
    at_once: bool,
}

impl Readings {
    fn new(node: usize, at_once: bool) -> Self {
        Readings {
            list: vec![(Reading::At { node, read: 0 }, true)],
            sent: Vec::new(),
            at_once,
        }
    }

    /// The reading the tester follows.
    fn lead(&self) -> Option<Reading> {
        self.list.first().map(|&(r, _)| r)
    }

    /// Whether the reading the tester follows has the labels in the trace's order.
    fn literal(&self) -> bool {
        self.list.first().is_some_and(|&(_, literal)| literal)
    }

    /// Adds `reading` and what it becomes once the system read its next input, the latter
    /// first (the input-first reading is preferred).
    fn expand(
        &self,
        test: &TestCase,
        reading: Reading,
        literal: bool,
        out: &mut Vec<(Reading, bool)>,
    ) {
        let Reading::At { node, read } = reading else {
            out.push((reading, literal));
            return;
        };
        let Some(&next_input) = self.sent.get(read) else {
            out.push((reading, literal));
            return;
        };
        match &test.nodes[node] {
            TestNode::Send { input, then, .. } if *input == next_input => {
                self.expand(test, Reading::from_next(*then, read + 1), literal, out);
                if !self.at_once {
                    out.push((reading, false));
                }
            }
            // The test does not send that input here: it cannot follow this reading.
            _ => out.push((Reading::Ended(Verdict::Retry), false)),
        }
    }

    /// Replaces the list by `next` expanded, without duplicates and refuted readings.
    fn settle(&mut self, test: &TestCase, next: Vec<(Reading, bool)>) {
        let mut list: Vec<(Reading, bool)> = Vec::with_capacity(next.len() + 1);
        for (r, literal) in next {
            let mut expanded = Vec::new();
            self.expand(test, r, literal, &mut expanded);
            for (r, literal) in expanded {
                if r != Reading::Ended(Verdict::Fail) && list.iter().all(|&(q, _)| q != r) {
                    list.push((r, literal));
                }
            }
        }
        self.list = list;
    }

    /// Whether the node of some reading allows an output other than quiescence and the timer
    /// outputs `timers` (by name): only there can a timer output (an adapter's "all quiet"
    /// label) have overtaken a late answer, so only there is reading one timing-dependent.
    fn another_output_allowed(
        &self,
        test: &TestCase,
        model: &SuiteModel,
        timers: &[String],
    ) -> bool {
        self.list.iter().any(|&(r, _)| {
            let Reading::At { node, .. } = r else {
                return false;
            };
            let branches = match &test.nodes[node] {
                TestNode::Send { race, .. } => race,
                TestNode::Expect { branches } => branches,
            };
            branches.iter().any(|&(o, next)| {
                next != Next::FAIL
                    && model
                        .outputs
                        .get(o.index())
                        .is_some_and(|name| !timers.contains(name))
            })
        })
    }

    /// The tester sent `input`.
    fn sent(&mut self, test: &TestCase, input: LabelId) {
        self.sent.push(input);
        let list = std::mem::take(&mut self.list);
        self.settle(test, list);
    }

    /// The tester observed output `id` (`None`: an output the suite does not know), or
    /// quiescence when `id` is the quiescence id.
    fn observed(&mut self, test: &TestCase, id: Option<LabelId>, quiescence: LabelId) {
        let mut next = Vec::with_capacity(self.list.len());
        for &(r, literal) in &self.list {
            let Reading::At { node, read } = r else {
                next.push((r, literal));
                continue;
            };
            let unread = read < self.sent.len();
            let step = match (&test.nodes[node], id) {
                (_, None) => Next::FAIL,
                // Quiescence: the system has read every input; the reading that has it read
                // them is in the list already.
                (_, Some(o)) if o == quiescence && unread => continue,
                // Quiescence where this reading would have sent an input.
                (TestNode::Send { .. }, Some(o)) if o == quiescence => Next::RETRY,
                (n, Some(o)) => n.on_output(o),
            };
            next.push((Reading::from_next(step, read), literal));
        }
        self.settle(test, next);
    }
}

/// Runs a test case from `node` on, the system having run `run` since its reset (for node 0:
/// nothing); what it observes is added to `run`'s trace. The observations are read as the
/// module doc says (the input/output race).
pub fn execute_from(
    adapter: &mut dyn Adapter,
    model: &SuiteModel,
    test: &TestCase,
    start: usize,
    run: &mut Execution,
    timeouts: &Timeouts,
) -> Ending {
    let output_id = |name: &str| {
        model
            .outputs
            .iter()
            .position(|o| o == name)
            .map(|k| LabelId(k as u32))
    };
    let quiescence_id = LabelId(model.outputs.len() as u32);
    let started = run.started;
    let mut seen_output = run.seen_output;
    let mut trace: Vec<String> = std::mem::take(&mut run.trace);
    let mut steps: Vec<TraceStep> = std::mem::take(&mut run.steps);
    let exact = adapter.reads_inputs_at_once();
    let mut readings = Readings::new(start, exact);
    // A model stepped in process observes nothing by timing.
    let mut timing = run.timing && !exact;
    // The largest annotated quiescence timeout per node, for an annotated specification.
    let node_waits = timeouts
        .annotations
        .as_ref()
        .map(|a| a.node_quiescence_ms(model, test));
    // Why the last step would fail the test (for a retry the specification refutes).
    let mut last_why = String::new();
    let ending = loop {
        let node = match readings.lead() {
            Some(Reading::At { node, read }) if read == readings.sent.len() => node,
            // An input still unread in the preferred reading: the test cannot follow it.
            _ => break retry_or_refuted(timeouts, &steps, &trace, &last_why),
        };
        // Whether a timer output read in this step counts (before the readings move on).
        let timer_counts = !timeouts.timer_outputs.is_empty()
            && readings.another_output_allowed(test, model, &timeouts.timer_outputs);
        let step = match &test.nodes[node] {
            TestNode::Send { input, race, .. } => {
                match adapter.pending_output(send_grace(model, timeouts)) {
                    Err(e) => Err(e),
                    Ok(Some(out)) => {
                        seen_output = true;
                        // Read before the input could be sent: the race branch.
                        timing |= !exact;
                        let id = output_id(&out);
                        let out = shown_label(&out);
                        let why = format!(
                            "output !{out} arrived before input ?{} could be sent (allowed instead: {})",
                            model.input_name(*input),
                            allowed(model, race)
                        );
                        trace.push(format!("!{out}"));
                        steps.extend(id.map(TraceStep::Output));
                        readings.observed(test, id, quiescence_id);
                        Ok(why)
                    }
                    Ok(None) => {
                        let name = model.input_name(*input);
                        adapter.send(name).map(|()| {
                            trace.push(format!("?{name}"));
                            steps.push(TraceStep::Input(*input));
                            readings.sent(test, *input);
                            format!("the test fails after input ?{name}")
                        })
                    }
                }
            }
            TestNode::Expect { branches } => {
                let quiescence_allowed = model.quiescence.is_some()
                    && test.nodes[node].on_output(quiescence_id) != Next::FAIL;
                let last_input = steps.iter().rev().find_map(|s| match s {
                    TraceStep::Input(i) => Some(model.input_name(*i)),
                    TraceStep::Output(_) => None,
                });
                let here = match &node_waits {
                    Some(w) => &timeouts.at(w[node], last_input),
                    None => timeouts,
                };
                let wait = expect_wait(here, quiescence_allowed, seen_output, started);
                adapter.receive(wait).map(|obs| {
                    let (id, shown) = match obs {
                        Observation::Output(out) => {
                            seen_output = true;
                            (output_id(&out), format!("!{}", shown_label(&out)))
                        }
                        Observation::Quiescence => {
                            timing |= !exact;
                            (Some(quiescence_id), quiescence_name(model).to_owned())
                        }
                    };
                    let expected = allowed(model, branches);
                    let why = if id == Some(quiescence_id) && !quiescence_allowed {
                        format!(
                            "no output within the response timeout of {} ms (expected one of: {expected})",
                            here.response.as_millis()
                        )
                    } else {
                        format!("unexpected {shown} (expected one of: {expected})")
                    };
                    trace.push(shown);
                    steps.extend(id.map(TraceStep::Output));
                    readings.observed(test, id, quiescence_id);
                    // Read in an output-first reading: the one followed from now on does not
                    // have the trace's order.
                    timing |= !exact && readings.lead().is_some() && !readings.literal();
                    why
                })
            }
        };
        // A timer output counts where a reading's node allowed another output (the rule of
        // `explore`, asked of the test tree).
        let timer = adapter.take_timer_note() && timer_counts;
        timing |= (adapter.take_timing_note() | timer) && !exact;
        // Every reading refuted: `why` (of the reading the tester followed) says how.
        match step {
            Err(e) => {
                let message = format!("{e}; trace: {}", trace_text(&trace));
                break Ending {
                    verdict: Verdict::Fail,
                    message: Some(message),
                };
            }
            Ok(why) => match readings.lead() {
                None => {
                    let before = &trace[..trace.len().saturating_sub(1)];
                    break Ending {
                        verdict: Verdict::Fail,
                        message: Some(format!("{why} after {}", trace_text(before))),
                    };
                }
                Some(Reading::Ended(v)) => {
                    // A system known to have exited by the end of the test fails it, whatever
                    // leaf the test reached.
                    if let Err(e) = adapter.check_alive() {
                        break Ending {
                            verdict: Verdict::Fail,
                            message: Some(format!("{e}; trace: {}", trace_text(&trace))),
                        };
                    }
                    if v == Verdict::Retry {
                        break retry_or_refuted(timeouts, &steps, &trace, &why);
                    }
                    break Ending {
                        verdict: v,
                        message: None,
                    };
                }
                Some(Reading::At { .. }) => last_why = why,
            },
        }
    };
    run.seen_output = seen_output;
    run.timing = timing;
    run.trace = trace;
    run.steps = steps;
    run.literal &= readings.literal();
    ending
}

/// The end of an execution whose readings left it at `retry`: `fail` when the specification
/// ([`Timeouts::spec_readings`], `run --spec`) allows no reading of the trace since the reset
/// (`why`: how the last step failed the reading the tester followed), else `retry`.
fn retry_or_refuted(
    timeouts: &Timeouts,
    steps: &[TraceStep],
    trace: &[String],
    why: &str,
) -> Ending {
    match &timeouts.spec_readings {
        Some(spec) if !spec.allows(steps) => {
            let why = if why.is_empty() {
                "an output-first reading the test leaves at retry"
            } else {
                why
            };
            let before = &trace[..trace.len().saturating_sub(1)];
            Ending {
                verdict: Verdict::Fail,
                message: Some(format!(
                    "{why} after {}; the specification allows no other order of the trace either (the test leaves its output-first readings at retry)",
                    trace_text(before)
                )),
            }
        }
        _ => Ending {
            verdict: Verdict::Retry,
            message: None,
        },
    }
}

/// The node of `test` that the trace `steps` leads to from its root, when the test follows it
/// all the way without reaching a verdict (so the test can continue an execution with this
/// trace); `None` otherwise.
pub fn follow(test: &TestCase, steps: &[TraceStep]) -> Option<usize> {
    let mut node = 0usize;
    for step in steps {
        let next = match (&test.nodes[node], *step) {
            (TestNode::Send { input, then, .. }, TraceStep::Input(i)) if *input == i => *then,
            (_, TraceStep::Output(o)) => test.nodes[node].on_output(o),
            _ => return None,
        };
        match next {
            Next::Node(k) => node = k as usize,
            Next::Verdict(_) => return None,
        }
    }
    Some(node)
}

/// How long an expect node waits for an output: the quiescence timeout where quiescence is
/// allowed, else the response timeout; plus what is left of the start-up allowance while the
/// system has not written anything yet.
pub fn expect_wait(
    timeouts: &Timeouts,
    quiescence_allowed: bool,
    seen_output: bool,
    started: Instant,
) -> Duration {
    let base = if quiescence_allowed {
        timeouts.quiescence
    } else {
        timeouts.response
    };
    if seen_output {
        base
    } else {
        base + (started + timeouts.startup).saturating_duration_since(Instant::now())
    }
}

/// The result of running one test case against a system, retries included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SystemOutcome {
    /// Test name.
    pub name: String,
    /// Pass, fail, or inconclusive when every attempt ended in `retry` or when a
    /// timing-dependent `fail` did not fail again with scaled timeouts (reason `timing`).
    pub verdict: TestVerdict,
    /// Number of executions, re-runs included.
    pub attempts: usize,
    /// The trace of the last execution.
    pub trace: Vec<String>,
    /// Why the test failed or was inconclusive.
    pub message: Option<String>,
    /// For a `fail`: whether its trace holds a timing-dependent observation.
    pub timing_dependent: bool,
    /// Set when the verdict rests on re-runs with scaled timeouts after a timing-dependent
    /// `fail`: the first failing execution.
    pub timing: Option<TimingReruns>,
    /// Whether the system wrote any output in the executions that decided the test (a
    /// connection the kernel accepted but the server never served shows none).
    pub served: bool,
}

/// The first failing execution of a test whose verdict rests on re-runs with scaled timeouts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TimingReruns {
    /// Its trace.
    pub first_trace: Vec<String>,
    /// Why it failed.
    pub first_message: String,
    /// The factor of the last re-run, which decided the verdict.
    pub scale: u32,
}

impl SystemOutcome {
    /// Why an inconclusive test is inconclusive: `timing` (a timing-dependent `fail` that a
    /// re-run with scaled timeouts did not repeat) or `retry` (every attempt ended in `retry`);
    /// `None` for other verdicts.
    pub fn reason(&self) -> Option<&'static str> {
        match (self.verdict, &self.timing) {
            (TestVerdict::Inconclusive, Some(_)) => Some("timing"),
            (TestVerdict::Inconclusive, None) => Some("retry"),
            _ => None,
        }
    }
}

/// Runs a test case, re-running it after `retry` at most `retries` times (and after a
/// timing-dependent `fail` with scaled timeouts, [`run_suite_on_adapter`]).
pub fn run_with_retries(
    adapter: &mut dyn Adapter,
    model: &SuiteModel,
    test: &TestCase,
    timeouts: &Timeouts,
    retries: usize,
) -> Result<SystemOutcome, String> {
    run_alone(adapter, model, test, timeouts, Rules::new(retries, false))
}

/// Runs one test case under `rules`.
fn run_alone(
    adapter: &mut dyn Adapter,
    model: &SuiteModel,
    test: &TestCase,
    timeouts: &Timeouts,
    rules: Rules,
) -> Result<SystemOutcome, String> {
    let mut outcomes = run_tests(
        adapter,
        model,
        std::slice::from_ref(test),
        timeouts,
        rules,
        |_| {},
    )?;
    Ok(outcomes.remove(0))
}

/// The outcome of a test whose `attempts` executions all ended in `retry`.
fn inconclusive(
    test: &TestCase,
    attempts: usize,
    trace: Vec<String>,
    served: bool,
) -> SystemOutcome {
    SystemOutcome {
        name: test.name.clone(),
        verdict: TestVerdict::Inconclusive,
        attempts,
        message: Some(format!(
            "inconclusive: all {attempts} attempts ended in retry (the system kept taking other allowed branches); last trace: {}",
            trace_text(&trace)
        )),
        trace,
        timing_dependent: false,
        timing: None,
        served,
    }
}

/// How a run decides its tests.
#[derive(Copy, Clone, Debug)]
struct Rules {
    /// Re-runs of a test that ended in `retry`.
    retries: usize,
    /// Follow the system ([`run_suite_on_adapter`]).
    following: bool,
    /// Re-run a timing-dependent `fail` with scaled timeouts ([`rerun_timing_fail`]); off for
    /// the re-runs themselves.
    rerun_timing: bool,
    /// Leave a test whose executions saw no output undecided (no re-runs): the caller re-runs
    /// it on its own ([`run_suite_in_parallel`] over TCP).
    defer_unserved: bool,
}

impl Rules {
    fn new(retries: usize, following: bool) -> Rules {
        Rules {
            retries,
            following,
            rerun_timing: true,
            defer_unserved: false,
        }
    }
}

/// The timing rule: a test whose execution `first` failed with a timing-dependent observation
/// in its trace is run again (with its retries) with every timeout scaled by 4, then by 16
/// ([`TIMING_SCALES`], [`Timeouts::scaled`]). A re-run that fails with no timing-dependent
/// observation is the `fail` reported; a re-run that passes makes the test `inconclusive`
/// (reason `timing`) with both traces, and so does a first re-run (x4) that ends inconclusive
/// (every attempt lost a race); a failure already reproduced at x4 stays a `fail` when x16 ends
/// inconclusive (larger waits give a system's spontaneous outputs time to win the race, which
/// is no evidence against the failure); when every scale fails, the `fail` of the largest scale
/// is reported with the first trace beside it.
fn rerun_timing_fail(
    adapter: &mut dyn Adapter,
    model: &SuiteModel,
    test: &TestCase,
    timeouts: &Timeouts,
    retries: usize,
    first: SystemOutcome,
) -> Result<SystemOutcome, String> {
    let first_message = first.message.clone().unwrap_or_default();
    let mut attempts = first.attempts;
    let mut last = first.clone();
    let rules = Rules {
        rerun_timing: false,
        ..Rules::new(retries, false)
    };
    let mut reproduced_at = None;
    for factor in TIMING_SCALES {
        let again = run_alone(adapter, model, test, &timeouts.scaled(factor), rules)?;
        attempts += again.attempts;
        let reruns = Some(TimingReruns {
            first_trace: first.trace.clone(),
            first_message: first_message.clone(),
            scale: factor,
        });
        match again.verdict {
            TestVerdict::Fail if again.timing_dependent => {
                reproduced_at = Some(factor);
                last = again;
            }
            TestVerdict::Inconclusive if reproduced_at.is_some() => break,
            TestVerdict::Fail => {
                let message = again.message.as_deref().unwrap_or_default();
                return Ok(SystemOutcome {
                    attempts,
                    message: Some(format!(
                        "{message} (with the timeouts x{factor}; the first failure depended on timing: {first_message})"
                    )),
                    timing: reruns,
                    ..again
                });
            }
            TestVerdict::Pass | TestVerdict::Inconclusive => {
                let ended = match again.verdict {
                    TestVerdict::Pass => "passed",
                    _ => "ended inconclusive",
                };
                return Ok(SystemOutcome {
                    verdict: TestVerdict::Inconclusive,
                    attempts,
                    message: Some(format!(
                        "inconclusive (timing): failed with the timeouts given ({first_message}), {ended} with the timeouts x{factor} (trace: {}); the verdict depends on timing",
                        trace_text(&again.trace)
                    )),
                    timing_dependent: false,
                    timing: reruns,
                    ..again
                });
            }
        }
    }
    let message = last.message.as_deref().unwrap_or_default();
    let largest = reproduced_at.unwrap_or(TIMING_SCALES[TIMING_SCALES.len() - 1]);
    Ok(SystemOutcome {
        attempts,
        message: Some(format!(
            "{message} (failed with the timeouts given and with every scale up to x{largest}; first failure: {first_message})"
        )),
        timing: Some(TimingReruns {
            first_trace: first.trace,
            first_message,
            scale: largest,
        }),
        ..last
    })
}

/// Why the system cannot be tested at all, or `None`. A command: it cannot be started, or the
/// shell reports within [`START_CHECK`] that it cannot run it (status 126: not executable, 127:
/// not found). A system to connect to: no connection within the start-up allowance `startup`.
/// (A system that connects to the tester is waited for by every reset.) The pytest and Cargo
/// runtimes make the same check once per session, so such a system is one error of the run
/// (exit status 2), not a failure per test.
pub fn startup_problem(system: &System, startup: Duration) -> Option<String> {
    let command = match system {
        System::Command(command) => command,
        System::Connect { address, .. } => {
            return tcp::connect(address, startup).err();
        }
        System::Listen { .. } => return None,
    };
    let mut session = match Session::start(command, 1) {
        Ok(p) => p,
        Err(e) => return Some(e),
    };
    let deadline = Instant::now() + START_CHECK;
    let mut problem = None;
    while Instant::now() < deadline {
        session.poll_exit();
        if let Some(status) = session.exited {
            if status.code().is_some_and(|c| CANNOT_RUN.contains(&c)) {
                problem = Some(format!("cannot start: {}", exit_text(status)));
            }
            break;
        }
        thread::sleep(POLL);
    }
    session.stop();
    problem
}

/// What a run of a suite against a system found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteRun {
    /// One outcome per test, in suite order.
    pub outcomes: Vec<SystemOutcome>,
    /// The largest delay seen from an input written (or a start) to the next output read
    /// ([`Adapter::largest_latency`]).
    pub largest_latency: Option<Duration>,
}

/// The latency warning of the timing rule: when the quiescence timeout is below 3 times the
/// largest delay seen, the delay, the timeout and the advised `--quiescence-ms`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LatencyWarning {
    /// The largest delay seen, in milliseconds.
    pub largest_ms: u64,
    /// The quiescence timeout in force, in milliseconds.
    pub quiescence_ms: u64,
    /// The advised quiescence timeout: 3 times the largest delay.
    pub advised_ms: u64,
}

impl LatencyWarning {
    /// The warning for a run with `quiescence` whose largest delay was `largest`, if one is due.
    pub fn check(largest: Option<Duration>, quiescence: Duration) -> Option<LatencyWarning> {
        let largest = largest?;
        let millis = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        (quiescence < largest.saturating_mul(3)).then(|| LatencyWarning {
            largest_ms: millis(largest),
            quiescence_ms: millis(quiescence),
            advised_ms: millis(largest.saturating_mul(3)),
        })
    }

    /// The warning's text (without `warning: `).
    pub fn text(&self) -> String {
        format!(
            "the system took up to {} ms to answer, and the quiescence timeout of {} ms is below 3 times that: silence may be read as quiescence where an output is late; use --quiescence-ms {}",
            self.largest_ms, self.quiescence_ms, self.advised_ms
        )
    }
}

/// The larger of two optional delays.
fn later(a: Option<Duration>, b: Option<Duration>) -> Option<Duration> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

/// Runs a whole suite against `system` (a process started anew, or a connection made anew, for
/// every test, unless a reset label resets it in place): one test after the other, or
/// on `jobs` systems at once ([`run_suite_in_parallel`]); with `follow`, an execution that ends
/// in `retry` is continued by another test that holds its trace ([`run_suite_on_adapter`]),
/// which depends on the order tests are decided in, so `follow` runs one system whatever
/// `jobs` says. `progress` gets each outcome, in suite order, with the time its test took.
#[allow(clippy::too_many_arguments)]
pub fn run_suite_on_system(
    system: &System,
    model: &SuiteModel,
    tests: &[TestCase],
    timeouts: &Timeouts,
    retries: usize,
    follow: bool,
    jobs: usize,
    mut progress: impl FnMut(&SystemOutcome, Duration),
) -> Result<SuiteRun, ExecError> {
    let system_error = |message| ExecError::System {
        command: system.to_string(),
        message,
    };
    if let Some(problem) = startup_problem(system, timeouts.startup) {
        return Err(system_error(problem));
    }
    if jobs > 1 && !follow && tests.len() > 1 {
        return run_suite_in_parallel(system, model, tests, timeouts, retries, jobs, progress)
            .map_err(system_error);
    }
    let mut adapter = LineAdapter::new(system.clone(), timeouts.clone());
    let mut started = Instant::now();
    let outcomes = run_suite_on_adapter(
        &mut adapter,
        model,
        tests,
        timeouts,
        retries,
        follow,
        |outcome| {
            progress(outcome, started.elapsed());
            started = Instant::now();
        },
    )
    .map_err(system_error)?;
    Ok(SuiteRun {
        outcomes,
        largest_latency: adapter.largest_latency(),
    })
}

/// Runs a suite on `jobs` systems at once, each started (or connected) by a worker thread that
/// takes the next test of the suite when its previous one is decided (so a slow test holds up
/// one worker only). Each test runs as [`run_with_retries`] runs it alone, so verdicts are
/// those of a run on one system; outcomes are handed to `progress` in suite order as soon as
/// all earlier ones are in. When a system cannot be started or driven, workers take no new
/// test, the tests already taken finish, and the error of the earliest such test is returned.
///
/// Over TCP a connection may be accepted by the kernel and never served (a server that serves
/// fewer sessions at once than `jobs`): its silence is not the system's. So a test whose
/// executions saw no output at all gets no verdict from the workers: once they are done, such
/// tests are run again one at a time on one connection (with every rule of a run on its own),
/// and only then reported.
pub fn run_suite_in_parallel(
    system: &System,
    model: &SuiteModel,
    tests: &[TestCase],
    timeouts: &Timeouts,
    retries: usize,
    jobs: usize,
    mut progress: impl FnMut(&SystemOutcome, Duration),
) -> Result<SuiteRun, String> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let n = tests.len();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let latency: Mutex<Option<Duration>> = Mutex::new(None);
    let rules = Rules {
        defer_unserved: !matches!(system, System::Command(_)),
        ..Rules::new(retries, false)
    };
    type Decided = (usize, Result<SystemOutcome, String>, Duration);
    let (sender, receiver) = mpsc::channel::<Decided>();
    let mut waiting: Vec<Option<(SystemOutcome, Duration)>> = vec![None; n];
    let mut outcomes = Vec::with_capacity(n);
    let mut unserved = Vec::new();
    let mut flush = |waiting: &mut Vec<Option<(SystemOutcome, Duration)>>,
                     outcomes: &mut Vec<SystemOutcome>| {
        while let Some((outcome, took)) = waiting.get_mut(outcomes.len()).and_then(Option::take) {
            progress(&outcome, took);
            outcomes.push(outcome);
        }
    };
    let error = thread::scope(|scope| {
        for _ in 0..jobs.min(n) {
            let sender = sender.clone();
            let (next, stop, latency) = (&next, &stop, &latency);
            scope.spawn(move || {
                let mut adapter = LineAdapter::new(system.clone(), timeouts.clone());
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    let started = Instant::now();
                    let outcome = run_alone(&mut adapter, model, &tests[i], timeouts, rules);
                    let failed = outcome.is_err();
                    if sender.send((i, outcome, started.elapsed())).is_err() || failed {
                        break;
                    }
                }
                if let Ok(mut largest) = latency.lock() {
                    *largest = later(*largest, adapter.largest_latency());
                }
            });
        }
        drop(sender);
        let mut error: Option<(usize, String)> = None;
        for (i, decided, took) in receiver {
            match decided {
                Ok(outcome) if rules.defer_unserved && !outcome.served => unserved.push(i),
                Ok(outcome) => waiting[i] = Some((outcome, took)),
                Err(message) => {
                    stop.store(true, Ordering::Relaxed);
                    if error.as_ref().is_none_or(|&(j, _)| i < j) {
                        error = Some((i, message));
                    }
                }
            }
            flush(&mut waiting, &mut outcomes);
        }
        error
    });
    if let Some((_, message)) = error {
        return Err(message);
    }
    let mut largest = latency.into_inner().unwrap_or_default();
    if !unserved.is_empty() {
        unserved.sort_unstable();
        let mut adapter = LineAdapter::new(system.clone(), timeouts.clone());
        for i in unserved {
            let started = Instant::now();
            let outcome = run_with_retries(&mut adapter, model, &tests[i], timeouts, retries)?;
            waiting[i] = Some((outcome, started.elapsed()));
            flush(&mut waiting, &mut outcomes);
        }
        largest = later(largest, adapter.largest_latency());
    }
    Ok(SuiteRun {
        outcomes,
        largest_latency: largest,
    })
}

/// Runs a suite test after test, each from a reset and re-run after `retry`; a test is
/// inconclusive once `retries + 1` of its attempts ended in `retry`. With `following` it follows
/// the system: when an execution of a test ends in `retry` because the system took another
/// allowed branch, the first undecided test (from the current one on, in suite order) whose tree
/// holds the observed trace continues the execution from the node that trace leads to, instead
/// of a reset. A test decided that way was executed from its root along one of its own paths,
/// so its verdict means what it means after a run of its own: the suite guarantees the same.
/// Every execution counts as an attempt of the test that ran it. A `fail` whose trace holds a
/// timing-dependent observation is not reported at once: the test is run again on its own with
/// scaled timeouts first (`rerun_timing_fail`). Outcomes are reported in suite order.
pub fn run_suite_on_adapter(
    adapter: &mut dyn Adapter,
    model: &SuiteModel,
    tests: &[TestCase],
    timeouts: &Timeouts,
    retries: usize,
    following: bool,
    progress: impl FnMut(&SystemOutcome),
) -> Result<Vec<SystemOutcome>, String> {
    run_tests(
        adapter,
        model,
        tests,
        timeouts,
        Rules::new(retries, following),
        progress,
    )
}

/// [`run_suite_on_adapter`] under `rules`.
fn run_tests(
    adapter: &mut dyn Adapter,
    model: &SuiteModel,
    tests: &[TestCase],
    timeouts: &Timeouts,
    rules: Rules,
    mut progress: impl FnMut(&SystemOutcome),
) -> Result<Vec<SystemOutcome>, String> {
    let Rules {
        retries, following, ..
    } = rules;
    let n = tests.len();
    let mut decided: Vec<Option<SystemOutcome>> = vec![None; n];
    let mut attempts = vec![0usize; n];
    let mut served = vec![false; n];
    let mut last_trace: Vec<Vec<String>> = vec![Vec::new(); n];
    let mut outcomes = Vec::with_capacity(n);
    for i in 0..n {
        while decided[i].is_none() {
            if attempts[i] > retries {
                let trace = std::mem::take(&mut last_trace[i]);
                decided[i] = Some(inconclusive(&tests[i], attempts[i], trace, served[i]));
                break;
            }
            // (A timing re-run of an earlier test started its systems with a larger scale.)
            adapter.set_timing_scale(timeouts.scale);
            adapter.reset()?;
            let mut run = Execution::start();
            let (mut current, mut node) = (i, 0);
            loop {
                attempts[current] += 1;
                let end = execute_from(adapter, model, &tests[current], node, &mut run, timeouts);
                served[current] |= run.seen_output;
                let verdict = match end.verdict {
                    Verdict::Pass => TestVerdict::Pass,
                    Verdict::Fail => TestVerdict::Fail,
                    Verdict::Retry => {
                        let next = if following && run.literal {
                            (i..n)
                                .filter(|&j| j != current && decided[j].is_none())
                                .filter(|&j| attempts[j] <= retries)
                                .find_map(|j| follow(&tests[j], &run.steps).map(|k| (j, k)))
                        } else {
                            None
                        };
                        match next {
                            Some((j, k)) => {
                                // The execution goes on: `current` keeps a copy of its trace.
                                last_trace[current] = run.trace.clone();
                                (current, node) = (j, k);
                                continue;
                            }
                            None => {
                                last_trace[current] = std::mem::take(&mut run.trace);
                                break;
                            }
                        }
                    }
                };
                let outcome = SystemOutcome {
                    name: tests[current].name.clone(),
                    verdict,
                    attempts: attempts[current],
                    trace: std::mem::take(&mut run.trace),
                    message: end.message,
                    timing_dependent: verdict == TestVerdict::Fail && run.timing,
                    timing: None,
                    served: run.seen_output,
                };
                let unserved = rules.defer_unserved && !outcome.served;
                decided[current] = Some(
                    if outcome.timing_dependent && rules.rerun_timing && !unserved {
                        rerun_timing_fail(
                            adapter,
                            model,
                            &tests[current],
                            timeouts,
                            retries,
                            outcome,
                        )?
                    } else {
                        outcome
                    },
                );
                break;
            }
        }
        if let Some(outcome) = decided[i].take() {
            progress(&outcome);
            outcomes.push(outcome);
        }
    }
    Ok(outcomes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scripted system: a queue of outputs released per input.
    struct Script {
        /// For each input sent (in order), the outputs it produces.
        replies: Vec<Vec<&'static str>>,
        /// Outputs produced spontaneously at reset.
        initial: Vec<&'static str>,
        pending: Vec<String>,
        sent: usize,
        resets: usize,
        /// Whether outputs are never seen before the next input is sent (the system writes
        /// them just as the tester sends: every race is lost by the tester).
        late: bool,
        /// Whether the adapter says its system reads every input at once.
        at_once: bool,
    }

    impl Adapter for Script {
        fn reset(&mut self) -> Result<(), String> {
            self.resets += 1;
            self.sent = 0;
            self.pending = self.initial.iter().map(|s| s.to_string()).collect();
            Ok(())
        }
        fn send(&mut self, _: &str) -> Result<(), String> {
            let r = self.replies.get(self.sent).cloned().unwrap_or_default();
            self.pending.extend(r.into_iter().map(String::from));
            self.sent += 1;
            Ok(())
        }
        fn receive(&mut self, _: Duration) -> Result<Observation, String> {
            Ok(if self.pending.is_empty() {
                Observation::Quiescence
            } else {
                Observation::Output(self.pending.remove(0))
            })
        }
        fn pending_output(&mut self, grace: Duration) -> Result<Option<String>, String> {
            if self.late {
                return Ok(None);
            }
            Ok(self.receive(grace)?.output())
        }
        fn reads_inputs_at_once(&self) -> bool {
            self.at_once
        }
    }

    fn model() -> SuiteModel {
        SuiteModel {
            name: "m".into(),
            inputs: vec!["a".into()],
            outputs: vec!["x".into(), "y".into()],
            quiescence: Some("delta".into()),
        }
    }

    fn test_case() -> TestCase {
        TestCase {
            name: "t".into(),
            nodes: vec![
                TestNode::Send {
                    input: LabelId(0),
                    then: Next::Node(1),
                    race: vec![(LabelId(1), Next::RETRY)],
                },
                TestNode::Expect {
                    branches: vec![(LabelId(0), Next::Node(2)), (LabelId(1), Next::RETRY)],
                },
                TestNode::Expect {
                    branches: vec![(LabelId(2), Next::PASS)],
                },
            ],
        }
    }

    fn script(replies: Vec<Vec<&'static str>>, initial: Vec<&'static str>) -> Script {
        Script {
            replies,
            initial,
            pending: vec![],
            sent: 0,
            resets: 0,
            late: false,
            at_once: false,
        }
    }

    /// `?a`, then `!y` only; or `!x` first (the race), then `?a` again and `!y`.
    fn racing_test() -> TestCase {
        TestCase {
            name: "r".into(),
            nodes: vec![
                TestNode::Send {
                    input: LabelId(0),
                    then: Next::Node(1),
                    race: vec![(LabelId(0), Next::Node(2))],
                },
                TestNode::Expect {
                    branches: vec![(LabelId(1), Next::PASS)],
                },
                TestNode::Send {
                    input: LabelId(0),
                    then: Next::Node(3),
                    race: vec![],
                },
                TestNode::Expect {
                    branches: vec![(LabelId(1), Next::PASS)],
                },
            ],
        }
    }

    /// A conforming system that reads its inputs late: an output it can write overtakes the
    /// inputs already sent (on a coin flip each time), and nothing arrives within the send
    /// grace, so the tester loses every race. Quiescent only with every input read.
    struct LateReader {
        system: crate::exec::simulate::SimulatedSystem,
        inputs: Vec<String>,
        rng: crate::rng::SplitMix64,
        state: u32,
        unread: std::collections::VecDeque<LabelId>,
        /// Outputs written while an input was unread.
        overtaken: usize,
    }

    impl Adapter for LateReader {
        fn reset(&mut self) -> Result<(), String> {
            self.state = self.system.initial();
            self.unread.clear();
            Ok(())
        }
        fn send(&mut self, input: &str) -> Result<(), String> {
            let i = self.inputs.iter().position(|n| n == input).unwrap();
            self.unread.push_back(LabelId(i as u32));
            Ok(())
        }
        fn pending_output(&mut self, _: Duration) -> Result<Option<String>, String> {
            Ok(None)
        }
        fn receive(&mut self, _: Duration) -> Result<Observation, String> {
            let quiescence = self.system.quiescence();
            loop {
                let outputs = self.system.outputs(self.state);
                let racing: Vec<(LabelId, u32)> = outputs
                    .iter()
                    .copied()
                    .filter(|&(o, _)| o != quiescence)
                    .collect();
                let choices = match self.unread.front() {
                    Some(&i) if racing.is_empty() || self.rng.below(2) == 0 => {
                        self.unread.pop_front();
                        self.state = self.system.after_input(self.state, i).unwrap();
                        continue;
                    }
                    Some(_) => {
                        self.overtaken += 1;
                        racing
                    }
                    None => outputs.to_vec(),
                };
                let Some(&(o, t)) = choices.get(self.rng.below(choices.len().max(1))) else {
                    return Ok(Observation::Quiescence);
                };
                self.state = t;
                return Ok(if o == quiescence {
                    Observation::Quiescence
                } else {
                    Observation::Output(self.system.output_name(o).to_owned())
                });
            }
        }
    }

    /// Goal and ioco suites of random specifications never fail the specification itself when
    /// it lets its outputs overtake the tester's inputs (the old rule, which judged every such
    /// output after the input, failed most of these systems).
    #[test]
    fn suites_never_fail_a_conforming_system_that_reads_its_inputs_late() {
        use crate::exec::simulate::{InputEnabling, SimulatedSystem, TestVerdict};
        use crate::suite::ioco::{self, Bound, Budget, IocoMethod, testkit};
        let mut overtaken = 0;
        for seed in 0..16 {
            let mut rng = testkit::Rng::new(seed);
            let sa = testkit::random_sa(&mut rng, 3, 2, 2);
            let model = ioco::suite_model(&sa);
            let goals = crate::goals::Coverage::Transitions.goals(&sa);
            let budget = Budget::default();
            let mut suites: Vec<Vec<TestCase>> = vec![
                crate::goals::goal_suite(&sa, &goals, "cover-transitions", 2, &budget)
                    .unwrap()
                    .tests()
                    .collect(),
            ];
            if let Ok(suite) = ioco::generate(&sa, IocoMethod::Ads, Bound::ExtraStates(0), budget) {
                suites.push(suite.tests().collect());
            }
            let mut system = LateReader {
                system: SimulatedSystem::from_suspension(&sa, &model, InputEnabling::SelfLoop)
                    .unwrap(),
                inputs: model.inputs.clone(),
                rng: crate::rng::SplitMix64::new(seed),
                state: 0,
                unread: Default::default(),
                overtaken: 0,
            };
            for tests in &suites {
                let outcomes =
                    run_suite_on_adapter(&mut system, &model, tests, &Q, 40, false, |_| {})
                        .unwrap();
                for o in outcomes {
                    assert_ne!(
                        o.verdict,
                        TestVerdict::Fail,
                        "seed {seed}, {}: {:?}",
                        o.name,
                        o.message
                    );
                }
            }
            overtaken += system.overtaken;
        }
        assert!(overtaken >= 50, "outputs overtook inputs {overtaken} times");
    }

    #[test]
    fn an_output_written_before_the_input_was_read_continues_on_the_race_branch() {
        // The system wrote `!x` before it read `?a`, which the tester had sent already.
        let mut s = Script {
            late: true,
            ..script(vec![vec!["y"]], vec!["x"])
        };
        s.reset().unwrap();
        let mut run = Execution::start();
        let end = execute_from(&mut s, &model(), &racing_test(), 0, &mut run, &Q);
        assert_eq!(end.verdict, Verdict::Pass, "{:?}", end.message);
        assert_eq!(run.trace, ["?a", "!x", "!y"]);
        assert!(!run.literal, "the trace is not in the order the test took");
        // Where the race branch is `retry`, the verdict is retry, not fail.
        let mut s = Script {
            late: true,
            ..script(vec![vec!["x"]], vec!["y"])
        };
        s.reset().unwrap();
        let a = execute_once(&mut s, &model(), &test_case(), &Q);
        assert_eq!(a.verdict, Verdict::Retry, "{:?}", a.message);
        // An output allowed in no reading still fails, with the preferred reading's message.
        let mut s = Script {
            late: true,
            ..script(vec![], vec!["x", "x"])
        };
        s.reset().unwrap();
        let a = execute_once(&mut s, &model(), &racing_test(), &Q);
        assert_eq!(a.verdict, Verdict::Fail);
        assert_eq!(
            a.message.unwrap(),
            "unexpected !x (expected one of: !y) after ?a !x"
        );
    }

    #[test]
    fn a_system_that_reads_inputs_at_once_has_no_race() {
        // The same observations as above, from a system that read `?a` before it wrote `!x`:
        // only the literal reading remains, where `!x` is not allowed.
        let mut s = Script {
            late: true,
            at_once: true,
            ..script(vec![vec!["y"]], vec!["x"])
        };
        s.reset().unwrap();
        let a = execute_once(&mut s, &model(), &racing_test(), &Q);
        assert_eq!(a.verdict, Verdict::Fail);
        assert_eq!(
            a.message.unwrap(),
            "unexpected !x (expected one of: !y) after ?a"
        );
    }

    const Q: Timeouts = Timeouts {
        startup: Duration::ZERO,
        quiescence: Duration::from_millis(1),
        response: Duration::from_millis(1),
        annotations: None,
        scale: 1,
        timer_outputs: Vec::new(),
        spec_readings: None,
    };

    /// A system that only reports an output through `pending_output` (as an in-process model
    /// would answer `receive` by choosing one), counting how often it was asked.
    struct PendingOnly {
        asked: usize,
    }

    impl Adapter for PendingOnly {
        fn reset(&mut self) -> Result<(), String> {
            Ok(())
        }
        fn send(&mut self, _: &str) -> Result<(), String> {
            Ok(())
        }
        fn receive(&mut self, _: Duration) -> Result<Observation, String> {
            Ok(Observation::Quiescence)
        }
        fn pending_output(&mut self, _: Duration) -> Result<Option<String>, String> {
            self.asked += 1;
            Ok(Some("y".into()))
        }
    }

    #[test]
    fn a_send_asks_the_adapter_for_a_pending_output() {
        // The output racing `?a` comes from `pending_output`: the race branch (`!y`: retry) is
        // taken and the input is never sent.
        let mut system = PendingOnly { asked: 0 };
        let a = execute_once(&mut system, &model(), &test_case(), &Q);
        assert_eq!(a.verdict, Verdict::Retry);
        assert_eq!(a.trace, ["!y"]);
        assert_eq!(system.asked, 1);
    }

    #[test]
    fn without_following_each_test_runs_on_its_own() {
        // The first test ends in retry on `!y`; the second holds that trace but is not entered.
        let mut s = script(vec![vec!["y"]], vec![]);
        let tests = [test_case(), test_case()];
        let out = run_suite_on_adapter(&mut s, &model(), &tests, &Q, 1, false, |_| {}).unwrap();
        assert!(out.iter().all(|o| o.verdict == TestVerdict::Inconclusive));
        assert!(out.iter().all(|o| o.attempts == 2));
        assert_eq!(s.resets, 4);
    }

    #[test]
    fn passes_on_the_expected_trace() {
        let mut s = script(vec![vec!["x"]], vec![]);
        let out = run_with_retries(&mut s, &model(), &test_case(), &Q, 3).unwrap();
        assert_eq!(out.verdict, TestVerdict::Pass);
        assert_eq!(out.trace, ["?a", "!x", "delta"]);
    }

    #[test]
    fn failures_name_the_trace_and_the_unexpected_output() {
        let mut s = script(vec![vec!["x", "x"]], vec![]);
        let out = run_with_retries(&mut s, &model(), &test_case(), &Q, 3).unwrap();
        assert_eq!(out.verdict, TestVerdict::Fail);
        assert_eq!(
            out.message.unwrap(),
            "unexpected !x (expected one of: delta) after ?a !x"
        );
        // An output before the input could be sent is timing-dependent: the test is run
        // again with the timeouts x4 and x16, which fail the same way.
        let mut s = script(vec![], vec!["x"]);
        let out = run_with_retries(&mut s, &model(), &test_case(), &Q, 3).unwrap();
        assert_eq!(out.verdict, TestVerdict::Fail);
        assert_eq!(s.resets, 3);
        let first = "output !x arrived before input ?a could be sent (allowed instead: !y) after (empty trace)";
        assert_eq!(
            out.message.unwrap(),
            format!(
                "{first} (failed with the timeouts given and with every scale up to x16; first failure: {first})"
            )
        );
        assert_eq!(out.timing.unwrap().first_trace, ["!x"]);
    }

    /// A timing-dependent `fail` that a re-run with scaled timeouts does not repeat is
    /// `inconclusive` with reason `timing`; one that the re-run repeats without timing is `fail`.
    #[test]
    fn a_timing_fail_is_rerun_with_scaled_timeouts_and_never_passes() {
        // First run: the output comes before the input (the race, refused here); then the
        // system answers `?a` with `!x` and is quiet.
        struct Once {
            script: Script,
            second: Vec<Vec<&'static str>>,
        }
        impl Adapter for Once {
            fn reset(&mut self) -> Result<(), String> {
                if self.script.resets == 1 {
                    self.script.initial = vec![];
                    self.script.replies = std::mem::take(&mut self.second);
                }
                self.script.reset()
            }
            fn send(&mut self, input: &str) -> Result<(), String> {
                self.script.send(input)
            }
            fn receive(&mut self, timeout: Duration) -> Result<Observation, String> {
                self.script.receive(timeout)
            }
        }
        let mut once = Once {
            script: script(vec![], vec!["x"]),
            second: vec![vec!["x"]],
        };
        let out = run_with_retries(&mut once, &model(), &test_case(), &Q, 3).unwrap();
        assert_eq!(out.verdict, TestVerdict::Inconclusive, "{out:?}");
        assert_eq!(out.reason(), Some("timing"));
        assert_eq!(out.trace, ["?a", "!x", "delta"]);
        assert_eq!(out.timing.as_ref().unwrap().first_trace, ["!x"]);
        assert_eq!(out.timing.as_ref().unwrap().scale, 4);
        assert!(out.message.unwrap().starts_with("inconclusive (timing): failed with the timeouts given (output !x arrived before input ?a"));
        // The re-run fails without timing (an output no reading allows, no quiescence): `fail`.
        let mut once = Once {
            script: script(vec![], vec!["x"]),
            second: vec![vec!["x", "x"]],
        };
        let out = run_with_retries(&mut once, &model(), &test_case(), &Q, 3).unwrap();
        assert_eq!(out.verdict, TestVerdict::Fail, "{out:?}");
        assert_eq!(out.trace, ["?a", "!x", "!x"]);
        assert!(out.message.unwrap().contains("(with the timeouts x4; the first failure depended on timing: output !x arrived before input ?a"));
    }

    #[test]
    fn retries_are_bounded_and_end_inconclusive() {
        let mut s = script(vec![vec!["y"]], vec![]);
        let out = run_with_retries(&mut s, &model(), &test_case(), &Q, 4).unwrap();
        assert_eq!(out.verdict, TestVerdict::Inconclusive);
        assert_eq!(out.attempts, 5);
        assert_eq!(s.resets, 5);
        assert!(
            out.message
                .unwrap()
                .starts_with("inconclusive: all 5 attempts")
        );
    }

    /// `test_case` with the roles of `x` and `y` swapped.
    fn other_branch() -> TestCase {
        let mut t = test_case();
        t.name = "u".into();
        t.nodes[1] = TestNode::Expect {
            branches: vec![(LabelId(0), Next::RETRY), (LabelId(1), Next::Node(2))],
        };
        t
    }

    #[test]
    fn follow_walks_a_test_along_a_trace() {
        let (a, x, y) = (
            TraceStep::Input(LabelId(0)),
            TraceStep::Output(LabelId(0)),
            TraceStep::Output(LabelId(1)),
        );
        assert_eq!(follow(&test_case(), &[]), Some(0));
        assert_eq!(follow(&test_case(), &[a]), Some(1));
        assert_eq!(follow(&test_case(), &[a, x]), Some(2));
        assert_eq!(follow(&test_case(), &[a, y]), None, "a retry leaf");
        assert_eq!(follow(&other_branch(), &[a, y]), Some(2));
        assert_eq!(follow(&test_case(), &[x]), None, "a race branch to fail");
        assert_eq!(
            follow(&test_case(), &[a, a]),
            None,
            "an input at an expect node"
        );
    }

    #[test]
    fn following_continues_a_retried_execution_with_the_test_that_holds_its_trace() {
        let tests = [test_case(), other_branch()];
        // The system always takes the `y` branch: `t` can never be judged, `u` passes.
        let mut s = script(vec![vec!["y"]], vec![]);
        let out = run_suite_on_adapter(&mut s, &model(), &tests, &Q, 3, true, |_| {}).unwrap();
        assert_eq!(out[0].verdict, TestVerdict::Inconclusive);
        assert_eq!(out[0].attempts, 4);
        assert_eq!(out[1].verdict, TestVerdict::Pass);
        assert_eq!(out[1].attempts, 1);
        assert_eq!(out[1].trace, ["?a", "!y", "delta"]);
        assert_eq!(
            s.resets, 4,
            "u ran on from t's first execution, without a reset"
        );
        // Without following, `u` needs a run of its own.
        let mut s = script(vec![vec!["y"]], vec![]);
        for t in &tests {
            run_with_retries(&mut s, &model(), t, &Q, 3).unwrap();
        }
        assert_eq!(s.resets, 5);
        // A failure found while following is reported for the test that ran into it.
        let mut s = script(vec![vec!["y", "y"]], vec![]);
        let out = run_suite_on_adapter(&mut s, &model(), &tests, &Q, 3, true, |_| {}).unwrap();
        assert_eq!(out[1].verdict, TestVerdict::Fail);
        assert_eq!(
            out[1].message.as_deref(),
            Some("unexpected !y (expected one of: delta) after ?a !y")
        );
    }

    fn events(bytes: &[u8]) -> Vec<Event> {
        let (tx, rx) = mpsc::sync_channel(QUEUED_LINES);
        read_lines(bytes, &tx);
        drop(tx);
        rx.into_iter().collect()
    }

    #[test]
    fn the_reader_passes_on_labels_and_stops_at_protocol_violations() {
        use Event::*;
        // One `\n` or `\r\n` ends a line; nothing else is trimmed.
        assert_eq!(
            events(b" x \r\ny\r\r\nz\x1f\n\x0bw\xc2\x85\n"),
            [
                Line(" x ".into()),
                Line("y\r".into()),
                Line("z\u{1f}".into()),
                Line("\u{b}w\u{85}".into()),
                End
            ]
        );
        let [Broken(why)] = &events(b"\r\nx\n")[..] else {
            panic!("a lone \\r\\n is an empty line")
        };
        assert!(why.contains("empty line"), "{why}");
        assert_eq!(
            events(b"x\nab"),
            [Line("x".into()), Partial("ab".into()), End]
        );
        let [Line(_), Broken(why)] = &events(b"x\n\xff\nnot read\n")[..] else {
            panic!("invalid UTF-8 is not a label")
        };
        assert!(why.contains("invalid UTF-8"), "{why}");
        let [Broken(why)] = &events(b"\nx\n")[..] else {
            panic!("an empty line is not quiescence")
        };
        assert!(why.contains("empty line"), "{why}");
        // A line over the bound is refused once the bound is passed, newline or not.
        let long = vec![b'x'; 3 * MAX_LINE_BYTES];
        let got = events(&long);
        assert!(
            matches!(got.last(), Some(Broken(w)) if w.contains("longer than")),
            "{got:?}"
        );
        assert!(got.len() <= MAX_LINE_BYTES / 8192 + 3, "{}", got.len());
        let mut line = vec![b'x'; MAX_LINE_BYTES + 1];
        line.push(b'\n');
        let got = events(&line);
        assert!(
            matches!(got.last(), Some(Broken(w)) if w.contains("longer than")),
            "{got:?}"
        );
    }

    #[test]
    fn labels_are_shown_with_controls_and_outer_whitespace_escaped() {
        assert_eq!(shown_label("pong"), "pong");
        assert_eq!(shown_label("a b"), "a b");
        assert_eq!(shown_label("pong\u{1f}"), "pong\\u{1f}");
        assert_eq!(shown_label(" pong\u{85}"), "\\u{20}pong\\u{85}");
        assert_eq!(shown_label("\u{b}a\tb\u{c}"), "\\u{b}a\\u{9}b\\u{c}");
        assert_eq!(shown_label("\u{a0}"), "\\u{a0}");
    }

    #[test]
    fn expect_waits_grow_by_what_is_left_of_the_startup_allowance() {
        let t = Timeouts::from_millis(10_000, 100, 3_000);
        let now = Instant::now();
        assert_eq!(expect_wait(&t, true, true, now), Duration::from_millis(100));
        assert_eq!(
            expect_wait(&t, false, true, now),
            Duration::from_millis(3_000)
        );
        let w = expect_wait(&t, true, false, now);
        assert!(w > Duration::from_millis(9_000) && w <= Duration::from_millis(10_100));
        let long_ago = now - Duration::from_secs(20);
        assert_eq!(
            expect_wait(&t, true, false, long_ago),
            Duration::from_millis(100)
        );
    }

    #[cfg(unix)]
    fn timeouts(ms: u64) -> Timeouts {
        Timeouts::from_millis(0, ms, ms)
    }

    /// A process started by the adapter learns the scale of the timeouts in force
    /// (`NCOMPLETE_TIMING_SCALE`), and a declared timer output is noted as timing-dependent.
    #[cfg(unix)]
    #[test]
    fn a_started_system_learns_the_timing_scale_and_timer_outputs_are_timing_dependent() {
        let timeouts = Timeouts::from_millis(0, 100, 3000).with_timer_outputs(vec!["s4".into()]);
        let command = "echo \"s$NCOMPLETE_TIMING_SCALE\"; sleep 5";
        for (scale, label) in [(1, "s1"), (4, "s4")] {
            let mut adapter = LineAdapter::new(System::Command(command.into()), timeouts.clone());
            adapter.set_timing_scale(scale);
            adapter.reset().unwrap();
            let seen = adapter.receive(Duration::from_secs(3)).unwrap();
            assert_eq!(seen, Observation::Output(label.into()));
            // (Other outputs may be noted too, by starvation on a loaded machine.)
            if label == "s4" {
                assert!(adapter.take_timer_note(), "the timer output was not noted");
            }
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_zero_timeout_takes_an_output_that_has_arrived_and_never_waits() {
        let mut adapter = LineAdapter::process("echo x; sleep 5", Duration::from_millis(300));
        adapter.reset().unwrap();
        // Wait until the line has been read, without consuming it.
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut seen = Observation::Quiescence;
        while seen == Observation::Quiescence && Instant::now() < deadline {
            seen = adapter.receive(Duration::ZERO).unwrap();
            thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(seen, Observation::Output("x".into()));
        let started = Instant::now();
        assert_eq!(
            adapter.receive(Duration::ZERO).unwrap(),
            Observation::Quiescence
        );
        assert!(started.elapsed() < Duration::from_millis(100));
    }

    #[test]
    fn a_process_is_driven_line_by_line_and_its_exit_is_a_failure() {
        // Echo-like system: answers every line `a` with `x`, then exits after the first one.
        let mut adapter = LineAdapter::process("read l; echo x", Duration::from_millis(300));
        let out =
            run_with_retries(&mut adapter, &model(), &test_case(), &timeouts(300), 0).unwrap();
        assert_eq!(out.verdict, TestVerdict::Fail);
        let message = out.message.unwrap();
        assert!(
            message.contains("the system exited with status 0"),
            "{message}"
        );
        assert!(message.ends_with("trace: ?a !x"), "{message}");
        // A hung system is quiescent, never a hang of the tester.
        let mut adapter =
            LineAdapter::process("read l; echo x; sleep 5", Duration::from_millis(100));
        let started = Instant::now();
        let out =
            run_with_retries(&mut adapter, &model(), &test_case(), &timeouts(100), 0).unwrap();
        assert_eq!(out.verdict, TestVerdict::Pass);
        assert!(started.elapsed() < Duration::from_secs(4));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn an_exit_is_seen_while_a_child_keeps_the_output_open_and_the_child_is_killed() {
        let dir = crate::scratch::Scratch::new("stdio");
        let pid_file = dir.join("child.pid");
        let command = format!(
            "read l; sleep 30 & echo $! > '{}'; exit 3",
            pid_file.display()
        );
        let mut adapter = LineAdapter::process(command, Duration::from_millis(200));
        let started = Instant::now();
        let out =
            run_with_retries(&mut adapter, &model(), &test_case(), &timeouts(200), 0).unwrap();
        assert!(started.elapsed() < Duration::from_secs(5));
        assert_eq!(out.verdict, TestVerdict::Fail);
        let message = out.message.unwrap();
        assert!(
            message.starts_with("the system exited with status 3"),
            "{message}"
        );
        drop(adapter);
        let pid = std::fs::read_to_string(&pid_file).unwrap();
        let stat = format!("/proc/{}/stat", pid.trim());
        // Gone, or a zombie waiting for init.
        let alive = || std::fs::read_to_string(&stat).is_ok_and(|s| !s.contains(") Z "));
        let deadline = Instant::now() + Duration::from_secs(3);
        while alive() && Instant::now() < deadline {
            thread::sleep(POLL);
        }
        assert!(!alive(), "the child survived");
    }

    #[cfg(unix)]
    #[test]
    fn unfinished_lines_and_signals_fail() {
        let mut adapter =
            LineAdapter::process("read l; printf x; sleep 5", Duration::from_millis(200));
        let out =
            run_with_retries(&mut adapter, &model(), &test_case(), &timeouts(100), 0).unwrap();
        let message = out.message.unwrap();
        assert!(message.contains("`x` without a newline"), "{message}");
        let mut adapter = LineAdapter::process("read l; kill -9 $$", Duration::from_millis(200));
        let out =
            run_with_retries(&mut adapter, &model(), &test_case(), &timeouts(100), 0).unwrap();
        let message = out.message.unwrap();
        assert!(message.contains("killed by signal 9"), "{message}");
    }

    /// `!ready`, then `!hello` written before the system reads any of the `burst` inputs `?inc`
    /// the tester sends at once (it reads them later and stays quiet).
    struct HelloBeforeIncs {
        burst: usize,
        sent: usize,
        said: usize,
    }

    impl Adapter for HelloBeforeIncs {
        fn reset(&mut self) -> Result<(), String> {
            (self.sent, self.said) = (0, 0);
            Ok(())
        }
        fn send(&mut self, _: &str) -> Result<(), String> {
            self.sent += 1;
            Ok(())
        }
        fn pending_output(&mut self, _: Duration) -> Result<Option<String>, String> {
            Ok(None)
        }
        fn receive(&mut self, _: Duration) -> Result<Observation, String> {
            let said = match (self.said, self.sent == self.burst) {
                (0, _) => "ready",
                (1, true) => "hello",
                _ => return Ok(Observation::Quiescence),
            };
            self.said += 1;
            Ok(Observation::Output(said.into()))
        }
    }

    /// The test of `!ready ?inc^k` against a specification that allows `!hello` after `!ready`
    /// but not after `?inc`, and nothing but quiescence after `!hello ?inc^k`: node 0 expects
    /// `!ready`; nodes 1..=k send `?inc` (the first one's race branch takes `!hello` to the
    /// second chain); node k+1 expects quiescence; nodes k+2..=2k+1 send `?inc` after `!hello`,
    /// and node 2k+2 expects quiescence.
    fn burst_test(k: u32) -> TestCase {
        let (inc, ready, hello, delta) = (LabelId(0), LabelId(0), LabelId(1), LabelId(2));
        let mut nodes = vec![TestNode::Expect {
            branches: vec![(ready, Next::Node(1))],
        }];
        for j in 1..=k {
            let race = if j == 1 {
                vec![(hello, Next::Node(k + 2))]
            } else {
                vec![]
            };
            nodes.push(TestNode::Send {
                input: inc,
                then: Next::Node(j + 1),
                race,
            });
        }
        nodes.push(TestNode::Expect {
            branches: vec![(delta, Next::PASS)],
        });
        for j in 1..=k {
            nodes.push(TestNode::Send {
                input: inc,
                then: Next::Node(k + 2 + j),
                race: vec![],
            });
        }
        nodes.push(TestNode::Expect {
            branches: vec![(delta, Next::PASS)],
        });
        TestCase {
            name: format!("burst{k}"),
            nodes,
        }
    }

    #[test]
    fn bursts_of_any_number_of_inputs_in_flight_never_fail_a_conforming_system() {
        let model = SuiteModel {
            name: "hello".into(),
            inputs: vec!["inc".into()],
            outputs: vec!["ready".into(), "hello".into()],
            quiescence: Some("delta".into()),
        };
        for k in 1..=64 {
            let mut system = HelloBeforeIncs {
                burst: k as usize,
                sent: 0,
                said: 0,
            };
            let test = burst_test(k);
            let outcome = run_with_retries(&mut system, &model, &test, &Q, 0).unwrap();
            assert_eq!(
                outcome.verdict,
                TestVerdict::Pass,
                "{k} in flight: {outcome:?}"
            );
            let expected: Vec<String> = ["!ready"]
                .into_iter()
                .map(String::from)
                .chain(std::iter::repeat_n("?inc".to_owned(), k as usize))
                .chain(["!hello".to_owned(), "delta".to_owned()])
                .collect();
            assert_eq!(outcome.trace, expected);
        }
    }

    #[test]
    fn scaled_timeouts_are_capped_but_never_below_the_given_ones_and_starvation_is_lateness() {
        let t = Timeouts::from_millis(1000, 200, 5000).scaled(16);
        assert_eq!(t.startup, Duration::from_secs(16));
        assert_eq!(t.quiescence, Duration::from_millis(3200));
        assert_eq!(t.response, Duration::from_secs(60));
        assert_eq!(t.scale, 16);
        let big = Timeouts::from_millis(0, 20_000, 90_000).scaled(4);
        assert_eq!(big.quiescence, Duration::from_secs(20));
        assert_eq!(big.response, Duration::from_secs(90));
        let m = model();
        assert_eq!(
            send_grace(&m, &Timeouts::default()),
            Duration::from_millis(10)
        );
        assert_eq!(
            send_grace(&m, &Timeouts::default().scaled(16)),
            Duration::from_millis(160)
        );
        let ms = Duration::from_millis;
        assert!(!starved(ms(10), ms(60)));
        assert!(starved(ms(10), ms(61)));
        assert!(!starved(ms(200), ms(400)));
        assert!(starved(ms(200), ms(401)));
    }
}
