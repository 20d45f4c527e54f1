//! Per-state and per-input timeouts at run time (issue 27): how the annotations of a model
//! ([`crate::format::timeouts`]) set the waits of `run --sut`, `explore --sut` and the rendered
//! programs.
//!
//! Semantics (documented in the guide, `docs/src/running.md`):
//! - **Quiescence.** Where a test allows quiescence, the tester waits the *largest* quiescence
//!   timeout among the specification states it may be in at that point, and never less than the
//!   run's default (`--quiescence-ms`): wait = max(default, annotations of those states). The
//!   states the tester may be in are those of the LTS after the trace that leads there (the
//!   members of the suspension automaton state, TorX Def. 2.2.12: τ-closed, quiescence keeping
//!   the states without outputs or internal steps); at a test node reached by several traces,
//!   the union over them. A Mealy machine's tester is in one state, its current one.
//! - **Response.** Where a test requires an output, the tester waits the response timeout of
//!   the last input it sent when that input is annotated, and never less than the default
//!   (`--response-ms`). The input, not the expected output: the wait starts before the output is
//!   known, several outputs may be allowed, and "this command takes long" is what users know.
//! - The start-up allowance is added as before until the first output.
//!
//! Annotations only lengthen waits: waiting longer for quiescence never fails a conforming
//! system, waiting shorter can (an output that comes late is then seen after quiescence).
//! They are not scaled; the flags raise every wait below them, so a fast run uses small
//! defaults and annotates the slow states. A trace the specification does not have (the test
//! is failing) falls back to the defaults.

use crate::format::timeouts::TimeoutAnnotations;
use crate::model::{LabelKind, Model, SuspensionAutomaton};
use crate::suite::{Next, SuiteModel, TestCase, TestNode};
use std::collections::HashMap;

/// One step a tester observes, by label name.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Step<'a> {
    Input(&'a str),
    Output(&'a str),
    Quiescence,
}

/// The annotated specification as a nondeterministic automaton over label names, tracked as
/// sets of its states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelTimeouts {
    /// Per state: its visible transitions (input?, label index, target).
    edges: Vec<Vec<(bool, u32, u32)>>,
    /// Per state: its internal successors.
    internal: Vec<Vec<u32>>,
    /// Per state: whether it may be quiescent (no output, no internal step).
    quiet: Vec<bool>,
    /// Per state: its quiescence timeout.
    quiescence_ms: Vec<Option<u64>>,
    initial: u32,
    /// Label indices by (input?, name).
    labels: HashMap<(bool, String), u32>,
    /// Response timeouts by input name.
    response_ms: HashMap<String, u64>,
}

impl ModelTimeouts {
    /// The timeouts of `model` annotated by `annotations`, or `None` when it has none.
    pub fn new(model: &Model, annotations: &TimeoutAnnotations) -> Option<Self> {
        if annotations.is_empty() {
            return None;
        }
        let mut labels: HashMap<(bool, String), u32> = HashMap::new();
        let mut label = |input: bool, name: &str| {
            let next = labels.len() as u32;
            *labels.entry((input, name.to_owned())).or_insert(next)
        };
        let (names, edges, internal, initial): (Vec<String>, _, _, _) = match model {
            Model::Lts(l) => {
                let n = l.num_states();
                let mut edges = vec![Vec::new(); n];
                let mut internal = vec![Vec::new(); n];
                for (s, a, t) in l.triples() {
                    match l.alphabet.kind(a) {
                        LabelKind::Internal => internal[s.index()].push(t.0),
                        _ if Some(a) == l.alphabet.quiescence() => {}
                        kind => {
                            let input = kind == LabelKind::Input;
                            let k = label(input, l.alphabet.name(a));
                            edges[s.index()].push((input, k, t.0));
                        }
                    }
                }
                (l.state_names().to_vec(), edges, internal, l.initial().0)
            }
            Model::Mealy(m) => {
                // q --i--> (q, i) --o--> q': the states after an input have no annotation.
                let n = m.num_states();
                let mut names = m.state_names().to_vec();
                let mut edges = vec![Vec::new(); n];
                for (q, i, o, t) in m.quads() {
                    let mid = edges.len() as u32;
                    names.push(String::new());
                    let (ki, ko) = (
                        label(true, m.inputs.name(i)),
                        label(false, m.outputs.name(o)),
                    );
                    edges[q.index()].push((true, ki, mid));
                    edges.push(vec![(false, ko, t.0)]);
                }
                let internal = vec![Vec::new(); edges.len()];
                (names, edges, internal, m.initial().0)
            }
        };
        let quiet = edges
            .iter()
            .zip(&internal)
            .map(|(e, i): (&Vec<(bool, u32, u32)>, &Vec<u32>)| {
                i.is_empty() && e.iter().all(|&(input, _, _)| input)
            })
            .collect();
        let quiescence_ms = names
            .iter()
            .map(|n| annotations.quiescence_ms.get(n).copied())
            .collect();
        Some(ModelTimeouts {
            edges,
            internal,
            quiet,
            quiescence_ms,
            initial,
            labels,
            response_ms: annotations
                .response_ms
                .iter()
                .map(|(k, &v)| (k.clone(), v))
                .collect(),
        })
    }

