//! Running suites against a real system through an adapter, and the stdio adapter: the system is
//! a process started from a shell command; inputs are written to its stdin and outputs read from
//! its stdout, one label per line; no line within the quiescence timeout is observed as
//! quiescence (the TorX thesis, Sec. 2.2 and 4: quiescence is observed by a timeout; adapters
//! translate labels to real interactions). Reset restarts the process.
//!
//! Every wait is bounded: outputs are read by a thread and received with a timeout, inputs are
//! written by a thread so a system that stops reading cannot block the tester, and a system that
//! exits or closes its stdout fails the running test with its exit status.

use super::ExecError;
use super::simulate::TestVerdict;
use crate::model::LabelId;
use crate::suite::{Next, SuiteModel, TestCase, TestNode, Verdict};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

/// Default quiescence timeout in milliseconds.
pub const DEFAULT_QUIESCENCE_MS: u64 = 200;
/// Default number of re-runs of a test that ended in `retry`.
pub const DEFAULT_RETRIES: usize = 20;

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
    /// Waits at most `timeout` for the next output.
    fn receive(&mut self, timeout: Duration) -> Result<Observation, String>;
}

enum Line {
    Text(String),
    Closed,
}

struct Process {
    child: Child,
    stdin: Option<Sender<String>>,
    stdout: Receiver<Line>,
}

/// The stdio adapter: one process per test run.
pub struct StdioAdapter {
    command: String,
    quiescence: Duration,
    process: Option<Process>,
}

impl StdioAdapter {
    /// An adapter for a shell command; nothing is started before the first reset.
    pub fn new(command: impl Into<String>, quiescence: Duration) -> Self {
        StdioAdapter {
            command: command.into(),
            quiescence,
            process: None,
        }
    }

    /// The quiescence timeout.
    pub fn quiescence(&self) -> Duration {
        self.quiescence
    }

    fn stop(&mut self) {
        if let Some(mut p) = self.process.take() {
            // Closing stdin lets well-behaved systems (and their children) exit; kill the rest.
            drop(p.stdin.take());
            let _ = p.child.kill();
            let _ = p.child.wait();
        }
    }

