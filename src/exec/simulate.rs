//! Exact execution of a suite against a model of the implementation, exploring every race and
//! every output choice (the fairness assumption of van den Bos Sec. 2.4 and of the TorX thesis:
//! a system that is run often enough takes each of its branches).
//!
//! The implementation is a deterministic system over the suite's labels ([`SimulatedSystem`]),
//! built from a suspension automaton (input-enabled, quiescence an output) or from a Mealy machine
//! (`q --i--> (q,i) --o--> q'`, quiescent while waiting for input). Executing test node `k` in
//! system state `q`:
//! - `Send { input, then, race }`: the input may be applied (continue at `then` in `T(q, input)`),
//!   or any non-quiescence output `x` of `q` may come first (continue at `race[x]`, unlisted fails);
//! - `Expect { branches }`: every output of `q`, quiescence included, may be observed (continue at
//!   `branches[x]`, unlisted fails).
//!
//! Since references point forward only, one sweep over the nodes in index order computes the set
//! of system states reachable at every node, visiting each `(node, state)` pair once (the
//! memoisation that keeps DAG-shaped tests linear); the test's outcome is the set of verdicts
//! reached at the leaves, with a witness trace for `fail` rebuilt from the first arrival at each
//! pair.

use super::error::ExecError;
use crate::model::{Interner, LabelId, Mealy, Onfsm, StateId, SuspensionAutomaton};
use crate::suite::{Next, SuiteModel, TestCase, TestNode, Verdict};
use rayon::prelude::*;
use std::fmt;

/// What to do when the implementation model refuses an input of the suite.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum InputEnabling {
    /// Report the first refused input as an error.
    #[default]
    Reject,
    /// Let the system ignore refused inputs (a self-loop).
    SelfLoop,
}

/// A deterministic system over the labels of one suite: input ids index `SuiteModel::inputs`,
/// output ids are the suite's (quiescence is `outputs.len()`, even when the suite has no
/// quiescence, in which case observing it fails); outputs the suite does not know get ids from
/// `num_output_ids()` upwards, so every test fails when it sees them.
#[derive(Clone, Debug)]
pub struct SimulatedSystem {
    num_inputs: usize,
    initial: u32,
    state_names: Vec<String>,
    /// `state * num_inputs + input` to target, `NONE` when the input cannot be applied now.
    input_next: Vec<u32>,
    /// Per state: enabled outputs (suite ids) with targets, sorted.
    outputs: Vec<Vec<(LabelId, u32)>>,
    /// Names of output ids: the suite's outputs, quiescence, then unknown outputs.
    output_names: Vec<String>,
    input_names: Vec<String>,
    quiescence: LabelId,
}

const NONE: u32 = u32::MAX;

/// Maps implementation output names to suite output ids, adding unknown names after the suite's.
struct OutputIds<'a> {
    suite: &'a SuiteModel,
    names: Vec<String>,
}

impl<'a> OutputIds<'a> {
    fn new(suite: &'a SuiteModel) -> Self {
        let mut names = suite.outputs.clone();
        names.push(
            suite
                .quiescence
                .clone()
                .unwrap_or_else(|| "quiescence".into()),
        );
        OutputIds { suite, names }
    }

    fn id(&mut self, name: &str) -> LabelId {
        if let Some(k) = self.suite.outputs.iter().position(|o| o == name) {
            return LabelId(k as u32);
        }
        let extra = self.suite.outputs.len() + 1;
        match self.names[extra..].iter().position(|o| o == name) {
            Some(k) => LabelId((extra + k) as u32),
            None => {
                self.names.push(name.to_owned());
                LabelId((self.names.len() - 1) as u32)
            }
        }
    }
}