    /// The response timeout of `input`, if annotated.
    pub fn response_ms(&self, input: &str) -> Option<u64> {
        self.response_ms.get(input).copied()
    }

    /// `states` (sorted, deduplicated) closed under internal steps.
    fn closure(&self, mut states: Vec<u32>) -> Vec<u32> {
        let mut k = 0;
        while k < states.len() {
            for &t in &self.internal[states[k] as usize] {
                if !states.contains(&t) {
                    states.push(t);
                }
            }
            k += 1;
        }
        states.sort_unstable();
        states.dedup();
        states
    }

    fn start(&self) -> Vec<u32> {
        self.closure(vec![self.initial])
    }

    /// The states after `step` from `states`; empty when the specification has no such step.
    fn after(&self, states: &[u32], step: Step<'_>) -> Vec<u32> {
        let (input, name) = match step {
            Step::Quiescence => {
                let quiet: Vec<u32> = states
                    .iter()
                    .copied()
                    .filter(|&s| self.quiet[s as usize])
                    .collect();
                // Divergence (no stable state): keep them all, a superset.
                return if quiet.is_empty() {
                    states.to_vec()
                } else {
                    quiet
                };
            }
            Step::Input(n) => (true, n),
            Step::Output(n) => (false, n),
        };
        let Some(&k) = self.labels.get(&(input, name.to_owned())) else {
            return Vec::new();
        };
        let next: Vec<u32> = states
            .iter()
            .flat_map(|&s| self.edges[s as usize].iter())
            .filter(|&&(i, l, _)| i == input && l == k)
            .map(|&(_, _, t)| t)
            .collect();
        self.closure(next)
    }

    /// The largest quiescence timeout of `states`, if any of them is annotated.
    fn largest(&self, states: &[u32]) -> Option<u64> {
        states
            .iter()
            .filter_map(|&s| self.quiescence_ms[s as usize])
            .max()
    }

