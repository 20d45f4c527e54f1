//! The requirements each test of a suite touches (issue 45), for a model with requirement tags
//! ([`RequirementTags`]).
//!
//! A test touches a tagged state or transition when some execution of it may pass there in the
//! specification: its tree is walked from the root with, per node, the set of model states the
//! specification may be in (closed under internal steps, as van den Bos's `after` sets are);
//! sending an input or observing an output on which the test goes on or passes (not one that
//! fails it or leaves it at retry) takes every transition with that label from the set, observing quiescence keeps the quiescent states (or follows explicit
//! quiescence transitions), and every state of every set and every transition taken is touched.
//! A Mealy machine (deterministic or not) is walked as `q --i--> q/i --o--> q'`, its transition
//! `q --i/o--> q'` taken with the output.
//!
//! The suite file names them in its header, only when the model has tags (so suites of
//! untagged models are unchanged): `"requirements": {"PAY-1": ["t0001", "t0003"], "SERVE":
//! []}`, every requirement of the model in name order with the tests touching it, in suite
//! order (none: the suite does not cover it).

use super::{Next, SuiteModel, TestCase, TestNode, Verdict};
use crate::model::{Model, RequirementTags, TaggedStep, TaggedTransition};
use std::collections::{BTreeSet, HashMap};

/// The header field naming the requirements.
pub const FIELD: &str = "requirements";

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    Input,
    Output,
    Internal,
    Quiescence,
}

#[derive(Clone, Debug)]
struct Edge {
    kind: Kind,
    name: String,
    to: usize,
    tags: Vec<u32>,
}

/// A model as a graph of the steps tests name, with requirement numbers on states and edges.
#[derive(Clone, Debug)]
pub struct TagGraph {
    edges: Vec<Vec<Edge>>,
    state_tags: Vec<Vec<u32>>,
    initial: usize,
    names: Vec<String>,
}

impl TagGraph {
    /// The graph of `model` with its `tags` (checked against it when read).
    pub fn new(model: &Model, tags: &RequirementTags) -> TagGraph {
        let names = tags.names();
        let number: HashMap<&str, u32> = (names.iter().enumerate())
            .map(|(k, n)| (n.as_str(), k as u32))
            .collect();
        let numbers = |set: Option<&BTreeSet<String>>| -> Vec<u32> {
            set.map_or_else(Vec::new, |s| s.iter().map(|n| number[n.as_str()]).collect())
        };
        let transition_tags = |from: &str, step: TaggedStep, to: &str| {
            numbers(tags.transitions.get(&TaggedTransition {
                from: from.to_owned(),
                step,
                to: to.to_owned(),
            }))
        };
        let mut graph = TagGraph {
            edges: Vec::new(),
            state_tags: Vec::new(),
            initial: 0,
            names: names.clone(),
        };
        let named = crate::model::named_quads(model);
        if let (Model::Lts(l), None) = (model, &named) {
            let states = l.state_names();
            graph.edges = vec![Vec::new(); states.len()];
            graph.state_tags = states.iter().map(|s| numbers(tags.states.get(s))).collect();
            graph.initial = l.initial().index();
            let a = &l.alphabet;
            for (s, lab, t) in l.triples() {
                let kind = if a.quiescence() == Some(lab) {
                    Kind::Quiescence
                } else if a.is_input(lab) {
                    Kind::Input
                } else if a.is_output(lab) {
                    Kind::Output
                } else {
                    Kind::Internal
                };
                let name = a.name(lab).to_owned();
                let (from, to) = (&states[s.index()], &states[t.index()]);
                let tags = transition_tags(from, TaggedStep::Label(name.clone()), to);
                graph.edges[s.index()].push(Edge {
                    kind,
                    name,
                    to: t.index(),
                    tags,
                });
            }
            return graph;
        }
        let Some((state_names, quads)) = named else {
            return graph;
        };
        graph.initial = match model {
            Model::Lts(l) => l.onfsm().map_or(0, |o| o.initial().index()),
            Model::Mealy(m) => m.initial().index(),
        };
        // `q --i--> q/i --o--> q'`, one `q/i` per state and input with transitions.
        graph.edges = vec![Vec::new(); state_names.len()];
        graph.state_tags = (state_names.iter())
            .map(|s| numbers(tags.states.get(s)))
            .collect();
        let mut middle: HashMap<(usize, String), usize> = HashMap::new();
        for (s, i, x, d) in quads {
            let next = graph.edges.len();
            let mid = *middle.entry((s, i.clone())).or_insert(next);
            if mid == next {
                graph.edges.push(Vec::new());
                graph.state_tags.push(Vec::new());
                graph.edges[s].push(Edge {
                    kind: Kind::Input,
                    name: i.clone(),
                    to: mid,
                    tags: Vec::new(),
                });
            }
            let tags = transition_tags(
                &state_names[s],
                TaggedStep::Mealy(i, x.clone()),
                &state_names[d],
            );
            graph.edges[mid].push(Edge {
                kind: Kind::Output,
                name: x,
                to: d,
                tags,
            });
        }
        graph
    }

