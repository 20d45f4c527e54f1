use super::adapter::POLL;
use super::lines::{Event, QUEUED_LINES, read_lines};
use super::*;
use crate::exec::simulate::TestVerdict;
use crate::exec::tcp::System;
use crate::model::LabelId;
use crate::suite::{Next, SuiteModel, TestCase, TestNode, Verdict};
use std::sync::mpsc;
use std::thread;
use std::time::Instant;

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
            system: SimulatedSystem::from_suspension(&sa, &model, InputEnabling::SelfLoop).unwrap(),
            inputs: model.inputs.clone(),
            rng: crate::rng::SplitMix64::new(seed),
            state: 0,
            unread: Default::default(),
            overtaken: 0,
        };
        for tests in &suites {
            let outcomes =
                run_suite_on_adapter(&mut system, &model, tests, &Q, 40, false, |_| {}).unwrap();
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
    let first =
        "output !x arrived before input ?a could be sent (allowed instead: !y) after (empty trace)";
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
    assert!(out.message.unwrap().starts_with(
        "inconclusive (timing): failed with the timeouts given (output !x arrived before input ?a"
    ));
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
    let out = run_with_retries(&mut adapter, &model(), &test_case(), &timeouts(300), 0).unwrap();
    assert_eq!(out.verdict, TestVerdict::Fail);
    let message = out.message.unwrap();
    assert!(
        message.contains("the system exited with status 0"),
        "{message}"
    );
    assert!(message.ends_with("trace: ?a !x"), "{message}");
    // A hung system is quiescent, never a hang of the tester.
    let mut adapter = LineAdapter::process("read l; echo x; sleep 5", Duration::from_millis(100));
    let started = Instant::now();
    let out = run_with_retries(&mut adapter, &model(), &test_case(), &timeouts(100), 0).unwrap();
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
    let out = run_with_retries(&mut adapter, &model(), &test_case(), &timeouts(200), 0).unwrap();
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
    let mut adapter = LineAdapter::process("read l; printf x; sleep 5", Duration::from_millis(200));
    let out = run_with_retries(&mut adapter, &model(), &test_case(), &timeouts(100), 0).unwrap();
    let message = out.message.unwrap();
    assert!(message.contains("`x` without a newline"), "{message}");
    let mut adapter = LineAdapter::process("read l; kill -9 $$", Duration::from_millis(200));
    let out = run_with_retries(&mut adapter, &model(), &test_case(), &timeouts(100), 0).unwrap();
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

#[test]
fn annotations_raise_the_defaults_and_never_lower_them() {
    let (_, t) = crate::suite::timeouts::tests::slow();
    let run = Timeouts::from_millis(0, 200, 5000).annotated(Some(t));
    let here = run.at(Some(900), Some("coin"));
    assert_eq!(here.quiescence, Duration::from_millis(900));
    assert_eq!(
        here.response,
        Duration::from_millis(5000),
        "3000 < the default 5000"
    );
    let fast = Timeouts::from_millis(0, 2000, 100).annotated(run.annotations.as_deref().cloned());
    let here = fast.at(Some(900), Some("coin"));
    assert_eq!(here.quiescence, Duration::from_millis(2000));
    assert_eq!(here.response, Duration::from_millis(3000));
    // No annotation where the tester is, or no input sent yet: the defaults.
    let here = fast.at(None, None);
    assert_eq!(
        (here.quiescence, here.response),
        (fast.quiescence, fast.response)
    );
}
