//! Work shared across the goals of one suite: when every move of the goal game is
//! deterministic, one breadth-first tree from the initial state solves every state, transition
//! and switch goal at once, with the tests the per-goal solver of [`super::solve`] would build.
//!
//! **Precondition** (checked on the reachable states; [`ShortestPaths::new`] gives `None`
//! otherwise): every reachable state enables exactly one output (δ included), and a state that
//! enables inputs enables no output but δ. Suspension automata of Mealy machines have this shape
//! (`q --?i--> q/i --!o--> q'`, with δ only on the states that wait for input). Then each tester
//! move of the game of van den Bos Def. 6.23 has exactly one outcome: an input `a` leads to
//! `T(q, a)` (δ never races an input), θ to the target of the one output. The attractor of
//! Def. 6.7 is backward breadth-first search: a state's A-rank is its distance to the goal, and
//! no state joins a joker set, since every predecessor of an attracted state is itself attracted.
//! The move [`JokerGame`](super::JokerGame) picks at A-rank `d` is the first of its attracting
//! moves (inputs in label order, then θ) whose outcome has A-rank `d − 1`, so the play from the
//! initial state follows the least shortest path to the goal when the moves out of a state are
//! ordered inputs first by label, then the output. A breadth-first search that expands each
//! state's moves in that order finds exactly these least paths (a state is discovered first from
//! the earliest dequeued state of the previous level, whose least path precedes the others, by
//! its first move there), so one tree, in time and memory linear in the automaton, gives:
//!
//! - a state goal: the tree path to the state;
//! - a transition goal `q --l-->`: the path to `q`, then `l` (the goal is reached only by that
//!   step, and a shortest path visits `q` once);
//! - a switch goal `q --a--> m --b-->` with `m = T(q, a)`: the path to `q`, then `a`, then `b`.
//!
//! Every step of such a play progresses, so the test is the path itself whatever the patience:
//! a `send` (inputs never race an output here) or an `expect` of the one output per step, `pass`
//! after the last; a state goal at the initial state is an `expect` of its outputs, all `pass`.
//! `goals::tests::shared_paths_give_the_per_goal_suites_*` check that suites built both ways are
//! byte-identical on the bundled models and on random automata.

use super::goal::Goal;
use crate::model::{LabelId, StateId, SuspensionAutomaton};
use crate::suite::ioco::LabelMap;
use crate::suite::{Next, TestCase, TestNode};

/// The least shortest path from the initial state to every reachable state of an automaton
/// whose goal games are deterministic (see the module documentation).
#[derive(Clone, Debug)]
pub(crate) struct ShortestPaths {
    /// Per state: the state it is discovered from (`NONE` for the initial and unreachable ones).
    parent: Vec<u32>,
    /// Per state: the label of the step from its parent.
    via: Vec<LabelId>,
    /// Per automaton label: whether it is an input.
    is_input: Vec<bool>,
    /// Suite ids of the labels.
    ids: LabelMap,
    initial: StateId,
    /// The outputs of the initial state, in suite id order (the test of a goal that holds at the
    /// start expects one of them).
    initial_outputs: Vec<LabelId>,
}

const NONE: u32 = u32::MAX;

/// A goal reached by the tree path to `target` followed by at most two fixed steps.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct PathGoal {
    target: StateId,
    suffix: [LabelId; 2],
    suffix_len: u8,
}

/// Whether every move of the goal games at `q` has one outcome: `q` enables exactly one output,
/// and only δ if it enables an input.
fn moves_are_deterministic(sa: &SuspensionAutomaton, q: StateId) -> bool {
    let mut outputs = sa.outputs_enabled(q);
    let (Some(x), None) = (outputs.next(), outputs.next()) else {
        return false;
    };
    x == sa.quiescence() || sa.inputs_enabled(q).next().is_none()
}

impl ShortestPaths {
    /// The tree of least shortest paths, `None` when the goal games of `sa` are not
    /// deterministic.
    pub(crate) fn new(sa: &SuspensionAutomaton) -> Option<ShortestPaths> {
        let n = sa.num_states();
        let is_input: Vec<bool> = sa.alphabet.ids().map(|l| sa.alphabet.is_input(l)).collect();
        let mut parent = vec![NONE; n];
        let mut via = vec![LabelId(0); n];
        let mut seen = vec![false; n];
        let initial = sa.initial();
        seen[initial.index()] = true;
        let mut queue = std::collections::VecDeque::from([initial]);
        while let Some(q) = queue.pop_front() {
            if !moves_are_deterministic(sa, q) {
                return None;
            }
            // Inputs in label order, then the one output: the order of the solver's moves.
            let inputs = sa.enabled(q).iter().filter(|&&(l, _)| is_input[l.index()]);
            let outputs = sa.enabled(q).iter().filter(|&&(l, _)| !is_input[l.index()]);
            for &(l, t) in inputs.chain(outputs) {
                if !seen[t.index()] {
                    seen[t.index()] = true;
                    parent[t.index()] = q.0;
                    via[t.index()] = l;
                    queue.push_back(t);
                }
            }
        }
        let ids = LabelMap::new(sa);
        let mut initial_outputs: Vec<LabelId> =
            sa.outputs_enabled(initial).map(|x| ids.id(x)).collect();
        initial_outputs.sort_unstable();
        Some(ShortestPaths {
            parent,
            via,
            is_input,
            ids,
            initial,
            initial_outputs,
        })
    }