    /// The requirement names, in name order (a requirement's number indexes this list).
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The numbers of the requirements `test` touches (of a suite whose labels `model` names),
    /// in order.
    pub fn touched(&self, model: &SuiteModel, test: &TestCase) -> BTreeSet<u32> {
        let mut touched = BTreeSet::new();
        let mut sets: Vec<Vec<usize>> = vec![Vec::new(); test.nodes.len()];
        if let Some(root) = sets.first_mut() {
            *root = self.closed(vec![self.initial], &mut touched);
        }
        let quiescence = model.quiescence_id();
        for k in 0..test.nodes.len() {
            let here = std::mem::take(&mut sets[k]);
            if here.is_empty() {
                continue;
            }
            let mut follow = |kind: Kind, name: &str, next: Next, touched: &mut BTreeSet<u32>| {
                if let Next::Verdict(Verdict::Fail | Verdict::Retry) = next {
                    return;
                }
                let after = self.after(&here, kind, name, touched);
                if let Next::Node(j) = next
                    && let Some(set) = sets.get_mut(j as usize)
                {
                    set.extend(after);
                    set.sort_unstable();
                    set.dedup();
                }
            };
            let (send, branches) = match &test.nodes[k] {
                TestNode::Send { input, then, race } => (Some((*input, *then)), race),
                TestNode::Expect { branches } => (None, branches),
            };
            if let Some((input, then)) = send {
                follow(Kind::Input, model.input_name(input), then, &mut touched);
            }
            for &(o, next) in branches {
                if Some(o) == quiescence {
                    follow(Kind::Quiescence, "", next, &mut touched);
                } else {
                    follow(Kind::Output, model.output_name(o), next, &mut touched);
                }
            }
        }
        touched
    }

    /// The states after a step from `states`, closed under internal steps, touching what it
    /// takes.
    fn after(
        &self,
        states: &[usize],
        kind: Kind,
        name: &str,
        touched: &mut BTreeSet<u32>,
    ) -> Vec<usize> {
        let mut next = Vec::new();
        for &s in states {
            let edges = &self.edges[s];
            if kind == Kind::Quiescence && !edges.iter().any(|e| e.kind == Kind::Quiescence) {
                if edges
                    .iter()
                    .all(|e| matches!(e.kind, Kind::Input | Kind::Quiescence))
                {
                    next.push(s);
                }
                continue;
            }
            for e in edges {
                if e.kind == kind && (kind == Kind::Quiescence || e.name == name) {
                    touched.extend(&e.tags);
                    next.push(e.to);
                }
            }
        }
        self.closed(next, touched)
    }

    /// `states` closed under internal steps, touching their tags and those of the internal
    /// steps.
    fn closed(&self, mut states: Vec<usize>, touched: &mut BTreeSet<u32>) -> Vec<usize> {
        states.sort_unstable();
        states.dedup();
        let mut seen: BTreeSet<usize> = states.iter().copied().collect();
        let mut work = states;
        let mut k = 0;
        while k < work.len() {
            let s = work[k];
            k += 1;
            touched.extend(&self.state_tags[s]);
            for e in &self.edges[s] {
                if e.kind == Kind::Internal {
                    touched.extend(&e.tags);
                    if seen.insert(e.to) {
                        work.push(e.to);
                    }
                }
            }
        }
        seen.into_iter().collect()
    }
}

/// The tests touching each requirement, gathered test by test.
#[derive(Clone, Debug)]
pub struct RequirementIndex {
    graph: TagGraph,
    tests: Vec<Vec<String>>,
}

impl RequirementIndex {
    /// An empty index over the requirements of `graph`.
    pub fn new(graph: TagGraph) -> Self {
        let tests = vec![Vec::new(); graph.names().len()];
        RequirementIndex { graph, tests }
    }

    /// Adds `test` (of a suite whose labels `model` names).
    pub fn add(&mut self, model: &SuiteModel, test: &TestCase) {
        for r in self.graph.touched(model, test) {
            self.tests[r as usize].push(test.name.clone());
        }
    }