impl SimulatedSystem {
    /// The system behaving like a suspension automaton (its quiescence label is the suite's
    /// quiescence). Inputs of the suite are matched by name; the automaton must accept every one
    /// of them in every state reachable from the initial state, unless `enabling` says to ignore
    /// refused inputs.
    pub fn from_suspension(
        sa: &SuspensionAutomaton,
        suite: &SuiteModel,
        enabling: InputEnabling,
    ) -> Result<Self, ExecError> {
        let n = sa.num_states();
        let ni = suite.inputs.len();
        let mut ids = OutputIds::new(suite);
        let quiescence = LabelId(suite.outputs.len() as u32);
        let input_labels: Vec<Option<LabelId>> = suite
            .inputs
            .iter()
            .map(|name| sa.alphabet.get(name).filter(|&l| sa.alphabet.is_input(l)))
            .collect();
        let reachable = reachable_states(sa);
        let mut input_next = vec![NONE; n * ni];
        let mut outputs = vec![Vec::new(); n];
        for q in sa.states() {
            for (i, label) in input_labels.iter().enumerate() {
                let target = label.and_then(|l| sa.after(q, l));
                input_next[q.index() * ni + i] = match (target, enabling) {
                    (Some(t), _) => t.0,
                    (None, InputEnabling::SelfLoop) => q.0,
                    (None, InputEnabling::Reject) if !reachable[q.index()] => q.0,
                    (None, InputEnabling::Reject) => {
                        return Err(ExecError::NotInputEnabled {
                            state: sa.state_name(q).to_owned(),
                            input: suite.inputs[i].clone(),
                        });
                    }
                };
            }
            let mut outs: Vec<(LabelId, u32)> = sa
                .outputs_enabled(q)
                .map(|l| {
                    let id = if l == sa.quiescence() {
                        quiescence
                    } else {
                        ids.id(sa.alphabet.name(l))
                    };
                    (id, sa.after(q, l).map_or(q.0, |t| t.0))
                })
                .collect();
            outs.sort_unstable();
            outputs[q.index()] = outs;
        }
        Ok(SimulatedSystem {
            num_inputs: ni,
            initial: sa.initial().0,
            state_names: sa.state_names().to_vec(),
            input_next,
            outputs,
            output_names: ids.names,
            input_names: suite.inputs.clone(),
            quiescence,
        })
    }

    /// The system behaving like a Mealy machine: after input `i` in state `q` it produces the
    /// output of `(q, i)` and moves on; while waiting for input it is quiescent. A second input
    /// sent while an output is pending is not taken before that output. Inputs the machine does
    /// not define are refused or ignored according to `enabling`.
    pub fn from_mealy(
        m: &Mealy,
        suite: &SuiteModel,
        enabling: InputEnabling,
    ) -> Result<Self, ExecError> {
        let quads: Vec<_> = m.quads().collect();
        Self::from_machine(
            m.state_names(),
            m.initial(),
            &m.inputs,
            &m.outputs,
            &quads,
            suite,
            enabling,
        )
    }

    /// The system behaving like a nondeterministic Mealy machine: as [`Self::from_mealy`], but
    /// a pending input may produce any output of the transitions of `(q, i)` and move to the
    /// target of the one taken (the choice that is the system's, every one simulated).
    pub fn from_onfsm(
        m: &Onfsm,
        suite: &SuiteModel,
        enabling: InputEnabling,
    ) -> Result<Self, ExecError> {
        Self::from_machine(
            m.state_names(),
            m.initial(),
            &m.inputs,
            &m.outputs,
            m.quads(),
            suite,
            enabling,
        )
    }

