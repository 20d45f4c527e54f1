//! Labelled transition systems with inputs, outputs and internal steps (TorX thesis Def. 2.2.1 and
//! 2.2.4, van den Bos Sec. 1): the models users write, possibly nondeterministic.

use super::alphabet::{Alphabet, LabelKind};
use super::error::ModelError;
use super::ids::{LabelId, StateId, id32};
use super::transitions::Transitions;

/// A labelled transition system over an [`Alphabet`] of input, output and internal labels.
///
/// Nondeterminism is allowed. If the alphabet has a quiescence label, transitions carrying it are
/// explicit quiescence (δ) observations, as in `.aut` files that write `delta`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lts {
    /// Model name (file stem or the name given in the file).
    pub name: String,
    /// Labels and their kinds.
    pub alphabet: Alphabet,
    state_names: Vec<String>,
    initial: StateId,
    transitions: Transitions,
    /// The nondeterministic Mealy machine this LTS embeds, if it was read as one.
    onfsm: Option<Box<super::onfsm::Onfsm>>,
}

impl Lts {
    /// Builds an LTS, checking that every id is in range.
    pub fn new(
        name: impl Into<String>,
        alphabet: Alphabet,
        state_names: Vec<String>,
        initial: StateId,
        triples: Vec<(StateId, LabelId, StateId)>,
    ) -> Result<Self, ModelError> {
        check_ids(&alphabet, state_names.len(), initial, &triples)?;
        let transitions = Transitions::from_triples(state_names.len(), triples);
        Ok(Lts {
            name: name.into(),
            alphabet,
            state_names,
            initial,
            transitions,
            onfsm: None,
        })
    }

    /// The nondeterministic Mealy machine (ONFSM) this LTS is the embedding of, if it was
    /// built by [`Onfsm::to_lts`](super::Onfsm::to_lts).
    pub fn onfsm(&self) -> Option<&super::onfsm::Onfsm> {
        self.onfsm.as_deref()
    }

    pub(super) fn set_onfsm(&mut self, m: super::onfsm::Onfsm) {
        self.onfsm = Some(Box::new(m));
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

    /// Outgoing transitions of `s`, sorted by label then target.
    pub fn transitions_from(&self, s: StateId) -> &[(LabelId, StateId)] {
        self.transitions.of(s)
    }

    /// The `l`-successors of `s`.
    pub fn successors(&self, s: StateId, l: LabelId) -> impl Iterator<Item = StateId> + '_ {
        self.transitions.with_label(s, l).iter().map(|&(_, t)| t)
    }

    /// All transitions as `(source, label, target)`.
    pub fn triples(&self) -> impl Iterator<Item = (StateId, LabelId, StateId)> + '_ {
        self.transitions.triples()
    }

    /// Whether some state has an internal transition.
    pub fn has_internal(&self) -> bool {
        self.triples().any(|(_, l, _)| self.alphabet.is_internal(l))
    }

    /// Whether the LTS is deterministic: no internal steps, at most one successor per label.
    pub fn is_deterministic(&self) -> bool {
        self.states().all(|s| {
            let out = self.transitions_from(s);
            out.iter().all(|&(l, _)| !self.alphabet.is_internal(l))
                && out.windows(2).all(|w| w[0].0 != w[1].0)
        })
    }
}

/// Checks that a transition list refers only to existing states and labels.
pub(crate) fn check_ids(
    alphabet: &Alphabet,
    num_states: usize,
    initial: StateId,
    triples: &[(StateId, LabelId, StateId)],
) -> Result<(), ModelError> {
    if num_states == 0 {
        return Err(ModelError::Empty);
    }
    if num_states >= u32::MAX as usize {
        return Err(ModelError::Budget {
            what: format!("{num_states} states"),
            budget: u32::MAX as usize - 1,
            advice: "split the model".into(),
        });
    }
    let state_ok = |s: StateId| {
        if s.index() < num_states {
            Ok(())
        } else {
            Err(ModelError::StateOutOfRange {
                state: s.0,
                num_states,
            })
        }
    };
    state_ok(initial)?;
    for &(s, l, t) in triples {
        state_ok(s)?;
        state_ok(t)?;
        if l.index() >= alphabet.len() {
            return Err(ModelError::LabelOutOfRange {
                label: l.0,
                num_labels: alphabet.len(),
            });
        }
    }
    Ok(())
}

/// Convenience for tests and examples: an LTS from `(from, label, to)` triples with `?`/`!`-marked
/// labels (`?a` input, `!x` output, `tau` internal, `delta` quiescence) over states `0..n`.
pub fn lts_from_marked(
    name: &str,
    n: usize,
    edges: &[(u32, &str, u32)],
) -> Result<Lts, ModelError> {
    let mut alphabet = Alphabet::new();
    let mut triples = Vec::with_capacity(edges.len());
    for &(s, label, t) in edges {
        let l = if let Some(a) = label.strip_prefix('?') {
            alphabet.add(a, LabelKind::Input)?
        } else if let Some(x) = label.strip_prefix('!') {
            alphabet.add(x, LabelKind::Output)?
        } else if label == "tau" {
            alphabet.add(label, LabelKind::Internal)?
        } else if label == "delta" {
            alphabet.set_quiescence(label)?
        } else {
            alphabet.add(label, LabelKind::Output)?
        };
        triples.push((StateId(s), l, StateId(t)));
    }
    let names = (0..n).map(|i| i.to_string()).collect();
    Lts::new(name, alphabet, names, StateId(0), triples)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn successors_and_determinism() {
        let lts = lts_from_marked(
            "t",
            3,
            &[(0, "?a", 1), (0, "?a", 2), (1, "!x", 0), (2, "tau", 0)],
        )
        .unwrap();
        let a = lts.alphabet.get("a").unwrap();
        assert_eq!(
            lts.successors(StateId(0), a).collect::<Vec<_>>(),
            vec![StateId(1), StateId(2)]
        );
        assert!(!lts.is_deterministic());
        assert!(lts.has_internal());
        assert_eq!(lts.num_transitions(), 4);
    }

    #[test]
    fn rejects_out_of_range_ids() {
        let err = lts_from_marked("t", 1, &[(0, "?a", 3)]).unwrap_err();
        assert!(matches!(err, ModelError::StateOutOfRange { state: 3, .. }));
    }
}
