//! The `distinguish` suite: distinguishing experiments (the adaptive distinguishing graph and its
//! top-ups of [`crate::identify`]) as suite JSON v1 test cases, and the suite file of the
//! `distinguish` command.
//!
//! [`Experiment::to_test_case`] turns an experiment into a test case (van den Bos Def. 3.12 with
//! race handling as in Sec. 2.7): pass at leaves, fail on an output no state of the current set
//! allows, retry when an allowed output wins the race against an input. Soundness: if an input is
//! applied in a state that does not specify it, anything may follow (demonic completion), so from
//! then on nothing fails in that branch.
//!
//! [`write_suite`] writes a suite that is sound from the initial state: each test walks an access
//! sequence to a state (shortest, in canonical label order; `retry` when the system takes another
//! output the specification allows) and then runs the ADG or a top-up from that one state, so
//! `fail` means an output the specification forbids after the observed trace.

pub use super::case::suite_model;
use super::ioco::access::shortest_state_cover;
use super::{Next, SuiteHeader, SuiteModel, SuiteWriter, TestCase, TestNode};
use crate::identify::experiment::{Experiment, Race, Step};
use crate::identify::{Distinguished, sets::after};
use crate::model::{LabelId, StateId, SuspensionAutomaton};
use serde_json::json;
use std::collections::HashMap;
use std::io::{self, Write};

impl Experiment {
    /// The test case of this experiment for a system that should be in one of the states `start`
    /// (suite JSON v1 semantics; see the module documentation). Labels are mapped to `model` by
    /// name; `model` must name every label of `sa` (as [`suite_model`] does). The name is left
    /// empty for the caller.
    pub fn to_test_case(
        &self,
        sa: &SuspensionAutomaton,
        start: &[StateId],
        model: &SuiteModel,
    ) -> TestCase {
        let map = SuiteLabels::new(sa, model);
        TestCase {
            name: String::new(),
            nodes: self.test_nodes(sa, start, &map, 0),
        }
    }

    /// The nodes of [`Experiment::to_test_case`] from `start`, numbered from `first` on.
    fn test_nodes(
        &self,
        sa: &SuspensionAutomaton,
        start: &[StateId],
        map: &SuiteLabels,
        first: u32,
    ) -> Vec<TestNode> {
        let mut start = start.to_vec();
        start.sort_unstable();
        start.dedup();
        let mut builder = CaseBuilder {
            exp: self,
            sa,
            map,
            memo: HashMap::new(),
            post: Vec::new(),
        };
        let root = builder.build(0, start.clone(), false);
        let mut post = builder.post;
        if let Next::Verdict(_) = root {
            // A trivial experiment still checks the next output against the start states.
            post.push(TestNode::Expect {
                branches: map.allowed_outputs(sa, &start, false, |_| Next::PASS),
            });
        }
        // Post-order reversed: the root first, every reference to a later node.
        let last = first + post.len() as u32 - 1;
        let renumber = |n: Next| match n {
            Next::Node(i) => Next::Node(last - i),
            v => v,
        };
        post.into_iter()
            .rev()
            .map(|node| node.renumbered(renumber))
            .collect()
    }
}

impl Experiment {
    /// The test case that first walks `access` from the initial state of `sa` and then runs this
    /// experiment from the state reached, which is then the only start state (suite JSON v1
    /// semantics). On the way, an input is raced by the outputs the current state allows (retry:
    /// the system went elsewhere, which the specification allows), and an awaited output by the
    /// other allowed outputs (retry); an output the current state forbids fails. So the test
    /// fails only on what the specification forbids after the trace observed. Labels are mapped
    /// by `map` (built once per suite). `None` if `sa` does not enable `access` from its initial
    /// state.
    pub fn to_test_case_after(
        &self,
        sa: &SuspensionAutomaton,
        access: &[LabelId],
        map: &SuiteLabels,
    ) -> Option<TestCase> {
        let quiescence = map.quiescence;
        let mut nodes = Vec::with_capacity(access.len());
        let mut s = sa.initial();
        for (k, &l) in access.iter().enumerate() {
            let next = Next::Node(k as u32 + 1);
            let node = if sa.alphabet.is_input(l) {
                let mut race = map.allowed_outputs(sa, &[s], false, |_| Next::RETRY);
                race.retain(|&(o, _)| Some(o) != quiescence);
                TestNode::Send {
                    input: LabelId(map.to_suite[l.index()]),
                    then: next,
                    race,
                }
            } else {
                TestNode::Expect {
                    branches: map.allowed_outputs(sa, &[s], false, |x| {
                        if x == l { next } else { Next::RETRY }
                    }),
                }
            };
            nodes.push(node);
            s = sa.after(s, l)?;
        }
        let shift = nodes.len() as u32;
        nodes.extend(self.test_nodes(sa, &[s], map, shift));
        Some(TestCase {
            name: String::new(),
            nodes,
        })
    }
}

