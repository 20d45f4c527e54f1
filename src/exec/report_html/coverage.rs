//! The coverage of a run on the specification ([`SpecCoverage`]): its suspension automaton with
//! the states and transitions the replayed traces (or the simulated executions) took, counted
//! as the report shows them, and drawn by [`crate::render::draw`].

use crate::exec::records::ObservedStep;
use crate::exec::simulate::{SimulatedSystem, Step};
use crate::model::{LabelId, RestrictToReachable, StateId, SuspensionAutomaton};
use crate::render::draw::{Picture, PictureState, PictureTransition, marked_label};
use crate::suite::{Next, TestCase, TestNode};
use std::collections::HashMap;

/// The specification's suspension automaton with the states and transitions a run covered.
#[derive(Clone, Debug)]
pub struct SpecCoverage {
    sa: SuspensionAutomaton,
    /// Per state, the number of its first transition (transitions numbered state by state in
    /// the order of `enabled`).
    first: Vec<usize>,
    pub(super) reachable: Vec<bool>,
    visited: Vec<bool>,
    taken: Vec<bool>,
    /// Whether quiescence transitions count (not for a Mealy specification's run).
    pub(super) quiescence_counted: bool,
    /// The specification when it is a Mealy machine: drawn as one, its transition `q --i/o-->
    /// q'` covered when both `q --i--> q/i` and `q/i --o--> q'` are.
    mealy: Option<crate::model::Mealy>,
}

/// Covered and reachable states and transitions of a [`SpecCoverage`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CoverageCounts {
    /// Reachable states visited.
    pub states: usize,
    /// Reachable states.
    pub states_total: usize,
    /// Reachable transitions taken.
    pub transitions: usize,
    /// Reachable transitions (quiescence loops included).
    pub transitions_total: usize,
}

impl SpecCoverage {
    /// Nothing covered yet but the initial state.
    pub fn new(sa: SuspensionAutomaton) -> SpecCoverage {
        let mut first = Vec::with_capacity(sa.num_states() + 1);
        first.push(0);
        for q in sa.states() {
            first.push(first[q.index()] + sa.enabled(q).len());
        }
        let reachable = sa.reachable();
        let mut visited = vec![false; sa.num_states()];
        visited[sa.initial().index()] = true;
        SpecCoverage {
            taken: vec![false; first[sa.num_states()]],
            visited,
            reachable,
            first,
            sa,
            quiescence_counted: true,
            mealy: None,
        }
    }

    /// Nothing covered yet of the specification `model` of a suite's run: its suspension
    /// automaton, without the quiescence loops when it is a Mealy machine (see the module doc).
    pub fn of_run_spec(
        model: &crate::model::Model,
    ) -> Result<SpecCoverage, crate::exec::error::ExecError> {
        let mut coverage =
            SpecCoverage::new(crate::exec::spec_automaton::specification_automaton(model)?);
        if let crate::model::Model::Mealy(m) = model {
            coverage.quiescence_counted = false;
            coverage.mealy = Some(m.clone());
        }
        Ok(coverage)
    }

    /// The specification drawn with what the run covered ([`crate::render::draw`]): a Mealy
    /// machine as itself, its `i/o` transitions covered when the run took both halves; an LTS
    /// as its suspension automaton (reachable states, δ loops when they count), on which
    /// coverage is counted.
    pub fn picture(&self) -> Picture {
        let sa = &self.sa;
        if let Some(m) = &self.mealy {
            let mut p = Picture::of_mealy(m);
            for (t, (q, i, _, _)) in p.transitions.iter_mut().zip(m.quads()) {
                let taken = self.input_label(m.inputs.name(i)).and_then(|l| {
                    let k = sa.enabled(q).iter().position(|&(x, _)| x == l)?;
                    let middle = sa.enabled(q)[k].1;
                    let answered = (0..sa.enabled(middle).len()).any(|k2| {
                        sa.enabled(middle)[k2].0 != sa.quiescence() && self.is_taken(middle, k2)
                    });
                    Some(self.is_taken(q, k) && answered)
                });
                t.covered = Some(taken.unwrap_or(false));
            }
            for (q, state) in p.states.iter_mut().enumerate() {
                state.visited = Some(self.visited[q]);
            }
            return p;
        }
        let mut index = vec![usize::MAX; sa.num_states()];
        let mut states = Vec::new();
        for q in sa.states().filter(|q| self.reachable[q.index()]) {
            index[q.index()] = states.len();
            states.push(PictureState {
                name: sa.state_name(q).to_owned(),
                quiescent: false,
                visited: Some(self.visited[q.index()]),
            });
        }
        let mut transitions = Vec::new();
        for q in sa.states().filter(|q| self.reachable[q.index()]) {
            for (k, &(l, t)) in sa.enabled(q).iter().enumerate() {
                if !self.counts_transition(q, k) {
                    continue;
                }
                let (label, kind) = marked_label(&sa.alphabet, Some(sa.quiescence()), l);
                transitions.push(PictureTransition {
                    from: index[q.index()],
                    to: index[t.index()],
                    label,
                    kind,
                    covered: Some(self.is_taken(q, k)),
                });
            }
        }
        Picture {
            name: sa.name.clone(),
            kind: "suspension automaton",
            states,
            initial: index[sa.initial().index()],
            transitions,
        }
    }