    /// A machine with inputs and outputs on transitions `(q, i, o, q')`: states waiting for
    /// input (quiescent) and one pending state `(q, i)` per state and suite input.
    fn from_machine(
        names: &[String],
        initial: StateId,
        inputs: &Interner,
        outputs: &Interner,
        quads: &[(StateId, LabelId, LabelId, StateId)],
        suite: &SuiteModel,
        enabling: InputEnabling,
    ) -> Result<Self, ExecError> {
        let n = names.len();
        let ni = suite.inputs.len();
        let mut ids = OutputIds::new(suite);
        let quiescence = LabelId(suite.outputs.len() as u32);
        let pending = |q: usize, i: usize| (n + q * ni + i) as u32;
        let total = n + n * ni;
        // The transitions of each state and machine input.
        let mut steps: Vec<Vec<(LabelId, StateId)>> = vec![Vec::new(); n * inputs.len()];
        for &(q, i, o, t) in quads {
            steps[q.index() * inputs.len() + i.index()].push((o, t));
        }
        let mut input_next = vec![NONE; total * ni];
        let mut outputs_of = vec![Vec::new(); total];
        let mut state_names: Vec<String> = names.to_vec();
        for q in 0..n {
            outputs_of[q] = vec![(quiescence, q as u32)];
            for (i, name) in suite.inputs.iter().enumerate() {
                let step = inputs
                    .get(name)
                    .map(|l| &steps[q * inputs.len() + l.index()][..])
                    .filter(|s| !s.is_empty());
                input_next[q * ni + i] = match (step, enabling) {
                    (Some(step), _) => {
                        let p = pending(q, i);
                        let mut outs: Vec<(LabelId, u32)> = step
                            .iter()
                            .map(|&(o, t)| (ids.id(outputs.name(o)), t.0))
                            .collect();
                        outs.sort_unstable();
                        outs.dedup();
                        outputs_of[p as usize] = outs;
                        p
                    }
                    (None, InputEnabling::SelfLoop) => q as u32,
                    (None, InputEnabling::Reject) => {
                        return Err(ExecError::NotInputEnabled {
                            state: names[q].clone(),
                            input: name.clone(),
                        });
                    }
                };
            }
        }
        for q in names {
            for name in &suite.inputs {
                state_names.push(format!("({q}, {name})"));
            }
        }
        Ok(SimulatedSystem {
            num_inputs: ni,
            initial: initial.0,
            state_names,
            input_next,
            outputs: outputs_of,
            output_names: ids.names,
            input_names: suite.inputs.clone(),
            quiescence,
        })
    }

    /// The initial state.
    pub fn initial(&self) -> u32 {
        self.initial
    }

    /// Name of a state (for Mealy machines, pending states read `(q, i)`).
    pub fn state_name(&self, q: u32) -> &str {
        &self.state_names[q as usize]
    }

    /// The state after applying input `i` in `q`, if the input can be applied now.
    pub fn after_input(&self, q: u32, i: LabelId) -> Option<u32> {
        let t = self.input_next[q as usize * self.num_inputs + i.index()];
        (t != NONE).then_some(t)
    }

    /// Outputs `q` may produce (quiescence included), with their targets, sorted by output id.
    pub fn outputs(&self, q: u32) -> &[(LabelId, u32)] {
        &self.outputs[q as usize]
    }

    /// The quiescence output id.
    pub fn quiescence(&self) -> LabelId {
        self.quiescence
    }

    /// The name of an input id (unmarked).
    pub fn input_name(&self, i: LabelId) -> &str {
        &self.input_names[i.index()]
    }

    /// The name of an output id (unmarked; the quiescence label as is).
    pub fn output_name(&self, o: LabelId) -> &str {
        &self.output_names[o.index()]
    }

    /// Readable form of a step: `?a` for inputs, `!x` for outputs, the quiescence label as is.
    pub fn step_name(&self, step: Step) -> String {
        match step {
            Step::Input(i) => format!("?{}", self.input_names[i.index()]),
            Step::Output(o) if o == self.quiescence => self.output_names[o.index()].clone(),
            Step::Output(o) => format!("!{}", self.output_names[o.index()]),
        }
    }

    /// A readable trace.
    pub fn trace_string(&self, trace: &[Step]) -> String {
        if trace.is_empty() {
            return "(empty trace)".into();
        }
        trace
            .iter()
            .map(|&s| self.step_name(s))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Marks the states reachable from the initial state.
fn reachable_states(sa: &SuspensionAutomaton) -> Vec<bool> {
    let mut seen = vec![false; sa.num_states()];
    let mut stack = vec![sa.initial()];
    seen[sa.initial().index()] = true;
    while let Some(q) = stack.pop() {
        for &(_, t) in sa.enabled(q) {
            if !seen[t.index()] {
                seen[t.index()] = true;
                stack.push(t);
            }
        }
    }
    seen
}

/// One observable step of an execution.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// The tester applied an input.
    Input(LabelId),
    /// The tester observed an output (or quiescence).
    Output(LabelId),
}

/// The verdict of one test case against one implementation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TestVerdict {
    /// Some execution passes and none fails.
    Pass,
    /// Every execution ends in `retry`: the system never takes a branch this test can judge.
    Inconclusive,
    /// Some execution fails.
    Fail,
}

