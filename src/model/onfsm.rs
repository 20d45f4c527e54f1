//! Observable nondeterministic Mealy machines (ONFSM, the machines AALpy learns from systems
//! whose answer to an input varies): several transitions per state and input, told apart by
//! their outputs or not.
//!
//! The tool tests them with ioco through their LTS embedding ([`Onfsm::to_lts`], beside the
//! Mealy embeddings in `from_mealy.rs`), the construction of
//! [`mealy_to_suspension`](super::mealy_to_suspension) without the determinism: a transition
//! `q --i/o--> q'` becomes `q --?i--> q/i --!o--> q'`, with one intermediate state `q/i` per
//! state and input, from which every output the machine allows leads on. States of the machine
//! wait for input and so are quiescent; intermediate states are not. The suspension automaton
//! of that LTS (TorX Def. 2.2.12, by [`lts_to_suspension`](super::lts_to_suspension)) is what the
//! ioco methods test against: an implementation conforms when after every trace its outputs
//! are among the outputs the machine allows.
//!
//! ioco needs disjoint input and output names, so a machine using a name both ways is refused
//! with [`ModelError::InputOutputClash`].

use super::alphabet::Interner;
use super::error::ModelError;
use super::ids::{LabelId, StateId};

/// A nondeterministic Mealy machine `Q × I × O × Q` relation with an initial state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Onfsm {
    /// Model name.
    pub name: String,
    /// Input names.
    pub inputs: Interner,
    /// Output names.
    pub outputs: Interner,
    state_names: Vec<String>,
    initial: StateId,
    /// `(source, input, output, target)`, sorted, without repeats.
    quads: Vec<(StateId, LabelId, LabelId, StateId)>,
}

impl Onfsm {
    /// Builds the machine, checking ids; repeated transitions count once.
    pub fn new(
        name: impl Into<String>,
        inputs: Interner,
        outputs: Interner,
        state_names: Vec<String>,
        initial: StateId,
        mut quads: Vec<(StateId, LabelId, LabelId, StateId)>,
    ) -> Result<Self, ModelError> {
        let n = state_names.len();
        if n == 0 {
            return Err(ModelError::Empty);
        }
        let state_ok = |s: StateId| {
            (s.index() < n)
                .then_some(())
                .ok_or(ModelError::StateOutOfRange {
                    state: s.0,
                    num_states: n,
                })
        };
        state_ok(initial)?;
        for &(s, i, o, t) in &quads {
            state_ok(s)?;
            state_ok(t)?;
            for (l, len) in [(i, inputs.len()), (o, outputs.len())] {
                if l.index() >= len {
                    return Err(ModelError::LabelOutOfRange {
                        label: l.0,
                        num_labels: len,
                    });
                }
            }
        }
        quads.sort_unstable();
        quads.dedup();
        Ok(Onfsm {
            name: name.into(),
            inputs,
            outputs,
            state_names,
            initial,
            quads,
        })
    }

    /// Number of states.
    pub fn num_states(&self) -> usize {
        self.state_names.len()
    }

    /// The initial state.
    pub fn initial(&self) -> StateId {
        self.initial
    }

    /// All state names in id order.
    pub fn state_names(&self) -> &[String] {
        &self.state_names
    }

    /// The transitions `(source, input, output, target)`, by source, input, output, target.
    pub fn quads(&self) -> &[(StateId, LabelId, LabelId, StateId)] {
        &self.quads
    }

    /// The transitions by source, then input and output name, then target: the order writers
    /// use, so that a file read back (labels numbered in first-use order) is written the same.
    pub fn quads_by_name(&self) -> Vec<(StateId, LabelId, LabelId, StateId)> {
        let mut quads = self.quads.clone();
        quads.sort_by(|a, b| {
            (a.0, self.inputs.name(a.1), self.outputs.name(a.2), a.3).cmp(&(
                b.0,
                self.inputs.name(b.1),
                self.outputs.name(b.2),
                b.3,
            ))
        });
        quads
    }

    /// Whether some state has two transitions for one input (otherwise the machine is a
    /// deterministic Mealy machine).
    pub fn is_nondeterministic(&self) -> bool {
        self.quads
            .windows(2)
            .any(|w| (w[0].0, w[0].1) == (w[1].0, w[1].1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{SuspensionOptions, lts_to_suspension};

    /// A coin flip: `flip` answers `heads` or `tails`, and after `tails` one more `flip`
    /// always answers `heads`.
    fn coin() -> Onfsm {
        let mut inputs = Interner::new();
        let mut outputs = Interner::new();
        let flip = inputs.intern("flip");
        let heads = outputs.intern("heads");
        let tails = outputs.intern("tails");
        let (s0, s1) = (StateId(0), StateId(1));
        Onfsm::new(
            "coin",
            inputs,
            outputs,
            vec!["s0".into(), "s1".into()],
            s0,
            vec![
                (s0, flip, heads, s0),
                (s0, flip, tails, s1),
                (s1, flip, heads, s0),
                (s0, flip, tails, s1),
            ],
        )
        .unwrap()
    }

    #[test]
    fn embedding_has_one_intermediate_state_per_state_and_input() {
        let m = coin();
        assert!(m.is_nondeterministic());
        assert_eq!(m.quads().len(), 3, "the repeated transition counts once");
        let lts = m.to_lts().unwrap();
        assert_eq!(lts.num_states(), 4);
        assert_eq!(lts.num_transitions(), 5);
        assert_eq!(lts.onfsm(), Some(&m));
        assert_eq!(lts.state_name(StateId(2)), "s0/flip");
        // The suspension automaton: s0 is quiescent, s0/flip offers both outputs.
        let sa = lts_to_suspension(&lts, &SuspensionOptions::default()).unwrap();
        let a = &sa.alphabet;
        let flip = a.get("flip").unwrap();
        let after_flip = sa.after(sa.initial(), flip).unwrap();
        let mut outs: Vec<&str> = sa.outputs_enabled(after_flip).map(|l| a.name(l)).collect();
        outs.sort_unstable();
        assert_eq!(outs, ["heads", "tails"]);
        assert!(sa.after(sa.initial(), sa.quiescence()).is_some());
    }

    #[test]
    fn shared_names_are_refused() {
        let mut inputs = Interner::new();
        let mut outputs = Interner::new();
        let a = inputs.intern("a");
        let x = outputs.intern("a");
        let m = Onfsm::new(
            "m",
            inputs,
            outputs,
            vec!["s".into()],
            StateId(0),
            vec![(StateId(0), a, x, StateId(0))],
        )
        .unwrap();
        assert!(matches!(
            m.to_lts(),
            Err(ModelError::InputOutputClash { .. })
        ));
    }
}