    /// The coverage as the JSON results carry it: the specification's path, the figures, the
    /// names of the visited states and the covered transitions as `[from, label, to]` (labels
    /// `?a`, `!x`, `δ`), in state order.
    pub fn to_json(&self, spec_path: &str) -> serde_json::Value {
        let sa = &self.sa;
        let c = self.counts();
        let reachable = || sa.states().filter(|q| self.reachable[q.index()]);
        let visited: Vec<&str> = reachable()
            .filter(|q| self.visited[q.index()])
            .map(|q| sa.state_name(q))
            .collect();
        let mut covered = Vec::new();
        for q in reachable() {
            for (k, &(l, t)) in sa.enabled(q).iter().enumerate() {
                if self.counts_transition(q, k) && self.is_taken(q, k) {
                    covered.push(serde_json::json!([
                        sa.state_name(q),
                        self.marked(l),
                        sa.state_name(t)
                    ]));
                }
            }
        }
        serde_json::json!({
            "specification": spec_path,
            "states_visited": c.states,
            "states": c.states_total,
            "transitions_covered": c.transitions,
            "transitions": c.transitions_total,
            "visited_states": visited,
            "covered_transitions": covered,
        })
    }

    /// Marks the coverage a run's JSON results list ([`SpecCoverage::to_json`]); an error names
    /// the first state or transition this specification does not have.
    pub fn mark_json(&mut self, coverage: &serde_json::Value) -> Result<(), String> {
        let names: HashMap<&str, StateId> = self
            .sa
            .states()
            .map(|q| (self.sa.state_name(q), q))
            .collect();
        let state = |v: &serde_json::Value| -> Result<StateId, String> {
            v.as_str()
                .and_then(|name| names.get(name).copied())
                .ok_or_else(|| format!("the specification has no state {v}"))
        };
        let list = |key: &str| -> Result<&Vec<serde_json::Value>, String> {
            coverage[key]
                .as_array()
                .ok_or_else(|| format!("`coverage.{key}` is not a list"))
        };
        let mut visited = Vec::new();
        for v in list("visited_states")? {
            visited.push(state(v)?);
        }
        let mut taken = Vec::new();
        for t in list("covered_transitions")? {
            let triple = t
                .as_array()
                .filter(|a| a.len() == 3)
                .ok_or_else(|| format!("a covered transition is not [from, label, to]: {t}"))?;
            let (q, target) = (state(&triple[0])?, state(&triple[2])?);
            let k = self
                .sa
                .enabled(q)
                .iter()
                .position(|&(l, t)| {
                    t == target && Some(self.marked(l).as_str()) == triple[1].as_str()
                })
                .ok_or_else(|| format!("the specification has no transition {t}"))?;
            taken.push(self.first[q.index()] + k);
        }
        for q in visited {
            self.visited[q.index()] = true;
        }
        for k in taken {
            self.taken[k] = true;
        }
        Ok(())
    }

    /// Whether transition `k` of state `q` is a coverage goal (quiescence ones only when they
    /// count).
    pub(super) fn counts_transition(&self, q: StateId, k: usize) -> bool {
        self.quiescence_counted || self.sa.enabled(q)[k].0 != self.sa.quiescence()
    }

    /// The coverage marked by a run that numbered states and transitions as this type does
    /// (`explore`'s [`ExploreReport::visited`](crate::exec::explore::ExploreReport::visited) and
    /// [`ExploreReport::taken`](crate::exec::explore::ExploreReport::taken)).
    pub fn from_marks(sa: SuspensionAutomaton, visited: &[bool], taken: &[bool]) -> SpecCoverage {
        let mut coverage = SpecCoverage::new(sa);
        for (mark, &v) in coverage.visited.iter_mut().zip(visited) {
            *mark |= v;
        }
        for (mark, &t) in coverage.taken.iter_mut().zip(taken) {
            *mark |= t;
        }
        coverage
    }

    /// The suspension automaton.
    pub fn automaton(&self) -> &SuspensionAutomaton {
        &self.sa
    }

