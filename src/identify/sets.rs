//! Steps of current sets (the `P after l` of van den Bos Algorithm 5): the states a set of states of a
//! suspension automaton reaches on a label, and the outputs its states enable. Shared by the
//! experiments, the splitting graph, the adaptive distinguishing graph and its repair.

use crate::model::{LabelId, StateId, SuspensionAutomaton};

/// The states of `set` after `l`, sorted, without repeats (states not enabling `l` drop out).
pub(crate) fn after(sa: &SuspensionAutomaton, set: &[StateId], l: LabelId) -> Vec<StateId> {
    let mut out: Vec<StateId> = set.iter().filter_map(|&s| sa.after(s, l)).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The outputs some state of `set` enables, sorted, without repeats.
pub(crate) fn outputs_of(sa: &SuspensionAutomaton, set: &[StateId]) -> Vec<LabelId> {
    let mut out: Vec<LabelId> = set.iter().flat_map(|&q| sa.outputs_enabled(q)).collect();
    out.sort_unstable();
    out.dedup();
    out
}