/// Automaton labels to the label ids of a suite model, built once per suite and shared by its
/// tests ([`Experiment::to_test_case_after`]).
pub struct SuiteLabels {
    /// Suite id per automaton label (`u32::MAX` for internal labels).
    to_suite: Vec<u32>,
    /// Automaton output label per suite output id.
    outputs: Vec<LabelId>,
    /// The suite id of quiescence, if the model has it.
    quiescence: Option<LabelId>,
}

impl SuiteLabels {
    /// The map from the labels of `sa` to those of `model`, which must name every label of `sa`
    /// (as [`suite_model`] does).
    pub fn new(sa: &SuspensionAutomaton, model: &SuiteModel) -> SuiteLabels {
        let mut to_suite = vec![u32::MAX; sa.alphabet.len()];
        let mut outputs = vec![LabelId(u32::MAX); model.num_output_ids()];
        for l in sa.alphabet.ids() {
            let name = sa.alphabet.name(l);
            let id = if sa.alphabet.is_input(l) {
                model.inputs.iter().position(|n| n == name)
            } else if l == sa.quiescence() && model.quiescence.as_deref() == Some(name) {
                Some(model.outputs.len())
            } else {
                model.outputs.iter().position(|n| n == name)
            };
            let id = id.unwrap_or_else(|| {
                panic!(
                    "suite model `{}` lacks label `{name}` of the automaton",
                    model.name
                )
            });
            to_suite[l.index()] = id as u32;
            if sa.alphabet.is_output(l) {
                outputs[id] = l;
            }
        }
        SuiteLabels {
            to_suite,
            outputs,
            quiescence: model.quiescence_id(),
        }
    }

    /// Branches in suite order for the outputs allowed by `set` (all outputs if `unconstrained`).
    fn allowed_outputs(
        &self,
        sa: &SuspensionAutomaton,
        set: &[StateId],
        unconstrained: bool,
        mut next: impl FnMut(LabelId) -> Next,
    ) -> Vec<(LabelId, Next)> {
        let mut out = Vec::new();
        for (o, &l) in self.outputs.iter().enumerate() {
            if l.0 == u32::MAX {
                continue;
            }
            if unconstrained || set.iter().any(|&s| sa.after(s, l).is_some()) {
                out.push((LabelId(o as u32), next(l)));
            }
        }
        out
    }
}

struct CaseBuilder<'a> {
    exp: &'a Experiment,
    sa: &'a SuspensionAutomaton,
    map: &'a SuiteLabels,
    memo: HashMap<(u32, Vec<StateId>, bool), Next>,
    /// Test nodes in post-order (children before parents).
    post: Vec<TestNode>,
}

impl CaseBuilder<'_> {
    fn build(&mut self, k: u32, set: Vec<StateId>, unconstrained: bool) -> Next {
        if set.is_empty() {
            // Only reachable when unconstrained: anything goes.
            return Next::PASS;
        }
        let key = (k, set, unconstrained);
        if let Some(&n) = self.memo.get(&key) {
            return n;
        }
        let (k, set, unconstrained) = key;
        let sa = self.sa;
        let node = match &self.exp.nodes()[k as usize].step {
            Step::Leaf => {
                self.memo.insert((k, set, unconstrained), Next::PASS);
                return Next::PASS;
            }
            Step::Outputs { branches } => {
                let branches = branches.clone();
                let mut list = Vec::new();
                for (o, &l) in self.map.outputs.iter().enumerate() {
                    if l.0 == u32::MAX {
                        continue;
                    }
                    let next_set = after(sa, &set, l);
                    if next_set.is_empty() && !unconstrained {
                        continue;
                    }
                    let next = match branches.binary_search_by_key(&l, |&(x, _)| x) {
                        Ok(j) => self.build(branches[j].1, next_set, unconstrained),
                        Err(_) => Next::PASS,
                    };
                    list.push((LabelId(o as u32), next));
                }
                TestNode::Expect { branches: list }
            }
            Step::Input { input, then, race } => {
                let (input, then, race) = (*input, *then, race.clone());
                let escapes = set.iter().any(|&s| sa.after(s, input).is_none());
                let next_set = after(sa, &set, input);
                let then = self.build(then, next_set, unconstrained || escapes);
                let mut list = Vec::new();
                for (o, &l) in self.map.outputs.iter().enumerate() {
                    // Quiescence never races an input.
                    if l.0 == u32::MAX || l == sa.quiescence() {
                        continue;
                    }
                    let next_set = after(sa, &set, l);
                    if next_set.is_empty() && !unconstrained {
                        continue;
                    }
                    let next = match race.binary_search_by_key(&l, |&(x, _)| x) {
                        Ok(j) => match race[j].1 {
                            Race::Node(t) => self.build(t, next_set, unconstrained),
                            Race::Retry => Next::RETRY,
                        },
                        Err(_) => Next::RETRY,
                    };
                    list.push((LabelId(o as u32), next));
                }
                TestNode::Send {
                    input: LabelId(self.map.to_suite[input.index()]),
                    then,
                    race: list,
                }
            }
        };
        let id = Next::Node(self.post.len() as u32);
        self.post.push(node);
        self.memo.insert((k, set, unconstrained), id);
        id
    }
}