    /// Follows `l` from `q`, marking the transition and its target; `None` when `q` does not
    /// enable `l`.
    fn take(&mut self, q: StateId, l: LabelId) -> Option<StateId> {
        let enabled = self.sa.enabled(q);
        let k = enabled.iter().position(|&(m, _)| m == l)?;
        let t = enabled[k].1;
        self.taken[self.first[q.index()] + k] = true;
        self.visited[t.index()] = true;
        Some(t)
    }

    fn input_label(&self, name: &str) -> Option<LabelId> {
        let alphabet = &self.sa.alphabet;
        alphabet.get(name).filter(|&l| alphabet.is_input(l))
    }

    fn output_label(&self, name: &str) -> Option<LabelId> {
        let alphabet = &self.sa.alphabet;
        alphabet
            .get(name)
            .filter(|&l| !alphabet.is_input(l) && l != self.sa.quiescence())
    }

    fn step_label(&self, step: &ObservedStep) -> Option<LabelId> {
        match step {
            ObservedStep::Input(name) => self.input_label(name),
            ObservedStep::Output(name) => self.output_label(name),
            ObservedStep::Quiescence => Some(self.sa.quiescence()),
        }
    }

    /// Marks what `trace` takes from the initial state, up to its first step the specification
    /// does not enable.
    pub fn cover_trace(&mut self, trace: &[ObservedStep]) {
        let mut q = self.sa.initial();
        for step in trace {
            match self.step_label(step).and_then(|l| self.take(q, l)) {
                Some(t) => q = t,
                None => return,
            }
        }
    }

    /// Marks what every execution of `test` against `sys` takes (the executions
    /// [`crate::exec::run_test`] explores), each up to its first step the specification does not
    /// enable.
    pub fn cover_simulated(&mut self, sys: &SimulatedSystem, test: &TestCase) {
        let n = test.nodes.len();
        if n == 0 {
            return;
        }
        let mut labels: HashMap<Step, Option<LabelId>> = HashMap::new();
        let mut at: Vec<Vec<(u32, StateId)>> = vec![Vec::new(); n];
        at[0].push((sys.initial(), self.sa.initial()));
        let mut moves = Vec::new();
        for k in 0..n {
            let mut arrivals = std::mem::take(&mut at[k]);
            arrivals.sort_unstable();
            arrivals.dedup();
            let node = &test.nodes[k];
            for (q, s) in arrivals {
                moves.clear();
                if let TestNode::Send { input, then, .. } = node
                    && let Some(t) = sys.after_input(q, *input)
                {
                    moves.push((Step::Input(*input), *then, t));
                }
                for &(o, t) in sys.outputs(q) {
                    // Quiescence never races an input.
                    if o != sys.quiescence() || matches!(node, TestNode::Expect { .. }) {
                        moves.push((Step::Output(o), node.on_output(o), t));
                    }
                }
                for &(step, next, target) in &moves {
                    let label = *labels.entry(step).or_insert_with(|| match step {
                        Step::Input(i) => self.input_label(sys.input_name(i)),
                        Step::Output(o) if o == sys.quiescence() => Some(self.sa.quiescence()),
                        Step::Output(o) => self.output_label(sys.output_name(o)),
                    });
                    let Some(s2) = label.and_then(|l| self.take(s, l)) else {
                        continue;
                    };
                    if let Next::Node(j) = next {
                        at[j as usize].push((target, s2));
                    }
                }
            }
        }
    }

    /// Whether transition `k` of state `q` was taken.
    pub(super) fn is_taken(&self, q: StateId, k: usize) -> bool {
        self.taken[self.first[q.index()] + k]
    }

    /// The covered and reachable figures.
    pub fn counts(&self) -> CoverageCounts {
        let mut c = CoverageCounts {
            states: 0,
            states_total: 0,
            transitions: 0,
            transitions_total: 0,
        };
        for q in self.sa.states().filter(|q| self.reachable[q.index()]) {
            c.states_total += 1;
            c.states += usize::from(self.visited[q.index()]);
            for k in (0..self.sa.enabled(q).len()).filter(|&k| self.counts_transition(q, k)) {
                c.transitions_total += 1;
                c.transitions += usize::from(self.is_taken(q, k));
            }
        }
        c
    }

    /// A label as traces show it: `?a`, `!x`, `δ` for quiescence.
    pub(super) fn marked(&self, l: LabelId) -> String {
        let name = self.sa.alphabet.name(l);
        if l == self.sa.quiescence() {
            "δ".to_owned()
        } else if self.sa.alphabet.is_input(l) {
            format!("?{name}")
        } else {
            format!("!{name}")
        }
    }
}
