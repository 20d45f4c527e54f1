//! Restriction of a model to the states reachable from its initial state.
//!
//! Unreachable states can never be observed by a test, so methods that count or identify states
//! work on the reachable part. The reachable states keep their relative order (and names); the
//! alphabet is unchanged.

use super::automaton::{Automaton, SuspensionAutomaton};
use super::error::ModelError;
use super::ids::{LabelId, StateId, id32};
use super::lts::Lts;
use super::mealy::Mealy;

/// Models that can drop their unreachable states.
pub trait RestrictToReachable: Sized {
    /// For every state, whether it is reachable from the initial state.
    fn reachable(&self) -> Vec<bool>;

    /// The model restricted to its reachable states (a copy if all are reachable).
    fn restrict_to_reachable(&self) -> Result<Self, ModelError>;
}

/// Breadth-first reachability over a successor function.
fn reach<I: IntoIterator<Item = StateId>>(
    n: usize,
    initial: StateId,
    successors: impl Fn(StateId) -> I,
) -> Vec<bool> {
    let mut seen = vec![false; n];
    seen[initial.index()] = true;
    let mut queue = vec![initial];
    while let Some(s) = queue.pop() {
        for t in successors(s) {
            if !seen[t.index()] {
                seen[t.index()] = true;
                queue.push(t);
            }
        }
    }
    seen
}

/// New ids for the kept states, in their old order, and their names.
fn renumber(keep: &[bool], names: &[String]) -> (Vec<Option<StateId>>, Vec<String>) {
    let mut map = vec![None; keep.len()];
    let mut kept = Vec::new();
    for (s, &k) in keep.iter().enumerate() {
        if k {
            map[s] = Some(StateId(id32(kept.len())));
            kept.push(names[s].clone());
        }
    }
    (map, kept)
}

/// Maps a kept state; every state reachable from a kept one is kept, so this never fails for
/// transitions out of kept states.
fn kept(map: &[Option<StateId>], s: StateId) -> Result<StateId, ModelError> {
    map[s.index()].ok_or(ModelError::StateOutOfRange {
        state: s.0,
        num_states: map.len(),
    })
}

/// A transition `(source, label, target)`.
type Triple = (StateId, LabelId, StateId);

/// The state names, initial state and transitions of a model of states `names` restricted to
/// the states `keep` marks.
fn restricted(
    keep: &[bool],
    names: &[String],
    initial: StateId,
    triples: impl Iterator<Item = Triple>,
) -> Result<(Vec<String>, StateId, Vec<Triple>), ModelError> {
    let (map, names) = renumber(keep, names);
    let mut kept_triples = Vec::new();
    for (s, l, t) in triples.filter(|&(s, _, _)| keep[s.index()]) {
        kept_triples.push((kept(&map, s)?, l, kept(&map, t)?));
    }
    Ok((names, kept(&map, initial)?, kept_triples))
}

impl RestrictToReachable for Lts {
    fn reachable(&self) -> Vec<bool> {
        reach(self.num_states(), self.initial(), |s| {
            self.transitions_from(s).iter().map(|&(_, t)| t)
        })
    }

    fn restrict_to_reachable(&self) -> Result<Self, ModelError> {
        let (names, initial, triples) = restricted(
            &self.reachable(),
            self.state_names(),
            self.initial(),
            self.triples(),
        )?;
        Lts::new(
            self.name.clone(),
            self.alphabet.clone(),
            names,
            initial,
            triples,
        )
    }
}

impl RestrictToReachable for Automaton {
    fn reachable(&self) -> Vec<bool> {
        reach(self.num_states(), self.initial(), |s| {
            self.enabled(s).iter().map(|&(_, t)| t)
        })
    }

    fn restrict_to_reachable(&self) -> Result<Self, ModelError> {
        let (names, initial, triples) = restricted(
            &self.reachable(),
            self.state_names(),
            self.initial(),
            self.triples(),
        )?;
        Automaton::new(
            self.name.clone(),
            self.alphabet.clone(),
            names,
            initial,
            triples,
        )
    }
}

impl RestrictToReachable for SuspensionAutomaton {
    fn reachable(&self) -> Vec<bool> {
        self.automaton().reachable()
    }

    fn restrict_to_reachable(&self) -> Result<Self, ModelError> {
        SuspensionAutomaton::from_automaton(self.automaton().restrict_to_reachable()?)
    }
}

impl RestrictToReachable for Mealy {
    fn reachable(&self) -> Vec<bool> {
        reach(self.num_states(), self.initial(), |s| {
            self.input_ids()
                .filter_map(move |i| self.step(s, i).map(|(t, _)| t))
        })
    }

    fn restrict_to_reachable(&self) -> Result<Self, ModelError> {
        let keep = self.reachable();
        let (map, names) = renumber(&keep, self.state_names());
        let mut quads = Vec::new();
        for (s, i, o, t) in self.quads().filter(|&(s, _, _, _)| keep[s.index()]) {
            quads.push((kept(&map, s)?, i, o, kept(&map, t)?));
        }
        Mealy::new(
            self.name.clone(),
            self.inputs.clone(),
            self.outputs.clone(),
            names,
            kept(&map, self.initial())?,
            &quads,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{lts_from_marked, mealy_from_named, suspension_from_marked};

    #[test]
    fn unreachable_states_are_dropped_in_order() {
        let lts = lts_from_marked("r", 4, &[(0, "?a", 2), (2, "tau", 0), (1, "!x", 3)]).unwrap();
        assert_eq!(lts.reachable(), [true, false, true, false]);
        let r = lts.restrict_to_reachable().unwrap();
        assert_eq!(r.state_names(), ["0", "2"]);
        assert_eq!(r.num_transitions(), 2);

        let sa = suspension_from_marked(
            "r",
            3,
            &[(0, "delta", 0), (1, "!x", 0), (2, "?a", 0), (2, "delta", 2)],
        )
        .unwrap();
        let r = sa.restrict_to_reachable().unwrap();
        assert_eq!(r.num_states(), 1);
        assert_eq!(r.quiescence(), sa.quiescence());

        let m = mealy_from_named("m", 3, &[(0, "a", "x", 2), (1, "a", "y", 0)]).unwrap();
        let r = m.restrict_to_reachable().unwrap();
        assert_eq!(r.state_names(), ["s0", "s2"]);
        assert_eq!(r.num_transitions(), 1);
    }
}