    fn reachable(&self, q: StateId) -> bool {
        q == self.initial || self.parent.get(q.index()).is_some_and(|&p| p != NONE)
    }

    /// The goal as a path in the tree, if it is a state, transition or switch goal of the
    /// automaton's reachable part.
    pub(crate) fn path_goal(&self, sa: &SuspensionAutomaton, goal: &Goal) -> Option<PathGoal> {
        let fixed = |target: StateId, suffix: &[LabelId]| {
            self.reachable(target).then(|| {
                let mut s = [LabelId(0); 2];
                s[..suffix.len()].copy_from_slice(suffix);
                PathGoal {
                    target,
                    suffix: s,
                    suffix_len: suffix.len() as u8,
                }
            })
        };
        match *goal {
            Goal::State(q) if q.index() < sa.num_states() => fixed(q, &[]),
            Goal::Transition(q, l) if q.index() < sa.num_states() => {
                sa.after(q, l).and_then(|_| fixed(q, &[l]))
            }
            Goal::Switch {
                from,
                first,
                middle,
                second,
            } if from.index() < sa.num_states() => {
                let t = sa.after(from, first)?;
                (t == middle && sa.after(middle, second).is_some())
                    .then(|| fixed(from, &[first, second]))
                    .flatten()
            }
            _ => None,
        }
    }

    /// The test of a path goal, named `name`.
    pub(crate) fn test_case(&self, goal: &PathGoal, name: &str) -> TestCase {
        let mut labels: Vec<LabelId> = Vec::new();
        let mut q = goal.target;
        while q != self.initial {
            labels.push(self.via[q.index()]);
            q = StateId(self.parent[q.index()]);
        }
        labels.reverse();
        labels.extend_from_slice(&goal.suffix[..goal.suffix_len as usize]);
        if labels.is_empty() {
            // The goal holds before any step: the test checks the next output and passes.
            let branches = self
                .initial_outputs
                .iter()
                .map(|&x| (x, Next::PASS))
                .collect();
            return TestCase {
                name: name.to_owned(),
                nodes: vec![TestNode::Expect { branches }],
            };
        }
        let last = labels.len() - 1;
        let nodes = labels
            .iter()
            .enumerate()
            .map(|(k, &l)| {
                let next = if k == last {
                    Next::PASS
                } else {
                    Next::Node(k as u32 + 1)
                };
                if self.is_input[l.index()] {
                    TestNode::Send {
                        input: self.ids.id(l),
                        then: next,
                        race: Vec::new(),
                    }
                } else {
                    TestNode::Expect {
                        branches: vec![(self.ids.id(l), next)],
                    }
                }
            })
            .collect();
        TestCase {
            name: name.to_owned(),
            nodes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::suspension_from_marked;

    #[test]
    fn least_paths_put_inputs_before_the_output() {
        // 0 --?b--> 1 --!x--> 2 and 0 --?a--> 3 --!y--> 2: both reach 2 in two steps; `a` is
        // the smaller input, so 2 is reached through 3. 0 also has δ to 4, one step away.
        let sa = suspension_from_marked(
            "s",
            5,
            &[
                (0, "?a", 3),
                (0, "?b", 1),
                (0, "delta", 4),
                (1, "!x", 2),
                (3, "!y", 2),
                (2, "delta", 2),
                (4, "delta", 4),
            ],
        )
        .unwrap();
        let paths = ShortestPaths::new(&sa).unwrap();
        let a = sa.alphabet.get("a").unwrap();
        let y = sa.alphabet.get("y").unwrap();
        let goal = paths.path_goal(&sa, &Goal::State(StateId(2))).unwrap();
        let t = paths.test_case(&goal, "t");
        let ids = LabelMap::new(&sa);
        assert_eq!(
            t.nodes,
            vec![
                TestNode::Send {
                    input: ids.id(a),
                    then: Next::Node(1),
                    race: Vec::new()
                },
                TestNode::Expect {
                    branches: vec![(ids.id(y), Next::PASS)]
                },
            ]
        );
        // A state that both enables an input and an output other than δ breaks the shape.
        let racing =
            suspension_from_marked("r", 2, &[(0, "?a", 1), (0, "!x", 1), (1, "delta", 1)]).unwrap();
        assert!(ShortestPaths::new(&racing).is_none());
    }
}