impl fmt::Display for TestVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TestVerdict::Pass => "pass",
            TestVerdict::Inconclusive => "inconclusive",
            TestVerdict::Fail => "fail",
        })
    }
}

/// The result of running one test case in simulation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestOutcome {
    /// Test name.
    pub name: String,
    /// The verdict.
    pub verdict: TestVerdict,
    /// Verdicts reachable at the leaves (sorted, no duplicates).
    pub reachable: Vec<Verdict>,
    /// For a failing test: the steps of one failing execution, the last one being the offending
    /// observation (or the input after which the test says `fail`).
    pub counterexample: Option<Vec<Step>>,
    /// For a failing test: the node at which the witness fails.
    pub failing_node: Option<usize>,
    /// Number of `(node, state)` pairs explored.
    pub explored: usize,
}

/// Runs one test case against the system, exploring every execution.
pub fn run_test(sys: &SimulatedSystem, test: &TestCase) -> TestOutcome {
    /// A system state reached at a node, with the first way it was reached (for witnesses).
    #[derive(Copy, Clone)]
    struct Arrival {
        state: u32,
        from_node: u32,
        from_state: u32,
        step: Option<Step>,
    }
    let n = test.nodes.len();
    // at[k]: arrivals at node k, deduplicated by state (first arrival kept) when node k is
    // processed, which happens after every arrival, as references point forward.
    let mut at: Vec<Vec<Arrival>> = vec![Vec::new(); n];
    let mut stamp: Vec<u32> = vec![u32::MAX; sys.state_names.len()];
    let mut reachable = [false; 3];
    let mut fail_at: Option<(u32, u32, Step)> = None;
    let mut explored = 0;
    if n > 0 {
        at[0].push(Arrival {
            state: sys.initial,
            from_node: 0,
            from_state: 0,
            step: None,
        });
    }
    let slot = |v: Verdict| match v {
        Verdict::Pass => 0,
        Verdict::Fail => 1,
        Verdict::Retry => 2,
    };
    for k in 0..n {
        let mut arrivals = std::mem::take(&mut at[k]);
        arrivals.retain(|a| std::mem::replace(&mut stamp[a.state as usize], k as u32) != k as u32);
        explored += arrivals.len();
        let node = &test.nodes[k];
        for a in &arrivals {
            let q = a.state;
            let mut visit = |step: Step, next: Next, target: u32| match next {
                Next::Node(j) => at[j as usize].push(Arrival {
                    state: target,
                    from_node: k as u32,
                    from_state: q,
                    step: Some(step),
                }),
                Next::Verdict(v) => {
                    reachable[slot(v)] = true;
                    if v == Verdict::Fail && fail_at.is_none() {
                        fail_at = Some((k as u32, q, step));
                    }
                }
            };
            match node {
                TestNode::Send { input, then, .. } => {
                    if let Some(t) = sys.after_input(q, *input) {
                        visit(Step::Input(*input), *then, t);
                    }
                    for &(o, t) in sys.outputs(q) {
                        if o != sys.quiescence {
                            visit(Step::Output(o), node.on_output(o), t);
                        }
                    }
                }
                TestNode::Expect { .. } => {
                    for &(o, t) in sys.outputs(q) {
                        visit(Step::Output(o), node.on_output(o), t);
                    }
                }
            }
        }
        at[k] = arrivals;
    }
    let failing_node = fail_at.map(|(k, _, _)| k as usize);
    let counterexample = fail_at.map(|(k, q, last)| {
        let mut trace = vec![last];
        let (mut k, mut q) = (k as usize, q);
        loop {
            let a = at[k]
                .iter()
                .find(|a| a.state == q)
                .expect("every explored pair has an arrival");
            match a.step {
                Some(step) => {
                    trace.push(step);
                    (k, q) = (a.from_node as usize, a.from_state);
                }
                None => break,
            }
        }
        trace.reverse();
        trace
    });
    let verdict = if reachable[1] {
        TestVerdict::Fail
    } else if reachable[0] {
        TestVerdict::Pass
    } else {
        TestVerdict::Inconclusive
    };
    TestOutcome {
        name: test.name.clone(),
        verdict,
        reachable: [Verdict::Pass, Verdict::Fail, Verdict::Retry]
            .into_iter()
            .filter(|&v| reachable[slot(v)])
            .collect(),
        counterexample,
        failing_node,
        explored,
    }
}

