//! Test cases as acyclic send/expect graphs with verdict leaves: the in-memory form of the suite
//! JSON version 1 (see [`super::json`]) and of van den Bos Def. 3.12 (a test case is an acyclic
//! automaton whose states enable one input and/or all outputs).
//!
//! Label ids inside a test case index the suite's [`SuiteModel`]: a `Send` names an input
//! (`0..inputs.len()`), `Expect` and `race` branches name an output, where ids
//! `0..outputs.len()` are the outputs and `outputs.len()` is quiescence (if the model has it).
//!
//! Invariant (checked by [`TestCase::validate`]): every node reference points to a node with a
//! larger index, so the nodes are in topological order and the graph is acyclic; the root is
//! node 0.

use crate::model::LabelId;

/// A verdict reached at a leaf.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// The observation is allowed and the test is over.
    Pass,
    /// The observation is not allowed: the implementation does not conform.
    Fail,
    /// Inconclusive: the system took another allowed branch; reset and run the test again.
    Retry,
}

impl Verdict {
    /// The JSON spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::Retry => "retry",
        }
    }
}

/// Where a test continues: another node of the same test, or a verdict.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Next {
    /// Index into the test's nodes.
    Node(u32),
    /// A leaf.
    Verdict(Verdict),
}

impl Next {
    /// Shorthand for `Next::Verdict(Verdict::Pass)`.
    pub const PASS: Next = Next::Verdict(Verdict::Pass);
    /// Shorthand for `Next::Verdict(Verdict::Fail)`.
    pub const FAIL: Next = Next::Verdict(Verdict::Fail);
    /// Shorthand for `Next::Verdict(Verdict::Retry)`.
    pub const RETRY: Next = Next::Verdict(Verdict::Retry);
}

/// One step of a test case.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TestNode {
    /// Apply `input`, continue at `then`; if the system produces an output first, continue at the
    /// matching `race` branch (an output not listed fails). Quiescence never races.
    Send {
        /// Input id.
        input: LabelId,
        /// Continuation after the input was applied.
        then: Next,
        /// Continuations for outputs that arrive before the input is applied, sorted by output id.
        race: Vec<(LabelId, Next)>,
    },
    /// Wait for the next output (quiescence after a timeout); an output not listed fails.
    Expect {
        /// Continuations per output id (quiescence included), sorted by output id.
        branches: Vec<(LabelId, Next)>,
    },
}

impl TestNode {
    /// All continuations of this node.
    pub fn successors(&self) -> impl Iterator<Item = Next> + '_ {
        let (first, rest) = match self {
            TestNode::Send { then, race, .. } => (Some(*then), race.as_slice()),
            TestNode::Expect { branches } => (None, branches.as_slice()),
        };
        first.into_iter().chain(rest.iter().map(|&(_, n)| n))
    }

    /// This node with every continuation passed through `f` (the node references renumbered
    /// when a builder's post-order list is reversed into the suite's topological order).
    pub fn renumbered(self, f: impl Fn(Next) -> Next) -> TestNode {
        match self {
            TestNode::Send { input, then, race } => TestNode::Send {
                input,
                then: f(then),
                race: race.into_iter().map(|(o, n)| (o, f(n))).collect(),
            },
            TestNode::Expect { branches } => TestNode::Expect {
                branches: branches.into_iter().map(|(o, n)| (o, f(n))).collect(),
            },
        }
    }

    /// The continuation after observing output `o` at this node (fail if not listed).
    pub fn on_output(&self, o: LabelId) -> Next {
        let list = match self {
            TestNode::Send { race, .. } => race,
            TestNode::Expect { branches } => branches,
        };
        list.binary_search_by_key(&o, |&(l, _)| l)
            .map(|k| list[k].1)
            .unwrap_or(Next::FAIL)
    }
}

/// One test case: a rooted DAG of [`TestNode`]s.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TestCase {
    /// Readable, unique name within the suite (`t0001`, ...).
    pub name: String,
    /// Nodes in topological order; node 0 is the root.
    pub nodes: Vec<TestNode>,
}

/// A test case that breaks the invariants of the format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TestCaseError {
    /// No nodes.
    #[error("test `{0}` has no nodes")]
    Empty(String),
    /// A reference that does not point forward to an existing node.
    #[error("test `{test}`: node {node} refers to node {target}, which is not a later node")]
    BadReference {
        /// Test name.
        test: String,
        /// Referring node.
        node: usize,
        /// Referenced index.
        target: u32,
    },
    /// Branch labels not strictly increasing, or out of range.
    #[error("test `{test}`: node {node} has a duplicate or unknown label id {label}")]
    BadLabel {
        /// Test name.
        test: String,
        /// Node.
        node: usize,
        /// Label id.
        label: u32,
    },
}