/// Writes the ADG and the top-ups as a suite JSON v1 file that is sound from the initial state:
/// for every reachable state `q` (canonical order), test `adg-q` walks the shortest access
/// sequence of `q` and runs the ADG from `q`; for every undistinguished pair `(q, r)`, tests
/// `pair-q-r-at-q` and `pair-q-r-at-r` walk to `q` or `r` and run the pair's top-up there. States
/// are numbered as in [`Distinguished::automaton`]; the header maps numbers to names.
pub fn write_suite<W: Write>(d: &Distinguished, out: W) -> io::Result<W> {
    let sa = &d.automaton;
    let model = suite_model(sa);
    let labels = SuiteLabels::new(sa, &model);
    let access = shortest_state_cover(sa);
    let mut extra = serde_json::Map::new();
    extra.insert(
        "undistinguished_pairs".into(),
        json!(d.identification.undistinguished_pairs().len()),
    );
    extra.insert(
        "unreachable_states".into(),
        json!(access.iter().filter(|a| a.is_none()).count()),
    );
    extra.insert("states".into(), json!(sa.state_names()));
    let header = SuiteHeader {
        model: model.clone(),
        method: "distinguish".into(),
        n: None,
        guarantee: "state identification only, sound from the initial state: each test walks the \
                    access sequence of a state (`retry` when the system takes another allowed \
                    output) and runs the ADG (`adg-q`) or the top-up of an undistinguished pair \
                    (`pair-q-r-at-q`) there; together they identify every reachable state \
                    among the incompatible ones; not n-complete"
            .into(),
        extra,
    };
    let mut w = SuiteWriter::begin(out, &header)?;
    let adg = d.identification.adg();
    for q in sa.states() {
        let Some(path) = &access[q.index()] else {
            continue;
        };
        if let Some(mut t) = adg.to_test_case_after(sa, path, &labels) {
            t.name = format!("adg-{}", q.0);
            w.write_test(&t)?;
        }
    }
    for (e, &(q, r)) in d
        .identification
        .topups(sa, &d.compatibility)
        .zip(d.identification.undistinguished_pairs())
    {
        for at in [q, r] {
            let Some(path) = &access[at.index()] else {
                continue;
            };
            if let Some(mut t) = e.to_test_case_after(sa, path, &labels) {
                t.name = format!("pair-{}-{}-at-{}", q.0, r.0, at.0);
                w.write_test(&t)?;
            }
        }
    }
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Compatibility, Preference};
    use crate::identify::splitting_graph::tests::fig_3_5;
    use crate::identify::{
        AdaptiveIdentification, DistinguishOptions, SplittingGraph, distinguish, pairwise_graph,
    };
    use crate::suite::read_suite;

    /// Whether some run of `sa` from `q` reaches `fail` in `t` (outputs chosen by the system,
    /// races included); a state not specifying an input ends the exploration (anything allowed).
    fn can_fail(sa: &SuspensionAutomaton, model: &SuiteModel, t: &TestCase, q: StateId) -> bool {
        let map = SuiteLabels::new(sa, model);
        let mut stack = vec![(0u32, q)];
        let mut seen = std::collections::HashSet::new();
        while let Some((k, s)) = stack.pop() {
            if !seen.insert((k, s)) {
                continue;
            }
            let node = &t.nodes[k as usize];
            let follow = |n: Next, s2: StateId, stack: &mut Vec<(u32, StateId)>| match n {
                Next::Node(j) => {
                    stack.push((j, s2));
                    false
                }
                Next::Verdict(v) => v == crate::suite::Verdict::Fail,
            };
            for &(l, s2) in sa.enabled(s) {
                if !sa.alphabet.is_output(l) {
                    continue;
                }
                let o = LabelId(map.to_suite[l.index()]);
                let racing = matches!(node, TestNode::Send { .. });
                if racing && l == sa.quiescence() {
                    continue;
                }
                if follow(node.on_output(o), s2, &mut stack) {
                    return true;
                }
            }
            if let TestNode::Send { input, then, .. } = node {
                let a = sa
                    .alphabet
                    .inputs()
                    .find(|&a| map.to_suite[a.index()] == input.0)
                    .expect("input of the model");
                if let Some(s2) = sa.after(s, a)
                    && follow(*then, s2, &mut stack)
                {
                    return true;
                }
            }
        }
        false
    }

    #[test]
    fn test_cases_never_fail_the_specification_itself() {
        let mut refuted = 0;
        for seed in 0..150u64 {
            let n = 2 + (seed % 7) as usize;
            let sa = crate::identify::random::random_suspension(seed, n, 2, 3);
            let model = suite_model(&sa);
            let c = Compatibility::compute(&sa);
            let g = SplittingGraph::build(&sa, &c).unwrap();
            let a = AdaptiveIdentification::compute(&sa, &c, &g, Preference::Inputs).unwrap();
            for q in sa.states() {
                let t = a.adg().to_test_case(&sa, &[q], &model);
                t.validate(model.inputs.len(), model.num_output_ids())
                    .unwrap();
                assert!(
                    !can_fail(&sa, &model, &t, q),
                    "seed {seed}: ADG fails state {q}"
                );
                let all: Vec<StateId> = sa.states().collect();
                let t = a.adg().to_test_case(&sa, &all, &model);
                assert!(
                    !can_fail(&sa, &model, &t, q),
                    "seed {seed}: ADG fails {q} in Q"
                );
            }
            for (q, r) in c.incompatible_pairs() {
                let e = pairwise_graph(&sa, &c, q, r, Preference::Inputs).unwrap();
                let t = e.to_test_case(&sa, &[q, r], &model);
                t.validate(model.inputs.len(), model.num_output_ids())
                    .unwrap();
                assert!(!can_fail(&sa, &model, &t, q) && !can_fail(&sa, &model, &t, r));
                // Run for a system that should be in q, the graph can refute r.
                let only_q = e.to_test_case(&sa, &[q], &model);
                refuted += usize::from(can_fail(&sa, &model, &only_q, r));
            }
        }
        assert!(refuted > 100, "the checker finds failures: {refuted}");
    }

    #[test]
    fn suites_are_valid_and_reproducible() {
        let sa = fig_3_5();
        let d = distinguish(&sa, &DistinguishOptions::default(), &mut |_| {}).unwrap();
        assert!(d.report.topups > 0);
        let a = String::from_utf8(write_suite(&d, Vec::new()).unwrap()).unwrap();
        let d2 = distinguish(&sa, &DistinguishOptions::default(), &mut |_| {}).unwrap();
        let b = String::from_utf8(write_suite(&d2, Vec::new()).unwrap()).unwrap();
        assert_eq!(a, b);
        let (header, tests) = read_suite(&a).unwrap();
        assert_eq!(tests.len(), d.report.states + 2 * d.report.topups);
        for t in &tests {
            t.validate(header.model.inputs.len(), header.model.num_output_ids())
                .unwrap();
        }
        assert_eq!(tests[0].name, "adg-0");
    }

    /// The suite file never fails a conforming implementation: random specifications with
    /// compatible states (2 inputs, 3 outputs, up to 11 states), every execution of every test
    /// (exhaustive simulation) against conforming mutants; non-conforming mutants are caught
    /// sometimes (state identification is no complete suite), so the check can fail.
    #[test]
    fn suites_never_fail_conforming_implementations() {
        use crate::suite::ioco::testkit::{Rng, Simulator, ioco, mutant, random_sa};
        let mut rng = Rng::new(15);
        let (mut conforming, mut caught) = (0, 0);
        for round in 0..40 {
            let spec = random_sa(&mut rng, 4 + round % 8, 2, 3);
            for minimize in [true, false] {
                let options = DistinguishOptions {
                    minimize,
                    ..DistinguishOptions::default()
                };
                let d = distinguish(&spec, &options, &mut |_| {}).unwrap();
                let text = String::from_utf8(write_suite(&d, Vec::new()).unwrap()).unwrap();
                let (header, tests) = read_suite(&text).unwrap();
                for k in 0..6 {
                    let imp = mutant(&mut rng, &spec, k % 3);
                    let sim = Simulator::new(&header.model, &imp);
                    let fails = tests.iter().any(|t| sim.can_fail(t));
                    if ioco(&imp, &spec) {
                        conforming += 1;
                        assert!(
                            !fails,
                            "round {round} mutant {k}: a conforming system fails"
                        );
                    } else {
                        caught += usize::from(fails);
                    }
                }
            }
        }
        assert!(
            conforming > 100 && caught > 20,
            "{conforming} conforming, {caught} caught"
        );
    }
}
