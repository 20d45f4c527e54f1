//! Running suites against a real system through an adapter, and the stdio adapter: the system is
//! a process started from a shell command; inputs are written to its stdin and outputs read from
//! its stdout, one label per line; no line within the quiescence timeout is observed as
//! quiescence (the TorX thesis, Sec. 2.2 and 4: quiescence is observed by a timeout; adapters
//! translate labels to real interactions). Reset restarts the process.
//!
//! The execution semantics, shared with the generated pytest and Cargo runtimes
//! (`templates/python/ncomplete_runtime.py.j2`, `templates/rust/runtime.rs.j2`) and checked on the
//! same hostile systems by `tests/hostile_runners.rs`:
//! - Three timeouts ([`Timeouts`]): the quiescence timeout where the test allows quiescence, the
//!   (long) response timeout where it requires an output (always in Mealy suites), and a start-up
//!   allowance added to every wait until the system's first output.
//! - A system that exits (any status) or is killed fails the running test with its status; the
//!   exit is detected by waiting on the process, not only by end-of-file on its stdout (a child
//!   may keep that open). Lines it wrote before exiting are still observed first.
//! - Invalid UTF-8, an empty line, a line longer than [`MAX_LINE_BYTES`], and an unfinished line
//!   (no newline within the response timeout, or at the end of the output) fail the test: none of
//!   them is quiescence. Lines are read into a bounded buffer and passed on through a bounded
//!   queue, so neither a huge line nor a flood fills the memory.
//! - The system runs in its own process group (Unix), and the whole group is killed on reset and
//!   when the adapter is dropped: nothing it started survives the test.
//! - Inputs are written by a thread, so a system that stops reading cannot block the tester.

use super::ExecError;
use super::simulate::TestVerdict;
use crate::model::LabelId;
use crate::suite::{Next, SuiteModel, TestCase, TestNode, Verdict};
use std::io::{Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
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

/// The timeouts of a run against a system.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// Added to every wait for an output until the system's first output: the time it may take
    /// to start.
    pub startup: Duration,
    /// Silence for this long is observed as quiescence, where the test allows quiescence.
    pub quiescence: Duration,
    /// How long to wait for an output the test requires (quiescence not allowed, every output
    /// of a Mealy suite), and for the rest of an unfinished line.
    pub response: Duration,
}

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
        }
    }
}

/// What the tester observes when it waits for an output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Observation {
    /// The system produced this output label.
    Output(String),
    /// Nothing arrived within the timeout.
    Quiescence,
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
        Ok(match self.receive(grace)? {
            Observation::Output(o) => Some(o),
            Observation::Quiescence => None,
        })
    }
}

/// What the reader thread passes on from the system's stdout.
#[derive(Debug, PartialEq, Eq)]
enum Event {
    /// A complete line, trimmed.
    Line(String),
    /// Bytes of a line whose newline has not arrived yet (the first few, for messages).
    Partial(String),
    /// End of the output.
    End,
    /// Output that breaks the protocol; nothing more is read.
    Broken(String),
}