    fn start(&mut self) -> Result<(), String> {
        let mut cmd = if cfg!(windows) {
            let mut c = Command::new("cmd");
            c.arg("/C").arg(&self.command);
            c
        } else {
            let mut c = Command::new("sh");
            c.arg("-c").arg(&self.command);
            c
        };
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start: {e}"))?;
        let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err("cannot open the pipes of the process".into());
        };
        let (out_tx, out_rx) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = String::new();
            loop {
                buf.clear();
                match reader.read_line(&mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = out_tx.send(Line::Closed);
                        return;
                    }
                    Ok(_) => {
                        let label = buf.trim();
                        if !label.is_empty() && out_tx.send(Line::Text(label.to_owned())).is_err() {
                            return;
                        }
                    }
                }
            }
        });
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
        self.process = Some(Process {
            child,
            stdin: Some(in_tx),
            stdout: out_rx,
        });
        Ok(())
    }

    fn exited(&mut self) -> String {
        let Some(p) = self.process.as_mut() else {
            return "the system is not running".into();
        };
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            match p.child.try_wait() {
                Ok(Some(status)) => return format!("the system exited ({status})"),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                _ => return "the system closed its standard output".into(),
            }
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
        self.start()
    }

    fn send(&mut self, input: &str) -> Result<(), String> {
        let p = self.process.as_mut().ok_or("the system is not running")?;
        let sent = p
            .stdin
            .as_ref()
            .is_some_and(|tx| tx.send(input.to_owned()).is_ok());
        if sent {
            Ok(())
        } else {
            Err(format!("{} before input `{input}`", self.exited()))
        }
    }

    fn receive(&mut self, timeout: Duration) -> Result<Observation, String> {
        let p = self.process.as_mut().ok_or("the system is not running")?;
        match p.stdout.recv_timeout(timeout) {
            Ok(Line::Text(s)) => Ok(Observation::Output(s)),
            Err(RecvTimeoutError::Timeout) => Ok(Observation::Quiescence),
            Ok(Line::Closed) | Err(RecvTimeoutError::Disconnected) => Err(self.exited()),
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

fn trace_text(trace: &[String]) -> String {
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

/// Runs a test case once: the adapter must have been reset.
pub fn execute_once(
    adapter: &mut dyn Adapter,
    model: &SuiteModel,
    test: &TestCase,
    quiescence: Duration,
) -> Attempt {
    let output_id = |name: &str| {
        model
            .outputs
            .iter()
            .position(|o| o == name)
            .map(|k| LabelId(k as u32))
    };
    let quiescence_id = LabelId(model.outputs.len() as u32);
    let mut trace: Vec<String> = Vec::new();
    let mut node = 0usize;
    loop {
        let step = match &test.nodes[node] {
            TestNode::Send { input, then, race } => {
                match adapter.receive(send_grace(model, quiescence)) {
                    Err(e) => Err(e),
                    Ok(Observation::Output(out)) => {
                        let next =
                            output_id(&out).map_or(Next::FAIL, |o| test.nodes[node].on_output(o));
                        let why = format!(
                            "output !{out} arrived before input ?{} could be sent (allowed instead: {})",
                            model.input_name(*input),
                            allowed(model, race)
                        );
                        trace.push(format!("!{out}"));
                        Ok((next, why))
                    }
                    Ok(Observation::Quiescence) => {
                        let name = model.input_name(*input);
                        adapter.send(name).map(|()| {
                            trace.push(format!("?{name}"));
                            (*then, format!("the test fails after input ?{name}"))
                        })
                    }
                }
            }
            TestNode::Expect { branches } => adapter.receive(quiescence).map(|obs| {
                let (id, shown) = match obs {
                    Observation::Output(out) => (output_id(&out), format!("!{out}")),
                    Observation::Quiescence => {
                        (Some(quiescence_id), quiescence_name(model).to_owned())
                    }
                };
                let next = id.map_or(Next::FAIL, |o| test.nodes[node].on_output(o));
                let why = format!(
                    "unexpected {shown} (expected one of: {})",
                    allowed(model, branches)
                );
                trace.push(shown);
                (next, why)
            }),
        };
        match step {
            Err(e) => {
                let message = format!("{e}; trace: {}", trace_text(&trace));
                return Attempt {
                    verdict: Verdict::Fail,
                    trace,
                    message: Some(message),
                };
            }
            Ok((Next::Node(k), _)) => node = k as usize,
            Ok((Next::Verdict(v), why)) => {
                let message = (v == Verdict::Fail).then(|| {
                    let before = &trace[..trace.len().saturating_sub(1)];
                    format!("{why} after {}", trace_text(before))
                });
                return Attempt {
                    verdict: v,
                    trace,
                    message,
                };
            }
        }
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
    quiescence: Duration,
    retries: usize,
) -> Result<SystemOutcome, String> {
    let mut last = None;
    for attempt in 1..=retries + 1 {
        adapter.reset()?;
        let a = execute_once(adapter, model, test, quiescence);
        let verdict = match a.verdict {
            Verdict::Retry => {
                last = Some(a);
                continue;
            }
            Verdict::Pass => TestVerdict::Pass,
            Verdict::Fail => TestVerdict::Fail,
        };
        return Ok(SystemOutcome {
            name: test.name.clone(),
            verdict,
            attempts: attempt,
            trace: a.trace,
            message: a.message,
        });
    }
    let trace = last.map(|a| a.trace).unwrap_or_default();
    Ok(SystemOutcome {
        name: test.name.clone(),
        verdict: TestVerdict::Inconclusive,
        attempts: retries + 1,
        message: Some(format!(
            "inconclusive: all {} attempts ended in retry (the system kept taking other allowed branches); last trace: {}",
            retries + 1,
            trace_text(&trace)
        )),
        trace,
    })
}

/// Runs a whole suite against a process started from `command`, one test after the other.
pub fn run_suite_stdio(
    command: &str,
    model: &SuiteModel,
    tests: &[TestCase],
    quiescence: Duration,
    retries: usize,
    mut progress: impl FnMut(&SystemOutcome),
) -> Result<Vec<SystemOutcome>, ExecError> {
    let mut adapter = StdioAdapter::new(command, quiescence);
    let mut outcomes = Vec::with_capacity(tests.len());
    for test in tests {
        let outcome = run_with_retries(&mut adapter, model, test, quiescence, retries).map_err(
            |message| ExecError::System {
                command: command.to_owned(),
                message,
            },
        )?;
        progress(&outcome);
        outcomes.push(outcome);
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

    const Q: Duration = Duration::from_millis(1);

    #[test]
    fn passes_on_the_expected_trace() {
        let mut s = script(vec![vec!["x"]], vec![]);
        let out = run_with_retries(&mut s, &model(), &test_case(), Q, 3).unwrap();
        assert_eq!(out.verdict, TestVerdict::Pass);
        assert_eq!(out.trace, ["?a", "!x", "delta"]);
    }

    #[test]
    fn failures_name_the_trace_and_the_unexpected_output() {
        let mut s = script(vec![vec!["x", "x"]], vec![]);
        let out = run_with_retries(&mut s, &model(), &test_case(), Q, 3).unwrap();
        assert_eq!(out.verdict, TestVerdict::Fail);
        assert_eq!(
            out.message.unwrap(),
            "unexpected !x (expected one of: delta) after ?a !x"
        );
        let mut s = script(vec![], vec!["x"]);
        let out = run_with_retries(&mut s, &model(), &test_case(), Q, 3).unwrap();
        assert_eq!(
            out.message.unwrap(),
            "output !x arrived before input ?a could be sent (allowed instead: !y) after (empty trace)"
        );
    }

    #[test]
    fn retries_are_bounded_and_end_inconclusive() {
        let mut s = script(vec![vec!["y"]], vec![]);
        let out = run_with_retries(&mut s, &model(), &test_case(), Q, 4).unwrap();
        assert_eq!(out.verdict, TestVerdict::Inconclusive);
        assert_eq!(out.attempts, 5);
        assert_eq!(s.resets, 5);
        assert!(
            out.message
                .unwrap()
                .starts_with("inconclusive: all 5 attempts")
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_process_is_driven_line_by_line_and_its_exit_is_a_failure() {
        // Echo-like system: answers every line `a` with `x`, then exits after the first one.
        let mut adapter = StdioAdapter::new("read l; echo x", Duration::from_millis(300));
        let out = run_with_retries(
            &mut adapter,
            &model(),
            &test_case(),
            Duration::from_millis(300),
            0,
        )
        .unwrap();
        assert_eq!(out.verdict, TestVerdict::Fail);
        let message = out.message.unwrap();
        assert!(message.contains("the system exited"), "{message}");
        assert!(message.ends_with("trace: ?a !x"), "{message}");
        // A hung system is quiescent, never a hang of the tester.
        let mut adapter = StdioAdapter::new("read l; echo x; sleep 5", Duration::from_millis(100));
        let started = Instant::now();
        let out = run_with_retries(
            &mut adapter,
            &model(),
            &test_case(),
            Duration::from_millis(100),
            0,
        )
        .unwrap();
        assert_eq!(out.verdict, TestVerdict::Pass);
        assert!(started.elapsed() < Duration::from_secs(4));
    }
}