    /// Per node of `test` (labels named by `model`): the largest quiescence timeout of the
    /// specification states the tester may be in there, if any is annotated.
    pub fn node_quiescence_ms(&self, model: &SuiteModel, test: &TestCase) -> Vec<Option<u64>> {
        let mut sets: Vec<Vec<u32>> = vec![Vec::new(); test.nodes.len()];
        if let Some(root) = sets.first_mut() {
            *root = self.start();
        }
        let output = |o: crate::model::LabelId| match model.outputs.get(o.index()) {
            Some(name) => Step::Output(name),
            None => Step::Quiescence,
        };
        let mut waits = Vec::with_capacity(test.nodes.len());
        for (n, node) in test.nodes.iter().enumerate() {
            let here = std::mem::take(&mut sets[n]);
            waits.push(self.largest(&here));
            if here.is_empty() {
                continue;
            }
            let mut moves: Vec<(Step<'_>, Next)> = Vec::new();
            match node {
                TestNode::Send { input, then, race } => {
                    moves.push((Step::Input(model.input_name(*input)), *then));
                    moves.extend(race.iter().map(|&(o, next)| (output(o), next)));
                }
                TestNode::Expect { branches } => {
                    moves.extend(branches.iter().map(|&(o, next)| (output(o), next)));
                }
            }
            for (step, next) in moves {
                let Next::Node(k) = next else { continue };
                let after = self.after(&here, step);
                let set = &mut sets[k as usize];
                set.extend(after);
                set.sort_unstable();
                set.dedup();
            }
        }
        waits
    }

    /// Per state of the suspension automaton `sa` (over the annotated model's labels, as
    /// `explore` tracks it): the largest quiescence timeout of the model states it stands for,
    /// by a search over pairs of a state of `sa` and a set of model states.
    pub fn sa_quiescence_ms(&self, sa: &SuspensionAutomaton) -> Vec<Option<u64>> {
        let mut waits: Vec<Option<u64>> = vec![None; sa.num_states()];
        let mut seen: std::collections::HashSet<(u32, Vec<u32>)> = Default::default();
        let mut queue = std::collections::VecDeque::new();
        let start = (sa.initial().0, self.start());
        seen.insert(start.clone());
        queue.push_back(start);
        while let Some((q, states)) = queue.pop_front() {
            let w = &mut waits[q as usize];
            *w = (*w).max(self.largest(&states));
            for &(l, t) in sa.enabled(crate::model::StateId(q)) {
                let name = sa.alphabet.name(l);
                let step = if l == sa.quiescence() {
                    Step::Quiescence
                } else if sa.alphabet.is_input(l) {
                    Step::Input(name)
                } else {
                    Step::Output(name)
                };
                let next = (t.0, self.after(&states, step));
                if !next.1.is_empty() && seen.insert(next.clone()) {
                    queue.push_back(next);
                }
            }
        }
        waits
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::format::{LoadOptions, parse_model_with_warnings};
    use crate::suite::Verdict;

    const SLOW: &str = "kind: lts
inputs: [coin]
outputs: [coffee]
internal: [tau]
initial: idle
transitions:
  - {from: idle, label: coin, to: brewing}
  - {from: brewing, label: coffee, to: idle}
  - {from: brewing, label: tau, to: empty}
timeouts:
  quiescence_ms: {brewing: 900}
  response_ms: {coin: 3000}
";

    /// A coffee machine whose state after `coin` is annotated with 900 ms of quiescence and
    /// `coin` with 3000 ms of response (also used by the runners' tests).
    pub(crate) fn slow() -> (Model, ModelTimeouts) {
        let loaded = parse_model_with_warnings(SLOW, "slow.yaml", &LoadOptions::default()).unwrap();
        let t = ModelTimeouts::new(&loaded.model, &loaded.timeouts).unwrap();
        (loaded.model, t)
    }

    #[test]
    fn waits_follow_the_states_a_test_may_be_in() {
        let (_, t) = slow();
        let model = SuiteModel {
            name: "slow".into(),
            inputs: vec!["coin".into()],
            outputs: vec!["coffee".into()],
            quiescence: Some("delta".into()),
        };
        let (coffee, delta) = (crate::model::LabelId(0), crate::model::LabelId(1));
        // ?coin, then coffee or quiescence (out of beans), then quiescence.
        let test = TestCase {
            name: "t".into(),
            nodes: vec![
                TestNode::Send {
                    input: crate::model::LabelId(0),
                    then: Next::Node(1),
                    race: vec![],
                },
                TestNode::Expect {
                    branches: vec![(coffee, Next::Node(2)), (delta, Next::Node(2))],
                },
                TestNode::Expect {
                    branches: vec![(delta, Next::Verdict(Verdict::Pass))],
                },
            ],
        };
        // After ?coin the tester may be in `brewing` (900) or `empty`; after coffee or
        // quiescence in `idle` or `empty`, neither annotated.
        assert_eq!(t.node_quiescence_ms(&model, &test), [None, Some(900), None]);
        assert_eq!(t.response_ms("coin"), Some(3000));
        assert_eq!(t.response_ms("coffee"), None);
    }

    #[test]
    fn suspension_states_get_the_largest_timeout_of_their_members() {
        let (model, t) = slow();
        let Model::Lts(lts) = &model else { panic!() };
        let sa = crate::model::lts_to_suspension(lts, &crate::model::SuspensionOptions::default())
            .unwrap();
        let waits = t.sa_quiescence_ms(&sa);
        let after_coin = sa
            .after(sa.initial(), sa.alphabet.get("coin").unwrap())
            .unwrap();
        assert_eq!(waits[after_coin.index()], Some(900));
        assert_eq!(waits[sa.initial().index()], None);
    }

    #[test]
    fn models_without_annotations_have_no_timeouts() {
        let (model, _) = slow();
        assert!(ModelTimeouts::new(&model, &TimeoutAnnotations::default()).is_none());
    }
}
