//! Deterministic Mealy machines, possibly partial: the models learned by automata-learning tools
//! and the subject of the W, Wp, HSI and hybrid-ADS methods.
//!
//! Invariant: the transition table is dense, `num_states × num_inputs`, row-major; an entry is
//! either undefined or a `(target, output)` pair. Input and output names live in separate
//! interners, so their [`LabelId`]s are separate spaces.

use super::alphabet::Interner;
use super::error::ModelError;
use super::ids::{LabelId, StateId, id32};

const UNDEFINED: u32 = u32::MAX;

/// A deterministic Mealy machine `δ, λ : Q × I ⇀ Q × O`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mealy {
    /// Model name.
    pub name: String,
    /// Input names.
    pub inputs: Interner,
    /// Output names.
    pub outputs: Interner,
    state_names: Vec<String>,
    initial: StateId,
    next: Vec<u32>,
    out: Vec<u32>,
    /// The state outputs when the machine is the Mealy translation of a Moore machine.
    moore: Option<Vec<LabelId>>,
}

impl Mealy {
    /// Builds a Mealy machine from `(source, input, output, target)` quadruples, rejecting two
    /// transitions for the same source and input unless they agree.
    pub fn new(
        name: impl Into<String>,
        inputs: Interner,
        outputs: Interner,
        state_names: Vec<String>,
        initial: StateId,
        quads: &[(StateId, LabelId, LabelId, StateId)],
    ) -> Result<Self, ModelError> {
        let n = state_names.len();
        if n == 0 {
            return Err(ModelError::Empty);
        }
        let ni = inputs.len();
        let state_ok = |s: StateId| {
            if s.index() < n {
                Ok(())
            } else {
                Err(ModelError::StateOutOfRange {
                    state: s.0,
                    num_states: n,
                })
            }
        };
        state_ok(initial)?;
        let cells = n.checked_mul(ni).ok_or_else(|| ModelError::Budget {
            what: format!("a table of {n} states × {ni} inputs"),
            budget: usize::MAX,
            advice: "split the model".into(),
        })?;
        let mut next = vec![UNDEFINED; cells];
        let mut out = vec![UNDEFINED; cells];
        for &(s, i, o, t) in quads {
            state_ok(s)?;
            state_ok(t)?;
            if i.index() >= ni {
                return Err(ModelError::LabelOutOfRange {
                    label: i.0,
                    num_labels: ni,
                });
            }
            if o.index() >= outputs.len() {
                return Err(ModelError::LabelOutOfRange {
                    label: o.0,
                    num_labels: outputs.len(),
                });
            }
            let c = s.index() * ni + i.index();
            if next[c] != UNDEFINED && (next[c] != t.0 || out[c] != o.0) {
                return Err(ModelError::Nondeterministic {
                    state: state_names[s.index()].clone(),
                    label: inputs.name(i).to_owned(),
                });
            }
            next[c] = t.0;
            out[c] = o.0;
        }
        Ok(Mealy {
            name: name.into(),
            inputs,
            outputs,
            state_names,
            initial,
            next,
            out,
            moore: None,
        })
    }

    /// The Mealy translation of a Moore machine (outputs on states, AALpy's and FSMlib's Moore
    /// machines): a transition `q --i--> q'` becomes `q --i/λ(q')--> q'`, the output of the state
    /// entered. The initial state's output, which a Moore machine shows at reset before any
    /// input, is kept (for writing the machine back) but is not part of the translation's
    /// behaviour: tests start after the reset and observe outputs of transitions only.
    pub fn from_moore(
        name: impl Into<String>,
        inputs: Interner,
        outputs: Interner,
        state_names: Vec<String>,
        initial: StateId,
        state_outputs: Vec<LabelId>,
        transitions: &[(StateId, LabelId, StateId)],
    ) -> Result<Self, ModelError> {
        if state_outputs.len() != state_names.len() {
            return Err(ModelError::StateOutOfRange {
                state: id32(state_outputs.len().min(state_names.len())),
                num_states: state_names.len(),
            });
        }
        if let Some(o) = state_outputs.iter().find(|o| o.index() >= outputs.len()) {
            return Err(ModelError::LabelOutOfRange {
                label: o.0,
                num_labels: outputs.len(),
            });
        }
        let mut quads = Vec::with_capacity(transitions.len());
        for &(s, i, t) in transitions {
            let o = *state_outputs
                .get(t.index())
                .ok_or(ModelError::StateOutOfRange {
                    state: t.0,
                    num_states: state_names.len(),
                })?;
            quads.push((s, i, o, t));
        }
        let mut m = Mealy::new(name, inputs, outputs, state_names, initial, &quads)?;
        m.moore = Some(state_outputs);
        Ok(m)
    }

    /// The output of every state, in state order, if this is the translation of a Moore machine
    /// ([`Mealy::from_moore`]).
    pub fn state_outputs(&self) -> Option<&[LabelId]> {
        self.moore.as_deref()
    }

    /// Number of states.
    pub fn num_states(&self) -> usize {
        self.state_names.len()
    }