    /// The header field's value: each requirement with its tests.
    pub fn to_json(&self) -> serde_json::Value {
        let map: serde_json::Map<String, serde_json::Value> = (self.graph.names().iter())
            .zip(&self.tests)
            .map(|(name, tests)| (name.clone(), serde_json::json!(tests)))
            .collect();
        serde_json::Value::Object(map)
    }
}

/// The requirements a suite header names, each with its tests (empty when it names none).
pub fn of_header(header: &super::SuiteHeader) -> Vec<(String, Vec<String>)> {
    let Some(map) = header.extra.get(FIELD).and_then(|v| v.as_object()) else {
        return Vec::new();
    };
    (map.iter())
        .map(|(name, tests)| {
            let tests = (tests.as_array().into_iter().flatten())
                .filter_map(|t| t.as_str().map(str::to_owned))
                .collect();
            (name.clone(), tests)
        })
        .collect()
}

/// The requirements of each test the header names, in name order (tests touching none are
/// absent).
pub fn by_test(header: &super::SuiteHeader) -> HashMap<String, Vec<String>> {
    let mut out: HashMap<String, Vec<String>> = HashMap::new();
    for (name, tests) in of_header(header) {
        for t in tests {
            out.entry(t).or_default().push(name.clone());
        }
    }
    out
}

/// Whether the suite file at `path` names requirements in its header as `generate` writes it
/// (a line ` "requirements": ` before the line of `tests`): read before a streamed run, which
/// learns the header only at the end.
pub fn file_names_requirements(path: &str) -> bool {
    use std::io::BufRead;
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let prefix = format!(" \"{FIELD}\": ");
    (std::io::BufReader::new(file).lines())
        .map_while(Result::ok)
        .take(64)
        .take_while(|l| !l.starts_with(" \"tests\": ["))
        .any(|l| l.starts_with(&prefix))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{LoadOptions, load_model_with_warnings};

    fn names(index: &RequirementIndex) -> String {
        index.to_json().to_string()
    }

    #[test]
    fn tests_touch_the_tagged_transitions_and_states_they_may_pass() {
        let dir = crate::scratch::Scratch::new("requirements-walk");
        let model = dir.join("v.dot");
        std::fs::write(
            &model,
            "digraph v { __start0 -> idle;\n idle -> paid [label=\"?coin\", requirements=\"PAY\"];\n paid [requirements=\"SERVE\"];\n paid -> done [label=\"!tea\", requirements=\"TEA\"];\n paid -> done [label=\"!coffee\", requirements=\"COFFEE\"];\n done -> idle [label=\"tau\"];\n idle -> idle [label=\"?kick\", requirements=\"KICK\"]; }\n",
        )
        .unwrap();
        let loaded =
            load_model_with_warnings(model.to_str().unwrap(), &LoadOptions::default()).unwrap();
        let graph = TagGraph::new(&loaded.model, &loaded.requirements);
        assert_eq!(graph.names(), ["COFFEE", "KICK", "PAY", "SERVE", "TEA"]);
        let suite = SuiteModel {
            name: "v".into(),
            inputs: vec!["coin".into(), "kick".into()],
            outputs: vec!["coffee".into(), "tea".into()],
            quiescence: Some("delta".into()),
        };
        let (coin, coffee, tea, delta) = (
            crate::model::LabelId(0),
            crate::model::LabelId(0),
            crate::model::LabelId(1),
            crate::model::LabelId(2),
        );
        // ?coin then !tea passes, !coffee retries, quiescence fails.
        let t1 = TestCase {
            name: "t1".into(),
            nodes: vec![
                TestNode::Send {
                    input: coin,
                    then: Next::Node(1),
                    race: vec![],
                },
                TestNode::Expect {
                    branches: vec![
                        (coffee, Next::Verdict(Verdict::Retry)),
                        (tea, Next::Verdict(Verdict::Pass)),
                        (delta, Next::Verdict(Verdict::Fail)),
                    ],
                },
            ],
        };
        // Quiescence in the initial state only.
        let t2 = TestCase {
            name: "t2".into(),
            nodes: vec![TestNode::Expect {
                branches: vec![
                    (coffee, Next::Verdict(Verdict::Fail)),
                    (tea, Next::Verdict(Verdict::Fail)),
                    (delta, Next::Verdict(Verdict::Pass)),
                ],
            }],
        };
        let mut index = RequirementIndex::new(graph);
        index.add(&suite, &t1);
        index.add(&suite, &t2);
        assert_eq!(
            names(&index),
            r#"{"COFFEE":[],"KICK":[],"PAY":["t1"],"SERVE":["t1"],"TEA":["t1"]}"#
        );
    }
}