impl TestCase {
    /// Checks the invariants: forward references only, sorted unique labels within range
    /// (`num_inputs` for sends, `num_outputs` including quiescence for branches).
    pub fn validate(&self, num_inputs: usize, num_outputs: usize) -> Result<(), TestCaseError> {
        if self.nodes.is_empty() {
            return Err(TestCaseError::Empty(self.name.clone()));
        }
        for (k, node) in self.nodes.iter().enumerate() {
            for next in node.successors() {
                if let Next::Node(t) = next
                    && (t as usize <= k || t as usize >= self.nodes.len())
                {
                    return Err(TestCaseError::BadReference {
                        test: self.name.clone(),
                        node: k,
                        target: t,
                    });
                }
            }
            let bad = |label: LabelId| TestCaseError::BadLabel {
                test: self.name.clone(),
                node: k,
                label: label.0,
            };
            let list = match node {
                TestNode::Send { input, race, .. } => {
                    if input.index() >= num_inputs {
                        return Err(bad(*input));
                    }
                    race
                }
                TestNode::Expect { branches } => branches,
            };
            for (j, &(l, _)) in list.iter().enumerate() {
                if l.index() >= num_outputs || (j > 0 && list[j - 1].0 >= l) {
                    return Err(bad(l));
                }
            }
        }
        Ok(())
    }

    /// Number of send and expect steps along the longest root-to-leaf path.
    pub fn depth(&self) -> usize {
        let mut depth = vec![0usize; self.nodes.len()];
        for k in (0..self.nodes.len()).rev() {
            depth[k] = 1 + self.nodes[k]
                .successors()
                .filter_map(|n| match n {
                    Next::Node(t) => Some(depth[t as usize]),
                    Next::Verdict(_) => None,
                })
                .max()
                .unwrap_or(0);
        }
        depth.first().copied().unwrap_or(0)
    }

    /// Runs (root-to-verdict paths) and steps (labels summed over those paths) of the test,
    /// counted by dynamic programming from the last node back, saturating: the figures of
    /// `run` and of the least-loaded split of `--shard`.
    pub fn runs_and_steps(&self) -> (u128, u128) {
        let mut memo = vec![(0u128, 0u128); self.nodes.len()];
        for k in (0..self.nodes.len()).rev() {
            let (mut runs, mut steps) = (0u128, 0u128);
            for next in self.nodes[k].successors() {
                let (r, s) = match next {
                    Next::Node(j) => memo.get(j as usize).copied().unwrap_or((1, 0)),
                    Next::Verdict(_) => (1, 0),
                };
                runs = runs.saturating_add(r);
                steps = steps.saturating_add(s).saturating_add(r);
            }
            memo[k] = (runs, steps);
        }
        memo.first().copied().unwrap_or((0, 0))
    }

    /// Runs, steps and waits (observations of the output id `quiescence`, summed over the
    /// root-to-verdict paths), counted as [`TestCase::runs_and_steps`] counts.
    pub fn runs_steps_waits(&self, quiescence: Option<LabelId>) -> (u128, u128, u128) {
        let mut memo = vec![(0u128, 0u128, 0u128); self.nodes.len()];
        for k in (0..self.nodes.len()).rev() {
            let (mut runs, mut steps, mut waits) = (0u128, 0u128, 0u128);
            let (then, labelled) = match &self.nodes[k] {
                TestNode::Send { then, race, .. } => (Some(*then), race.as_slice()),
                TestNode::Expect { branches } => (None, branches.as_slice()),
            };
            let edges = then
                .map(|n| (None, n))
                .into_iter()
                .chain(labelled.iter().map(|&(o, n)| (Some(o), n)));
            for (label, next) in edges {
                let (r, s, w) = match next {
                    Next::Node(j) => memo.get(j as usize).copied().unwrap_or((1, 0, 0)),
                    Next::Verdict(_) => (1, 0, 0),
                };
                let quiet = label.is_some() && label == quiescence;
                runs = runs.saturating_add(r);
                steps = steps.saturating_add(s).saturating_add(r);
                waits = waits
                    .saturating_add(w)
                    .saturating_add(if quiet { r } else { 0 });
            }
            memo[k] = (runs, steps, waits);
        }
        memo.first().copied().unwrap_or((0, 0, 0))
    }