/// Reads `stdout` line by line into `events` until the end, a protocol violation, or until the
/// receiver is gone. Memory stays bounded by [`MAX_LINE_BYTES`] whatever the system writes.
fn read_lines(mut stdout: impl Read, events: &SyncSender<Event>) {
    let mut line: Vec<u8> = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let n = match stdout.read(&mut chunk) {
            Ok(0) => {
                let _ = events.send(Event::End);
                return;
            }
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = events.send(Event::Broken(format!("cannot read the output: {e}")));
                return;
            }
        };
        let mut rest = &chunk[..n];
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            line.extend_from_slice(&rest[..end]);
            rest = &rest[end + 1..];
            let event = complete_line(std::mem::take(&mut line));
            let stop = matches!(event, Event::Broken(_));
            if events.send(event).is_err() || stop {
                return;
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
            return;
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

/// A complete line (newline removed) as an event: a label, or why it is not one.
fn complete_line(line: Vec<u8>) -> Event {
    if line.len() > MAX_LINE_BYTES {
        return Event::Broken(too_long());
    }
    match String::from_utf8(line) {
        Err(e) => Event::Broken(format!(
            "the system wrote invalid UTF-8 (`{}`)",
            quoted(e.as_bytes())
        )),
        Ok(text) if text.trim().is_empty() => Event::Broken(
            "the system wrote an empty line (the protocol is one label per line)".into(),
        ),
        Ok(text) => Event::Line(text.trim().to_owned()),
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

struct Process {
    child: Child,
    input: Option<Sender<String>>,
    output: Receiver<Event>,
    /// The start of an unfinished line and when it was first seen.
    partial: Option<(String, Instant)>,
    /// The exit status once the system was seen to exit (its group is killed then).
    exited: Option<ExitStatus>,
    /// After the exit: until when the rest of the output is still read.
    drain_until: Option<Instant>,
}

impl Process {
    fn start(command: &str) -> Result<Process, String> {
        let mut cmd = if cfg!(windows) {
            let mut c = Command::new("cmd");
            c.arg("/C").arg(command);
            c
        } else {
            let mut c = Command::new("sh");
            c.arg("-c").arg(command);
            c
        };
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // A group of its own, so that reset kills everything the system started.
            cmd.process_group(0);
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start: {e}"))?;
        let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("cannot open the pipes of the process".into());
        };
        let (out_tx, out_rx) = mpsc::sync_channel(QUEUED_LINES);
        thread::spawn(move || read_lines(stdout, &out_tx));
        let (in_tx, in_rx) = mpsc::channel::<String>();
        thread::spawn(move || {
            for line in in_rx {
                if writeln!(stdin, "{line}")
                    .and_then(|_| stdin.flush())
                    .is_err()
                {
                    return;
                }
            }
        });
        Ok(Process {
            child,
            input: Some(in_tx),
            output: out_rx,
            partial: None,
            exited: None,
            drain_until: None,
        })
    }

    /// Kills the system's process group, unless an exit was handled already (the group id
    /// could have been reused since). [`Process::note_exit`] calls it right after the leader
    /// was reaped: a member still alive keeps the id reserved, and an empty group has nothing
    /// to kill.
    fn kill_group(&mut self) {
        #[cfg(unix)]
        if self.exited.is_none()
            && let Ok(pid) = libc::pid_t::try_from(self.child.id())
        {
            // SAFETY: kill(2) takes plain integers and touches no memory of ours; a negative
            // pid names the process group the child leads (started with process_group(0)).
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
    }

    /// Records the exit and kills what the system left behind.
    fn note_exit(&mut self, status: ExitStatus) {
        // The group must be killed before the exit is recorded (which forbids later kills).
        self.kill_group();
        self.exited = Some(status);
        self.drain_until = Some(Instant::now() + EXIT_GRACE);
    }

    /// Checks without blocking whether the system has exited.
    fn poll_exit(&mut self) {
        if self.exited.is_none()
            && let Ok(Some(status)) = self.child.try_wait()
        {
            self.note_exit(status);
        }
    }

    /// The exit of the system if it comes within [`EXIT_GRACE`], else `otherwise`.
    fn exit_or(&mut self, otherwise: &str) -> String {
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

    fn stop(&mut self) {
        // Closing stdin first lets the writer thread end.
        drop(self.input.take());
        self.kill_group();
        let _ = self.child.wait();
    }
}

/// The stdio adapter: one process per test run.
pub struct StdioAdapter {
    command: String,
    line_timeout: Duration,
    process: Option<Process>,
}

impl StdioAdapter {
    /// An adapter for a shell command; nothing is started before the first reset.
    /// `line_timeout` bounds the wait for the rest of an unfinished line (the response timeout).
    pub fn new(command: impl Into<String>, line_timeout: Duration) -> Self {
        StdioAdapter {
            command: command.into(),
            line_timeout,
            process: None,
        }
    }

    fn stop(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.stop();
        }
    }
}

impl Drop for StdioAdapter {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Adapter for StdioAdapter {
    fn reset(&mut self) -> Result<(), String> {
        self.stop();
        self.process = Some(Process::start(&self.command)?);
        Ok(())
    }

    fn send(&mut self, input: &str) -> Result<(), String> {
        let p = self.process.as_mut().ok_or("the system is not running")?;
        if let Some(status) = p.exited {
            return Err(format!("{} before input `{input}`", exit_text(status)));
        }
        let sent = p
            .input
            .as_ref()
            .is_some_and(|tx| tx.send(input.to_owned()).is_ok());
        if sent {
            Ok(())
        } else {
            let why = p.exit_or("the system closed its standard input");
            Err(format!("{why} before input `{input}`"))
        }
    }

    fn receive(&mut self, timeout: Duration) -> Result<Observation, String> {
        let line_timeout = self.line_timeout;
        let p = self.process.as_mut().ok_or("the system is not running")?;
        let deadline = Instant::now() + timeout;
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
                p.output.recv_timeout((limit - now).min(POLL))
            };
            if now >= limit && matches!(event, Err(RecvTimeoutError::Timeout)) {
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
                Ok(Event::Line(label)) => {
                    p.partial = None;
                    return Ok(Observation::Output(label));
                }
                Ok(Event::Partial(text)) => {
                    if p.partial.is_none() {
                        p.partial = Some((text, Instant::now()));
                    }
                }
                Ok(Event::Broken(why)) => return Err(why),
                Ok(Event::End) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(p.end_message());
                }
                Err(RecvTimeoutError::Timeout) => p.poll_exit(),
            }
        }
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

fn allowed(model: &SuiteModel, list: &[(LabelId, Next)]) -> String {
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
/// suites (no quiescence) need no grace: a Mealy machine only answers inputs.
pub fn send_grace(model: &SuiteModel, quiescence: Duration) -> Duration {
    if model.quiescence.is_none() {
        Duration::ZERO
    } else {
        (quiescence / 20).min(Duration::from_millis(20))
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
}

impl Execution {
    /// An execution starting now (right after a reset).
    pub fn start() -> Self {
        Execution {
            started: Instant::now(),
            seen_output: false,
            trace: Vec::new(),
            steps: Vec::new(),
        }
    }

    /// How long to wait for an output now ([`expect_wait`]).
    pub fn output_wait(&self, timeouts: &Timeouts, quiescence_allowed: bool) -> Duration {
        expect_wait(timeouts, quiescence_allowed, self.seen_output, self.started)
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

/// Runs a test case from `node` on, the system having run `run` since its reset (for node 0:
/// nothing); what it observes is added to `run`'s trace.
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
    let mut node = start;
    let ending = loop {
        let step = match &test.nodes[node] {
            TestNode::Send { input, then, race } => {
                match adapter.pending_output(send_grace(model, timeouts.quiescence)) {
                    Err(e) => Err(e),
                    Ok(Some(out)) => {
                        seen_output = true;
                        let id = output_id(&out);
                        let next = id.map_or(Next::FAIL, |o| test.nodes[node].on_output(o));
                        let why = format!(
                            "output !{out} arrived before input ?{} could be sent (allowed instead: {})",
                            model.input_name(*input),
                            allowed(model, race)
                        );
                        trace.push(format!("!{out}"));
                        steps.extend(id.map(TraceStep::Output));
                        Ok((next, why))
                    }
                    Ok(None) => {
                        let name = model.input_name(*input);
                        adapter.send(name).map(|()| {
                            trace.push(format!("?{name}"));
                            steps.push(TraceStep::Input(*input));
                            (*then, format!("the test fails after input ?{name}"))
                        })
                    }
                }
            }
            TestNode::Expect { branches } => {
                let quiescence_allowed = model.quiescence.is_some()
                    && test.nodes[node].on_output(quiescence_id) != Next::FAIL;
                let wait = expect_wait(timeouts, quiescence_allowed, seen_output, started);
                adapter.receive(wait).map(|obs| {
                    let (id, shown) = match obs {
                        Observation::Output(out) => {
                            seen_output = true;
                            (output_id(&out), format!("!{out}"))
                        }
                        Observation::Quiescence => {
                            (Some(quiescence_id), quiescence_name(model).to_owned())
                        }
                    };
                    let next = id.map_or(Next::FAIL, |o| test.nodes[node].on_output(o));
                    let expected = allowed(model, branches);
                    let why = if id == Some(quiescence_id) && !quiescence_allowed {
                        format!(
                            "no output within the response timeout of {} ms (expected one of: {expected})",
                            timeouts.response.as_millis()
                        )
                    } else {
                        format!("unexpected {shown} (expected one of: {expected})")
                    };
                    trace.push(shown);
                    steps.extend(id.map(TraceStep::Output));
                    (next, why)
                })
            }
        };
        match step {
            Err(e) => {
                let message = format!("{e}; trace: {}", trace_text(&trace));
                break Ending {
                    verdict: Verdict::Fail,
                    message: Some(message),
                };
            }
            Ok((Next::Node(k), _)) => node = k as usize,
            Ok((Next::Verdict(v), why)) => {
                let message = (v == Verdict::Fail).then(|| {
                    let before = &trace[..trace.len().saturating_sub(1)];
                    format!("{why} after {}", trace_text(before))
                });
                break Ending {
                    verdict: v,
                    message,
                };
            }
        }
    };
    run.seen_output = seen_output;
    run.trace = trace;
    run.steps = steps;
    ending
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
    /// Pass, fail, or inconclusive when every attempt ended in `retry`.
    pub verdict: TestVerdict,
    /// Number of executions.
    pub attempts: usize,
    /// The trace of the last execution.
    pub trace: Vec<String>,
    /// Why the test failed or was inconclusive.
    pub message: Option<String>,
}

/// Runs a test case, re-running it after `retry` at most `retries` times.
pub fn run_with_retries(
    adapter: &mut dyn Adapter,
    model: &SuiteModel,
    test: &TestCase,
    timeouts: &Timeouts,
    retries: usize,
) -> Result<SystemOutcome, String> {
    let mut outcomes = run_suite_on_adapter(
        adapter,
        model,
        std::slice::from_ref(test),
        timeouts,
        retries,
        false,
        |_| {},
    )?;
    Ok(outcomes.remove(0))
}

/// The outcome of a test whose `attempts` executions all ended in `retry`.
fn inconclusive(test: &TestCase, attempts: usize, trace: Vec<String>) -> SystemOutcome {
    SystemOutcome {
        name: test.name.clone(),
        verdict: TestVerdict::Inconclusive,
        attempts,
        message: Some(format!(
            "inconclusive: all {attempts} attempts ended in retry (the system kept taking other allowed branches); last trace: {}",
            trace_text(&trace)
        )),
        trace,
    }
}

/// Runs a whole suite against processes started from `command`: one test after the other, or
/// on `jobs` systems at once ([`run_suite_in_parallel`]); with `follow`, an execution that ends
/// in `retry` is continued by another test that holds its trace ([`run_suite_on_adapter`]),
/// which depends on the order tests are decided in, so `follow` runs one system whatever
/// `jobs` says. `progress` gets each outcome, in suite order, with the time its test took.
#[allow(clippy::too_many_arguments)]
pub fn run_suite_stdio(
    command: &str,
    model: &SuiteModel,
    tests: &[TestCase],
    timeouts: &Timeouts,
    retries: usize,
    follow: bool,
    jobs: usize,
    mut progress: impl FnMut(&SystemOutcome, Duration),
) -> Result<Vec<SystemOutcome>, ExecError> {
    let system_error = |message| ExecError::System {
        command: command.to_owned(),
        message,
    };
    if jobs > 1 && !follow && tests.len() > 1 {
        return run_suite_in_parallel(command, model, tests, timeouts, retries, jobs, progress)
            .map_err(system_error);
    }
    let mut adapter = StdioAdapter::new(command, timeouts.response);
    let mut started = Instant::now();
    run_suite_on_adapter(
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
    .map_err(system_error)
}

/// Runs a suite on `jobs` systems at once, each started from `command` by a worker thread that
/// takes the next test of the suite when its previous one is decided (so a slow test holds up
/// one worker only). Each test runs as [`run_with_retries`] runs it alone, so verdicts are
/// those of a run on one system; outcomes are handed to `progress` in suite order as soon as
/// all earlier ones are in. When a system cannot be started or driven, workers take no new
/// test, the tests already taken finish, and the error of the earliest such test is returned.
pub fn run_suite_in_parallel(
    command: &str,
    model: &SuiteModel,
    tests: &[TestCase],
    timeouts: &Timeouts,
    retries: usize,
    jobs: usize,
    mut progress: impl FnMut(&SystemOutcome, Duration),
) -> Result<Vec<SystemOutcome>, String> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let n = tests.len();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    type Decided = (usize, Result<SystemOutcome, String>, Duration);
    let (sender, receiver) = mpsc::channel::<Decided>();
    thread::scope(|scope| {
        for _ in 0..jobs.min(n) {
            let sender = sender.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                let mut adapter = StdioAdapter::new(command, timeouts.response);
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    let started = Instant::now();
                    let outcome =
                        run_with_retries(&mut adapter, model, &tests[i], timeouts, retries);
                    let failed = outcome.is_err();
                    if sender.send((i, outcome, started.elapsed())).is_err() || failed {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut waiting: Vec<Option<(SystemOutcome, Duration)>> = vec![None; n];
        let mut outcomes = Vec::with_capacity(n);
        let mut error: Option<(usize, String)> = None;
        for (i, decided, took) in receiver {
            match decided {
                Ok(outcome) => waiting[i] = Some((outcome, took)),
                Err(message) => {
                    stop.store(true, Ordering::Relaxed);
                    if error.as_ref().is_none_or(|&(j, _)| i < j) {
                        error = Some((i, message));
                    }
                }
            }
            while let Some((outcome, took)) = waiting.get_mut(outcomes.len()).and_then(Option::take)
            {
                progress(&outcome, took);
                outcomes.push(outcome);
            }
        }
        match error {
            Some((_, message)) => Err(message),
            None => Ok(outcomes),
        }
    })
}

/// Runs a suite test after test, each from a reset and re-run after `retry`; a test is
/// inconclusive once `retries + 1` of its attempts ended in `retry`. With `following` it follows
/// the system: when an execution of a test ends in `retry` because the system took another
/// allowed branch, the first undecided test (from the current one on, in suite order) whose tree
/// holds the observed trace continues the execution from the node that trace leads to, instead
/// of a reset. A test decided that way was executed from its root along one of its own paths,
/// so its verdict means what it means after a run of its own: the suite guarantees the same.
/// Every execution counts as an attempt of the test that ran it. Outcomes are reported in suite
/// order.
pub fn run_suite_on_adapter(
    adapter: &mut dyn Adapter,
    model: &SuiteModel,
    tests: &[TestCase],
    timeouts: &Timeouts,
    retries: usize,
    following: bool,
    mut progress: impl FnMut(&SystemOutcome),
) -> Result<Vec<SystemOutcome>, String> {
    let n = tests.len();
    let mut decided: Vec<Option<SystemOutcome>> = vec![None; n];
    let mut attempts = vec![0usize; n];
    let mut last_trace: Vec<Vec<String>> = vec![Vec::new(); n];
    let mut outcomes = Vec::with_capacity(n);
    for i in 0..n {
        while decided[i].is_none() {
            if attempts[i] > retries {
                let trace = std::mem::take(&mut last_trace[i]);
                decided[i] = Some(inconclusive(&tests[i], attempts[i], trace));
                break;
            }
            adapter.reset()?;
            let mut run = Execution::start();
            let (mut current, mut node) = (i, 0);
            loop {
                attempts[current] += 1;
                let end = execute_from(adapter, model, &tests[current], node, &mut run, timeouts);
                let verdict = match end.verdict {
                    Verdict::Pass => TestVerdict::Pass,
                    Verdict::Fail => TestVerdict::Fail,
                    Verdict::Retry => {
                        let next = if following {
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
                decided[current] = Some(SystemOutcome {
                    name: tests[current].name.clone(),
                    verdict,
                    attempts: attempts[current],
                    trace: std::mem::take(&mut run.trace),
                    message: end.message,
                });
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
        }
    }

    const Q: Timeouts = Timeouts {
        startup: Duration::ZERO,
        quiescence: Duration::from_millis(1),
        response: Duration::from_millis(1),
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
        let mut s = script(vec![], vec!["x"]);
        let out = run_with_retries(&mut s, &model(), &test_case(), &Q, 3).unwrap();
        assert_eq!(
            out.message.unwrap(),
            "output !x arrived before input ?a could be sent (allowed instead: !y) after (empty trace)"
        );
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
        assert_eq!(
            events(b" x \r\ny\n"),
            [Line("x".into()), Line("y".into()), End]
        );
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

    #[cfg(unix)]
    #[test]
    fn a_zero_timeout_takes_an_output_that_has_arrived_and_never_waits() {
        let mut adapter = StdioAdapter::new("echo x; sleep 5", Duration::from_millis(300));
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
        let mut adapter = StdioAdapter::new("read l; echo x", Duration::from_millis(300));
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
        let mut adapter = StdioAdapter::new("read l; echo x; sleep 5", Duration::from_millis(100));
        let started = Instant::now();
        let out =
            run_with_retries(&mut adapter, &model(), &test_case(), &timeouts(100), 0).unwrap();
        assert_eq!(out.verdict, TestVerdict::Pass);
        assert!(started.elapsed() < Duration::from_secs(4));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn an_exit_is_seen_while_a_child_keeps_the_output_open_and_the_child_is_killed() {
        let dir = std::env::temp_dir().join(format!("ncomplete-stdio-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pid_file = dir.join("child.pid");
        let command = format!(
            "read l; sleep 30 & echo $! > '{}'; exit 3",
            pid_file.display()
        );
        let mut adapter = StdioAdapter::new(command, Duration::from_millis(200));
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
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn unfinished_lines_and_signals_fail() {
        let mut adapter =
            StdioAdapter::new("read l; printf x; sleep 5", Duration::from_millis(200));
        let out =
            run_with_retries(&mut adapter, &model(), &test_case(), &timeouts(100), 0).unwrap();
        let message = out.message.unwrap();
        assert!(message.contains("`x` without a newline"), "{message}");
        let mut adapter = StdioAdapter::new("read l; kill -9 $$", Duration::from_millis(200));
        let out =
            run_with_retries(&mut adapter, &model(), &test_case(), &timeouts(100), 0).unwrap();
        let message = out.message.unwrap();
        assert!(message.contains("killed by signal 9"), "{message}");
    }
}
