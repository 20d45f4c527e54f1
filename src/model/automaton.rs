//! Deterministic automata with inputs and outputs (van den Bos Def. 2.1 / 3.1) and suspension
//! automata, the non-blocking ones (Def. 3.5), with quiescence δ an ordinary output.
//!
//! Invariants: at most one transition per state and label (`T : Q × L ⇀ Q`); no internal labels;
//! a [`SuspensionAutomaton`] additionally has a quiescence label and at least one output enabled in
//! every state.

use super::alphabet::Alphabet;
use super::error::ModelError;
use super::ids::{LabelId, StateId, id32};
use super::lts::check_ids;
use super::transitions::Transitions;
use std::ops::Deref;

/// A deterministic, possibly blocking automaton with inputs and outputs (the set AIO).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Automaton {
    /// Model name.
    pub name: String,
    /// Input and output labels; never internal ones.
    pub alphabet: Alphabet,
    state_names: Vec<String>,
    initial: StateId,
    transitions: Transitions,
}

impl Automaton {
    /// Builds an automaton, checking ids, determinism and the absence of internal labels.
    pub fn new(
        name: impl Into<String>,
        alphabet: Alphabet,
        state_names: Vec<String>,
        initial: StateId,
        triples: Vec<(StateId, LabelId, StateId)>,
    ) -> Result<Self, ModelError> {
        check_ids(&alphabet, state_names.len(), initial, &triples)?;
        if let Some(l) = alphabet.ids().find(|&l| alphabet.is_internal(l)) {
            return Err(ModelError::InternalLabel {
                label: alphabet.name(l).to_owned(),
            });
        }
        let transitions = Transitions::from_triples(state_names.len(), triples);
        for (s, state_name) in state_names.iter().enumerate() {
            let out = transitions.of(StateId(id32(s)));
            if let Some(w) = out.windows(2).find(|w| w[0].0 == w[1].0) {
                return Err(ModelError::Nondeterministic {
                    state: state_name.clone(),
                    label: alphabet.name(w[0].0).to_owned(),
                });
            }
        }
        Ok(Automaton {
            name: name.into(),
            alphabet,
            state_names,
            initial,
            transitions,
        })
    }

    /// Number of states.
    pub fn num_states(&self) -> usize {
        self.state_names.len()
    }

    /// Number of transitions.
    pub fn num_transitions(&self) -> usize {
        self.transitions.num_edges()
    }

    /// All states in id order.
    pub fn states(&self) -> impl ExactSizeIterator<Item = StateId> + use<> {
        (0..id32(self.state_names.len())).map(StateId)
    }

    /// The initial state.
    pub fn initial(&self) -> StateId {
        self.initial
    }

    /// The name of a state.
    pub fn state_name(&self, s: StateId) -> &str {
        &self.state_names[s.index()]
    }

    /// All state names in id order.
    pub fn state_names(&self) -> &[String] {
        &self.state_names
    }

    /// `T(q, µ)`, if defined.
    #[inline]
    pub fn after(&self, q: StateId, l: LabelId) -> Option<StateId> {
        self.transitions.with_label(q, l).first().map(|&(_, t)| t)
    }

    /// The state reached by a trace, if the trace is one of `q`.
    pub fn after_trace(&self, q: StateId, trace: &[LabelId]) -> Option<StateId> {
        trace.iter().try_fold(q, |s, &l| self.after(s, l))
    }

    /// Enabled labels of `q` with their targets, sorted by label.
    #[inline]
    pub fn enabled(&self, q: StateId) -> &[(LabelId, StateId)] {
        self.transitions.of(q)
    }

    /// `in(q)`: enabled inputs, in label order.
    pub fn inputs_enabled(&self, q: StateId) -> impl Iterator<Item = LabelId> + '_ {
        self.enabled(q)
            .iter()
            .map(|&(l, _)| l)
            .filter(|&l| self.alphabet.is_input(l))
    }

    /// `out(q)`: enabled outputs (quiescence included), in label order.
    pub fn outputs_enabled(&self, q: StateId) -> impl Iterator<Item = LabelId> + '_ {
        self.enabled(q)
            .iter()
            .map(|&(l, _)| l)
            .filter(|&l| self.alphabet.is_output(l))
    }

    /// All transitions as `(source, label, target)`.
    pub fn triples(&self) -> impl Iterator<Item = (StateId, LabelId, StateId)> + '_ {
        self.transitions.triples()
    }

    /// Whether every state enables every input.
    pub fn is_input_enabled(&self) -> bool {
        let n_inputs = self.alphabet.inputs().count();
        self.states()
            .all(|q| self.inputs_enabled(q).count() == n_inputs)
    }

    /// The first blocking state (no output enabled), if any.
    pub fn blocking_state(&self) -> Option<StateId> {
        self.states()
            .find(|&q| self.outputs_enabled(q).next().is_none())
    }
}

