//! The specification an exploration tests against ([`ExploreSpec`]): its suspension automaton
//! with its transitions numbered and the labels of the system mapped to it.

use crate::exec::sut::suspension_labels;
use crate::model::{LabelId, StateId, SuspensionAutomaton};
use crate::suite::SuiteModel;

/// The specification as the tester tracks it: a suspension automaton, its labels, and the
/// states and transitions reachable from its initial state (what coverage counts).
pub struct ExploreSpec {
    pub(super) sa: SuspensionAutomaton,
    pub(super) labels: SuiteModel,
    pub(super) reachable: Vec<bool>,
    /// Per state, the index of its first transition in the transition numbering.
    pub(super) first_transition: Vec<usize>,
    pub(super) num_reachable_states: usize,
    pub(super) num_reachable_transitions: usize,
    /// Reachable quiescence loops (counted among the transitions).
    pub(super) num_reachable_quiescence: usize,
}

impl ExploreSpec {
    /// The specification from its suspension automaton.
    pub fn new(sa: SuspensionAutomaton) -> Self {
        let reachable = crate::model::RestrictToReachable::reachable(&sa);
        let mut first_transition = Vec::with_capacity(sa.num_states() + 1);
        first_transition.push(0);
        for q in sa.states() {
            first_transition.push(first_transition[q.index()] + sa.enabled(q).len());
        }
        let count = |c: crate::goals::Coverage| usize::try_from(c.count(&sa)).unwrap_or(usize::MAX);
        let delta = sa.quiescence();
        let num_reachable_quiescence = sa
            .states()
            .filter(|q| reachable[q.index()])
            .filter(|&q| sa.enabled(q).iter().any(|&(l, _)| l == delta))
            .count();
        ExploreSpec {
            labels: suspension_labels(&sa),
            num_reachable_quiescence,
            num_reachable_states: count(crate::goals::Coverage::States),
            num_reachable_transitions: count(crate::goals::Coverage::Transitions),
            reachable,
            first_transition,
            sa,
        }
    }

    /// The specification's labels (inputs, outputs, quiescence by name).
    pub fn labels(&self) -> &SuiteModel {
        &self.labels
    }

    /// The suspension automaton.
    pub fn automaton(&self) -> &SuspensionAutomaton {
        &self.sa
    }

    pub(super) fn transition_index(&self, q: StateId, k: usize) -> usize {
        self.first_transition[q.index()] + k
    }

    pub(super) fn num_transitions(&self) -> usize {
        self.first_transition[self.sa.num_states()]
    }

    /// A label as written in traces.
    pub(super) fn marked(&self, l: LabelId) -> String {
        let name = self.sa.alphabet.name(l);
        if l == self.sa.quiescence() {
            name.to_owned()
        } else if self.sa.alphabet.is_input(l) {
            format!("?{name}")
        } else {
            format!("!{name}")
        }
    }
}