    /// Builds a Mealy-style chain `send i1 -> expect {o1: next} -> send i2 -> ...`, ending in pass.
    pub fn chain(name: impl Into<String>, steps: &[(LabelId, LabelId)]) -> TestCase {
        let mut nodes = Vec::with_capacity(steps.len() * 2);
        for (k, &(i, o)) in steps.iter().enumerate() {
            let send_at = nodes.len() as u32;
            nodes.push(TestNode::Send {
                input: i,
                then: Next::Node(send_at + 1),
                race: Vec::new(),
            });
            let next = if k + 1 == steps.len() {
                Next::PASS
            } else {
                Next::Node(send_at + 2)
            };
            nodes.push(TestNode::Expect {
                branches: vec![(o, next)],
            });
        }
        TestCase {
            name: name.into(),
            nodes,
        }
    }
}

/// The model a suite was generated from, as the suite JSON names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteModel {
    /// Model name.
    pub name: String,
    /// Input names; a `Send` input id indexes this list.
    pub inputs: Vec<String>,
    /// Output names without quiescence; an output id `< outputs.len()` indexes this list.
    pub outputs: Vec<String>,
    /// The quiescence label, whose output id is `outputs.len()`; `None` for Mealy machines.
    pub quiescence: Option<String>,
}

impl SuiteModel {
    /// Number of output ids, quiescence included.
    pub fn num_output_ids(&self) -> usize {
        self.outputs.len() + usize::from(self.quiescence.is_some())
    }

    /// The output id of quiescence, if the model has it.
    pub fn quiescence_id(&self) -> Option<LabelId> {
        self.quiescence
            .as_ref()
            .map(|_| LabelId(self.outputs.len() as u32))
    }

    /// The name of an output id (quiescence included).
    pub fn output_name(&self, o: LabelId) -> &str {
        match self.outputs.get(o.index()) {
            Some(name) => name,
            None => self.quiescence.as_deref().unwrap_or("delta"),
        }
    }

    /// The name of an input id.
    pub fn input_name(&self, i: LabelId) -> &str {
        &self.inputs[i.index()]
    }
}

/// Everything a suite file says besides its tests.
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteHeader {
    /// The model.
    pub model: SuiteModel,
    /// The generation method (`ioco-complete`, `wp`, ...).
    pub method: String,
    /// The bound n on implementation states the guarantee refers to, if any.
    pub n: Option<usize>,
    /// The exact guarantee the suite gives, in words.
    pub guarantee: String,
    /// Further fields written after the specified ones (statistics, provenance), in order.
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// The suite JSON's view of a suspension automaton's labels: inputs in label order, outputs
/// without quiescence in label order, then quiescence.
pub fn suite_model(sa: &crate::model::SuspensionAutomaton) -> SuiteModel {
    let a = &sa.alphabet;
    SuiteModel {
        name: sa.name.clone(),
        inputs: a.inputs().map(|l| a.name(l).to_owned()).collect(),
        outputs: a
            .outputs()
            .filter(|&l| l != sa.quiescence())
            .map(|l| a.name(l).to_owned())
            .collect(),
        quiescence: Some(a.name(sa.quiescence()).to_owned()),
    }
}

/// The name of quiescence in the runners' messages (`quiescence` for a model without one).
pub(crate) fn quiescence_name(model: &SuiteModel) -> &str {
    model.quiescence.as_deref().unwrap_or("quiescence")
}

/// The outputs (and quiescence) that `list` does not fail on, as messages list them after
/// "expected one of:" (`nothing` for none): the runners of `exec` print it in their failures,
/// and the TTCN-3 rendering writes the same text into its verdicts' reasons.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_are_valid_and_deep() {
        let t = TestCase::chain("t", &[(LabelId(0), LabelId(1)), (LabelId(1), LabelId(0))]);
        assert_eq!(t.nodes.len(), 4);
        assert_eq!(t.depth(), 4);
        t.validate(2, 2).unwrap();
        assert_eq!(t.nodes[1].on_output(LabelId(1)), Next::Node(2));
        assert_eq!(t.nodes[1].on_output(LabelId(0)), Next::FAIL);
    }

    #[test]
    fn backward_references_and_unsorted_labels_are_rejected() {
        let cyclic = TestCase {
            name: "c".into(),
            nodes: vec![
                TestNode::Expect {
                    branches: vec![(LabelId(0), Next::Node(1))],
                },
                TestNode::Expect {
                    branches: vec![(LabelId(0), Next::Node(0))],
                },
            ],
        };
        assert!(matches!(
            cyclic.validate(1, 1),
            Err(TestCaseError::BadReference { node: 1, .. })
        ));
        let unsorted = TestCase {
            name: "u".into(),
            nodes: vec![TestNode::Expect {
                branches: vec![(LabelId(1), Next::PASS), (LabelId(0), Next::PASS)],
            }],
        };
        assert!(matches!(
            unsorted.validate(0, 2),
            Err(TestCaseError::BadLabel { .. })
        ));
    }
}