/// A suspension automaton: a non-blocking [`Automaton`] whose outputs include quiescence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuspensionAutomaton {
    automaton: Automaton,
    quiescence: LabelId,
}

impl SuspensionAutomaton {
    /// Builds a suspension automaton, checking everything [`Automaton::new`] checks, that the
    /// alphabet has a quiescence label (added as `delta` if missing) and that no state is blocking.
    pub fn new(
        name: impl Into<String>,
        mut alphabet: Alphabet,
        state_names: Vec<String>,
        initial: StateId,
        triples: Vec<(StateId, LabelId, StateId)>,
    ) -> Result<Self, ModelError> {
        if alphabet.quiescence().is_none() {
            alphabet.set_quiescence("delta")?;
        }
        Self::from_automaton(Automaton::new(
            name,
            alphabet,
            state_names,
            initial,
            triples,
        )?)
    }

    /// Checks that an automaton is a suspension automaton.
    pub fn from_automaton(automaton: Automaton) -> Result<Self, ModelError> {
        let Some(quiescence) = automaton.alphabet.quiescence() else {
            return Err(ModelError::Blocking {
                state: automaton.state_name(automaton.initial()).to_owned(),
            });
        };
        if let Some(q) = automaton.blocking_state() {
            return Err(ModelError::Blocking {
                state: automaton.state_name(q).to_owned(),
            });
        }
        Ok(SuspensionAutomaton {
            automaton,
            quiescence,
        })
    }

    /// The quiescence label δ.
    pub fn quiescence(&self) -> LabelId {
        self.quiescence
    }

    /// The underlying automaton.
    pub fn automaton(&self) -> &Automaton {
        &self.automaton
    }

    /// Gives up the suspension-automaton guarantee.
    pub fn into_automaton(self) -> Automaton {
        self.automaton
    }
}

impl Deref for SuspensionAutomaton {
    type Target = Automaton;
    fn deref(&self) -> &Automaton {
        &self.automaton
    }
}

/// Convenience for tests and examples: a suspension automaton over states `0..n` (initial 0) from
/// `(from, label, to)` triples with `?a` inputs, `!x` outputs and `delta` quiescence.
pub fn suspension_from_marked(
    name: &str,
    n: usize,
    edges: &[(u32, &str, u32)],
) -> Result<SuspensionAutomaton, ModelError> {
    let lts = super::lts::lts_from_marked(name, n, edges)?;
    let triples = lts.triples().collect();
    SuspensionAutomaton::new(
        name,
        lts.alphabet.clone(),
        lts.state_names().to_vec(),
        lts.initial(),
        triples,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn after_follows_traces() {
        let sa = suspension_from_marked(
            "t",
            2,
            &[(0, "?a", 1), (0, "delta", 0), (1, "!x", 0), (1, "!y", 1)],
        )
        .unwrap();
        let a = sa.alphabet.get("a").unwrap();
        let x = sa.alphabet.get("x").unwrap();
        assert_eq!(sa.after_trace(StateId(0), &[a, x, a]), Some(StateId(1)));
        assert_eq!(sa.after_trace(StateId(0), &[x]), None);
        assert_eq!(sa.outputs_enabled(StateId(1)).count(), 2);
        assert!(!sa.is_input_enabled());
    }

    #[test]
    fn rejects_blocking_and_nondeterminism() {
        let blocking = suspension_from_marked("t", 2, &[(0, "?a", 1), (0, "delta", 0)]);
        assert_eq!(
            blocking.unwrap_err(),
            ModelError::Blocking { state: "1".into() }
        );
        let nondet = suspension_from_marked("t", 2, &[(0, "!x", 1), (0, "!x", 0), (1, "delta", 1)]);
        assert!(matches!(nondet, Err(ModelError::Nondeterministic { .. })));
    }
}