/// Per-test outcomes of a suite run and the suite verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteReport {
    /// Outcomes in suite order.
    pub tests: Vec<TestOutcome>,
}

impl SuiteReport {
    /// `Fail` if any test fails, else `Inconclusive` if any test is inconclusive, else `Pass`.
    pub fn verdict(&self) -> TestVerdict {
        self.tests
            .iter()
            .map(|t| t.verdict)
            .max()
            .unwrap_or(TestVerdict::Pass)
    }

    /// Whether some test fails: the implementation does not conform.
    pub fn failed(&self) -> bool {
        self.verdict() == TestVerdict::Fail
    }

    /// Number of tests with the given verdict.
    pub fn count(&self, verdict: TestVerdict) -> usize {
        self.tests.iter().filter(|t| t.verdict == verdict).count()
    }

    /// The failing tests.
    pub fn failures(&self) -> impl Iterator<Item = &TestOutcome> {
        self.tests.iter().filter(|t| t.verdict == TestVerdict::Fail)
    }
}

/// Runs every test of a suite (in parallel; the report is in suite order).
///
/// ```
/// use ncomplete::exec::commands::load_suite;
/// use ncomplete::exec::{InputEnabling, TestVerdict, run_suite, system_for_suite};
/// use ncomplete::format::{LoadOptions, load_model};
///
/// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
/// let (header, tests) = load_suite(&format!("{dir}/mealy.suite.json"))?;
/// for (implementation, passes) in [("toggle.dot", true), ("toggle-faulty.dot", false)] {
///     let model = load_model(&format!("{dir}/{implementation}"), &LoadOptions::default())?;
///     let system = system_for_suite(&model, &header.model, InputEnabling::Reject)?;
///     let report = run_suite(&system, &tests);
///     assert_eq!(report.verdict() == TestVerdict::Pass, passes, "{implementation}");
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run_suite(sys: &SimulatedSystem, tests: &[TestCase]) -> SuiteReport {
    SuiteReport {
        tests: tests.par_iter().map(|t| run_test(sys, t)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{mealy_from_named, suspension_from_marked};

    fn model(inputs: &[&str], outputs: &[&str], quiescence: bool) -> SuiteModel {
        SuiteModel {
            name: "m".into(),
            inputs: inputs.iter().map(|s| s.to_string()).collect(),
            outputs: outputs.iter().map(|s| s.to_string()).collect(),
            quiescence: quiescence.then(|| "delta".into()),
        }
    }

    fn send(input: u32, then: Next, race: &[(u32, Next)]) -> TestNode {
        TestNode::Send {
            input: LabelId(input),
            then,
            race: race.iter().map(|&(o, n)| (LabelId(o), n)).collect(),
        }
    }

    fn expect(branches: &[(u32, Next)]) -> TestNode {
        TestNode::Expect {
            branches: branches.iter().map(|&(o, n)| (LabelId(o), n)).collect(),
        }
    }

    fn test(nodes: Vec<TestNode>) -> TestCase {
        TestCase {
            name: "t".into(),
            nodes,
        }
    }

    /// Spec-like system: ?a then !x or !y (nondeterministic choice realised as two outputs),
    /// then quiescent. Suite ids: input a=0; outputs x=0, y=1, delta=2.
    fn choice_system() -> SimulatedSystem {
        let sa = suspension_from_marked(
            "choice",
            3,
            &[
                (0, "?a", 1),
                (0, "delta", 0),
                (1, "!x", 2),
                (1, "!y", 2),
                (1, "?a", 1),
                (2, "?a", 2),
                (2, "delta", 2),
            ],
        )
        .unwrap();
        SimulatedSystem::from_suspension(&sa, &model(&["a"], &["x", "y"], true), Default::default())
            .unwrap()
    }

    const X: u32 = 0;
    const Y: u32 = 1;
    const D: u32 = 2;

    #[test]
    fn all_output_choices_are_explored() {
        let sys = choice_system();
        // send a; expect x -> pass, y -> retry.
        let t = test(vec![
            send(0, Next::Node(1), &[]),
            expect(&[(X, Next::PASS), (Y, Next::RETRY)]),
        ]);
        let out = run_test(&sys, &t);
        assert_eq!(out.verdict, TestVerdict::Pass);
        assert_eq!(out.reachable, vec![Verdict::Pass, Verdict::Retry]);
        // Forgetting y makes the test fail, with the witness ?a !y.
        let t = test(vec![
            send(0, Next::Node(1), &[]),
            expect(&[(X, Next::PASS)]),
        ]);
        let out = run_test(&sys, &t);
        assert_eq!(out.verdict, TestVerdict::Fail);
        assert_eq!(
            sys.trace_string(out.counterexample.as_deref().unwrap()),
            "?a !y"
        );
    }

    #[test]
    fn quiescence_is_observed_and_unlisted_quiescence_fails() {
        let sys = choice_system();
        let ok = test(vec![expect(&[(D, Next::PASS)])]);
        assert_eq!(run_test(&sys, &ok).verdict, TestVerdict::Pass);
        let bad = test(vec![expect(&[(X, Next::PASS)])]);
        let out = run_test(&sys, &bad);
        assert_eq!(out.verdict, TestVerdict::Fail);
        assert_eq!(
            sys.trace_string(out.counterexample.as_deref().unwrap()),
            "delta"
        );
    }

    #[test]
    fn outputs_race_with_inputs() {
        let sys = choice_system();
        // After ?a the system may output before the second ?a is applied.
        let t = test(vec![
            send(0, Next::Node(1), &[]),
            send(0, Next::Node(2), &[(X, Next::RETRY)]),
            expect(&[(X, Next::PASS), (Y, Next::PASS)]),
        ]);
        let out = run_test(&sys, &t);
        // The race with y is unlisted: fail.
        assert_eq!(out.verdict, TestVerdict::Fail);
        assert_eq!(
            sys.trace_string(out.counterexample.as_deref().unwrap()),
            "?a !y"
        );
        let t = test(vec![
            send(0, Next::Node(1), &[]),
            send(0, Next::Node(2), &[(X, Next::RETRY), (Y, Next::RETRY)]),
            expect(&[(X, Next::PASS), (Y, Next::PASS)]),
        ]);
        let out = run_test(&sys, &t);
        assert_eq!(out.verdict, TestVerdict::Pass);
        assert_eq!(out.reachable, vec![Verdict::Pass, Verdict::Retry]);
    }

    #[test]
    fn a_test_that_only_retries_is_inconclusive() {
        let sys = choice_system();
        let t = test(vec![
            send(0, Next::Node(1), &[]),
            expect(&[(X, Next::RETRY), (Y, Next::RETRY)]),
        ]);
        let out = run_test(&sys, &t);
        assert_eq!(out.verdict, TestVerdict::Inconclusive);
        let report = SuiteReport { tests: vec![out] };
        assert_eq!(report.verdict(), TestVerdict::Inconclusive);
        assert!(!report.failed());
    }

    #[test]
    fn unknown_outputs_fail() {
        let sa = suspension_from_marked(
            "z",
            2,
            &[(0, "?a", 1), (0, "delta", 0), (1, "!z", 0), (1, "?a", 1)],
        )
        .unwrap();
        let sys = SimulatedSystem::from_suspension(
            &sa,
            &model(&["a"], &["x"], true),
            InputEnabling::Reject,
        )
        .unwrap();
        let t = test(vec![
            send(0, Next::Node(1), &[]),
            expect(&[(0, Next::PASS), (1, Next::PASS)]),
        ]);
        let out = run_test(&sys, &t);
        assert_eq!(out.verdict, TestVerdict::Fail);
        assert_eq!(
            sys.trace_string(out.counterexample.as_deref().unwrap()),
            "?a !z"
        );
    }

    #[test]
    fn refused_inputs_are_rejected_or_ignored() {
        let sa =
            suspension_from_marked("r", 2, &[(0, "?a", 1), (0, "delta", 0), (1, "!x", 0)]).unwrap();
        let suite = model(&["a"], &["x"], true);
        let err = SimulatedSystem::from_suspension(&sa, &suite, InputEnabling::Reject).unwrap_err();
        assert!(
            err.to_string()
                .contains("state `1` does not accept input `a`")
        );
        let sys = SimulatedSystem::from_suspension(&sa, &suite, InputEnabling::SelfLoop).unwrap();
        // ?a ?a: the second a is ignored in state 1, or x races first.
        let t = test(vec![
            send(0, Next::Node(1), &[]),
            send(0, Next::Node(2), &[(0, Next::Node(2))]),
            expect(&[(0, Next::PASS), (1, Next::PASS)]),
        ]);
        let out = run_test(&sys, &t);
        assert_eq!(out.reachable, vec![Verdict::Pass]);
        assert_eq!(out.explored, 4);
    }

    #[test]
    fn mealy_machines_answer_each_input_and_are_never_quiescent_after_one() {
        let m = mealy_from_named("m", 2, &[(0, "a", "0", 1), (1, "a", "1", 0)]).unwrap();
        let suite = model(&["a"], &["0", "1"], false);
        let sys = SimulatedSystem::from_mealy(&m, &suite, InputEnabling::Reject).unwrap();
        let a = LabelId(0);
        let (o0, o1) = (LabelId(0), LabelId(1));
        let good = TestCase::chain("g", &[(a, o0), (a, o1), (a, o0)]);
        let out = run_test(&sys, &good);
        assert_eq!(out.verdict, TestVerdict::Pass);
        assert_eq!(out.reachable, vec![Verdict::Pass]);
        let bad = TestCase::chain("b", &[(a, o0), (a, o0)]);
        let out = run_test(&sys, &bad);
        assert_eq!(out.verdict, TestVerdict::Fail);
        assert_eq!(
            sys.trace_string(out.counterexample.as_deref().unwrap()),
            "?a !0 ?a !1"
        );
        // Expecting an output while the machine waits for input observes quiescence: fail.
        let waiting = test(vec![expect(&[(0, Next::PASS), (1, Next::PASS)])]);
        let out = run_test(&sys, &waiting);
        assert_eq!(out.verdict, TestVerdict::Fail);
        assert_eq!(
            sys.trace_string(out.counterexample.as_deref().unwrap()),
            "quiescence"
        );
    }

    #[test]
    fn partial_mealy_machines_are_rejected_or_ignore_inputs() {
        let m = mealy_from_named("m", 1, &[(0, "a", "0", 0)]).unwrap();
        let mut suite = model(&["a", "b"], &["0"], false);
        assert!(matches!(
            SimulatedSystem::from_mealy(&m, &suite, InputEnabling::Reject),
            Err(ExecError::NotInputEnabled { .. })
        ));
        suite.quiescence = Some("delta".into());
        let sys = SimulatedSystem::from_mealy(&m, &suite, InputEnabling::SelfLoop).unwrap();
        let t = test(vec![
            send(1, Next::Node(1), &[]),
            expect(&[(1, Next::PASS)]),
        ]);
        assert_eq!(run_test(&sys, &t).verdict, TestVerdict::Pass);
    }

    #[test]
    fn shared_nodes_are_explored_once_per_state() {
        // A diamond: both branches of node 1 lead to node 2; node 2 is explored in one state.
        let sys = choice_system();
        let t = test(vec![
            send(0, Next::Node(1), &[]),
            expect(&[(X, Next::Node(2)), (Y, Next::Node(2))]),
            expect(&[(D, Next::PASS)]),
        ]);
        let out = run_test(&sys, &t);
        assert_eq!(out.verdict, TestVerdict::Pass);
        assert_eq!(out.explored, 3);
    }

    #[test]
    fn suite_verdict_is_the_worst_test_verdict() {
        let sys = choice_system();
        let pass = test(vec![expect(&[(D, Next::PASS)])]);
        let fail = test(vec![expect(&[(X, Next::PASS)])]);
        let report = run_suite(&sys, &[pass.clone(), fail, pass]);
        assert_eq!(report.verdict(), TestVerdict::Fail);
        assert_eq!(report.count(TestVerdict::Pass), 2);
        assert_eq!(report.failures().count(), 1);
    }
    /// The definition, executed literally: every path from `(node, q)`, no memoisation.
    fn naive(sys: &SimulatedSystem, test: &TestCase, next: Next, q: u32, out: &mut Vec<Verdict>) {
        let k = match next {
            Next::Verdict(v) => {
                if !out.contains(&v) {
                    out.push(v);
                }
                return;
            }
            Next::Node(k) => k as usize,
        };
        let node = &test.nodes[k];
        if let TestNode::Send { input, then, .. } = node
            && let Some(t) = sys.after_input(q, *input)
        {
            naive(sys, test, *then, t, out);
        }
        for &(o, t) in sys.outputs(q) {
            if matches!(node, TestNode::Expect { .. }) || o != sys.quiescence() {
                naive(sys, test, node.on_output(o), t, out);
            }
        }
    }

    #[test]
    fn the_sweep_agrees_with_path_enumeration_on_random_cases() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rand = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let suite = model(&["a", "b"], &["x", "y"], true);
        for _ in 0..300 {
            let states = 1 + rand(4);
            let mut edges = Vec::new();
            for s in 0..states as u32 {
                for i in ["?a", "?b"] {
                    edges.push((s, i, rand(states) as u32));
                }
                match rand(3) {
                    0 => edges.push((s, "delta", s)),
                    1 => edges.push((s, "!x", rand(states) as u32)),
                    _ => {
                        edges.push((s, "!x", rand(states) as u32));
                        edges.push((s, "!y", rand(states) as u32));
                    }
                }
            }
            let sa = suspension_from_marked("r", states, &edges).unwrap();
            let sys = SimulatedSystem::from_suspension(&sa, &suite, InputEnabling::Reject).unwrap();
            let len = 1 + rand(6);
            let target = |k: usize, rand: &mut dyn FnMut(usize) -> usize| {
                let r = rand(len - k + 2);
                if r + k + 1 < len {
                    Next::Node((k + 1 + r) as u32)
                } else {
                    [Next::PASS, Next::FAIL, Next::RETRY][rand(3)]
                }
            };
            let mut nodes = Vec::new();
            for k in 0..len {
                let mut branches = Vec::new();
                let outputs = if rand(2) == 0 { 2 } else { 3 };
                for o in 0..outputs {
                    if rand(4) != 0 {
                        branches.push((LabelId(o), target(k, &mut rand)));
                    }
                }
                nodes.push(if outputs == 2 {
                    TestNode::Send {
                        input: LabelId(rand(2) as u32),
                        then: target(k, &mut rand),
                        race: branches,
                    }
                } else {
                    TestNode::Expect { branches }
                });
            }
            let t = test(nodes);
            t.validate(2, 3).unwrap();
            let out = run_test(&sys, &t);
            let mut expected = Vec::new();
            naive(&sys, &t, Next::Node(0), sys.initial(), &mut expected);
            expected.sort();
            assert_eq!(out.reachable, expected, "{t:?}");
            // The witness is an execution that really fails.
            if let Some(trace) = out.counterexample {
                let mut q = sys.initial();
                let mut next = Next::Node(0);
                for step in &trace {
                    let Next::Node(k) = next else {
                        panic!("witness too long")
                    };
                    let node = &t.nodes[k as usize];
                    (next, q) = match (*step, node) {
                        (Step::Input(i), TestNode::Send { input, then, .. }) => {
                            assert_eq!(i, *input);
                            (*then, sys.after_input(q, i).unwrap())
                        }
                        (Step::Output(o), _) => {
                            let t = sys.outputs(q).iter().find(|p| p.0 == o).unwrap().1;
                            (node.on_output(o), t)
                        }
                        _ => panic!("input step at an expect node"),
                    };
                }
                assert_eq!(next, Next::FAIL);
            }
        }
    }
}
