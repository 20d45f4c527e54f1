//! One execution of a test case against an [`Adapter`] and the readings of the input/output
//! race (van den Bos Sec. 2.7.4; the rules of the [module doc](super)): the observations are
//! kept in every reading, input-first before output-first, and the first reading left decides
//! what the tester does next and the verdict.

use super::{Adapter, Observation, Timeouts, shown_label};
use crate::exec::spec_readings::TraceStep;
use crate::model::LabelId;
use crate::suite::case::{allowed, quiescence_name};
use crate::suite::{Next, SuiteModel, TestCase, TestNode, Verdict};
use std::time::{Duration, Instant};

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

pub(in crate::exec) fn trace_text(trace: &[String]) -> String {
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
    crate::timing::send_grace(
        timeouts.quiescence,
        timeouts.scale,
        model.quiescence.is_some(),
    )
}

/// An execution in progress since the last reset: its trace (readable and as steps) and the
/// clock of the start-up allowance. A run that ends in `retry` can be continued by another test
/// whose tree holds the same trace ([`follow`]).
#[derive(Clone, Debug)]
pub struct Execution {
    started: Instant,
    /// Whether the system has written an output since the reset (then the start-up allowance
    /// is over).
    pub(in crate::exec) seen_output: bool,
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
    pub(in crate::exec) fn started(&self) -> Instant {
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