    /// Number of inputs.
    pub fn num_inputs(&self) -> usize {
        self.inputs.len()
    }

    /// Number of defined transitions.
    pub fn num_transitions(&self) -> usize {
        self.next.iter().filter(|&&t| t != UNDEFINED).count()
    }

    /// All states in id order.
    pub fn states(&self) -> impl ExactSizeIterator<Item = StateId> + use<> {
        (0..id32(self.state_names.len())).map(StateId)
    }

    /// All inputs in id order.
    pub fn input_ids(&self) -> impl ExactSizeIterator<Item = LabelId> + use<> {
        (0..id32(self.inputs.len())).map(LabelId)
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

    /// The transition of `s` on input `i`: `(target, output)`, if defined.
    #[inline]
    pub fn step(&self, s: StateId, i: LabelId) -> Option<(StateId, LabelId)> {
        let c = s.index() * self.inputs.len() + i.index();
        let t = self.next[c];
        (t != UNDEFINED).then(|| (StateId(t), LabelId(self.out[c])))
    }

    /// The state reached by an input word, if every step is defined.
    pub fn after(&self, s: StateId, word: &[LabelId]) -> Option<StateId> {
        word.iter()
            .try_fold(s, |q, &i| self.step(q, i).map(|(t, _)| t))
    }

    /// The outputs produced by an input word, up to the first undefined step.
    pub fn run(&self, s: StateId, word: &[LabelId]) -> Vec<LabelId> {
        let mut q = s;
        let mut outs = Vec::with_capacity(word.len());
        for &i in word {
            match self.step(q, i) {
                Some((t, o)) => {
                    outs.push(o);
                    q = t;
                }
                None => break,
            }
        }
        outs
    }

    /// All defined transitions as `(source, input, output, target)`, by source then input.
    pub fn quads(&self) -> impl Iterator<Item = (StateId, LabelId, LabelId, StateId)> + '_ {
        let ni = self.inputs.len();
        (0..self.next.len()).filter_map(move |c| {
            let t = self.next[c];
            (t != UNDEFINED).then(|| {
                (
                    StateId(id32(c / ni)),
                    LabelId(id32(c % ni)),
                    LabelId(self.out[c]),
                    StateId(t),
                )
            })
        })
    }

    /// The first missing transition (by state then input), if the machine is partial.
    pub fn first_missing(&self) -> Option<(StateId, LabelId)> {
        let ni = self.inputs.len();
        self.next
            .iter()
            .position(|&t| t == UNDEFINED)
            .map(|c| (StateId(id32(c / ni)), LabelId(id32(c % ni))))
    }

    /// Whether every state has a transition for every input.
    pub fn is_complete(&self) -> bool {
        self.first_missing().is_none()
    }

    /// Ok if complete, otherwise the error naming the first missing transition.
    pub fn require_complete(&self) -> Result<(), ModelError> {
        match self.first_missing() {
            None => Ok(()),
            Some((s, i)) => Err(ModelError::MissingTransition {
                state: self.state_name(s).to_owned(),
                input: self.inputs.name(i).to_owned(),
            }),
        }
    }
}

/// Convenience for tests and examples: a Mealy machine over states `0..n` (initial 0) from
/// `(from, input, output, to)` quadruples given by name.
pub fn mealy_from_named(
    name: &str,
    n: usize,
    edges: &[(u32, &str, &str, u32)],
) -> Result<Mealy, ModelError> {
    let mut inputs = Interner::new();
    let mut outputs = Interner::new();
    let quads: Vec<_> = edges
        .iter()
        .map(|&(s, i, o, t)| (StateId(s), inputs.intern(i), outputs.intern(o), StateId(t)))
        .collect();
    let names = (0..n).map(|i| format!("s{i}")).collect();
    Mealy::new(name, inputs, outputs, names, StateId(0), &quads)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_run_and_missing() {
        let m = mealy_from_named(
            "m",
            2,
            &[(0, "a", "0", 1), (1, "a", "1", 0), (0, "b", "0", 0)],
        )
        .unwrap();
        let a = m.inputs.get("a").unwrap();
        let b = m.inputs.get("b").unwrap();
        assert_eq!(m.after(StateId(0), &[a, a, a]), Some(StateId(1)));
        let outs: Vec<_> = m
            .run(StateId(0), &[a, a, b])
            .into_iter()
            .map(|o| m.outputs.name(o).to_owned())
            .collect();
        assert_eq!(outs, ["0", "1", "0"]);
        assert_eq!(m.first_missing(), Some((StateId(1), b)));
        assert!(matches!(
            m.require_complete(),
            Err(ModelError::MissingTransition { .. })
        ));
        assert_eq!(m.quads().count(), 3);
    }

    #[test]
    fn conflicting_transitions_are_nondeterministic() {
        let err = mealy_from_named("m", 1, &[(0, "a", "0", 0), (0, "a", "1", 0)]).unwrap_err();
        assert!(matches!(err, ModelError::Nondeterministic { .. }));
    }
}
