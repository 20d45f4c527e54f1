//! Completing a partial Mealy machine for methods that need every transition defined (W, Wp,
//! HSI, hybrid-ADS).
//!
//! Both completions answer a missing transition `(q, i)` with one fresh output, `undefined` (or
//! `undefined_1`, ... if the machine already uses that name as an input or output), so a test
//! observes exactly where the specification said nothing:
//!
//! * [`Completion::SelfLoop`]: `q --i/undefined--> q`. The machine keeps its states; an
//!   unspecified input is read as "ignored, with a visible refusal".
//! * [`Completion::Sink`]: `q --i/undefined--> sink`, and the new state `sink` (or `sink_1`, ...)
//!   answers every input with `undefined` and stays there. An unspecified input is read as "the
//!   system breaks down"; the completed machine has one more state.
//!
//! A complete machine is returned unchanged (no fresh output, no sink). Methods that must not
//! change the model call [`Mealy::require_complete`] instead, which names the first missing
//! transition.

use super::error::ModelError;
use super::ids::{LabelId, StateId, id32};
use super::mealy::Mealy;
use super::naming::fresh_name;

/// How [`complete_mealy`] fills in missing transitions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Completion {
    /// A missing input loops on its state with output `undefined`.
    SelfLoop,
    /// A missing input leads with output `undefined` to a new absorbing state `sink`.
    Sink,
}

/// The completed machine; see the module documentation.
pub fn complete_mealy(m: &Mealy, completion: Completion) -> Result<Mealy, ModelError> {
    if m.is_complete() {
        return Ok(m.clone());
    }
    let mut outputs = m.outputs.clone();
    let undefined = outputs.intern(&fresh_name("undefined", |n| {
        m.inputs.get(n).is_some() || m.outputs.get(n).is_some()
    }));
    let mut names = m.state_names().to_vec();
    let sink = match completion {
        Completion::SelfLoop => None,
        Completion::Sink => {
            let name = fresh_name("sink", |n| names.iter().any(|s| s == n));
            names.push(name);
            Some(StateId(id32(names.len() - 1)))
        }
    };
    let mut quads: Vec<(StateId, LabelId, LabelId, StateId)> = m.quads().collect();
    for q in m.states() {
        for i in m.input_ids() {
            if m.step(q, i).is_none() {
                quads.push((q, i, undefined, sink.unwrap_or(q)));
            }
        }
    }
    if let Some(s) = sink {
        quads.extend(m.input_ids().map(|i| (s, i, undefined, s)));
    }
    Mealy::new(
        m.name.clone(),
        m.inputs.clone(),
        outputs,
        names,
        m.initial(),
        &quads,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::mealy_from_named;

    fn partial() -> Mealy {
        mealy_from_named("p", 2, &[(0, "a", "x", 1), (1, "b", "y", 0)]).unwrap()
    }

    fn step(m: &Mealy, q: u32, i: &str) -> (String, String) {
        let (t, o) = m.step(StateId(q), m.inputs.get(i).unwrap()).unwrap();
        (m.state_name(t).to_owned(), m.outputs.name(o).to_owned())
    }

    #[test]
    fn self_loop_completion_loops_with_undefined() {
        let m = complete_mealy(&partial(), Completion::SelfLoop).unwrap();
        assert!(m.is_complete());
        assert_eq!(m.num_states(), 2);
        assert_eq!(step(&m, 0, "b"), ("s0".into(), "undefined".into()));
        assert_eq!(step(&m, 1, "a"), ("s1".into(), "undefined".into()));
        assert_eq!(step(&m, 0, "a"), ("s1".into(), "x".into()));
    }

    #[test]
    fn sink_completion_adds_an_absorbing_state() {
        let m = complete_mealy(&partial(), Completion::Sink).unwrap();
        assert!(m.is_complete());
        assert_eq!(m.num_states(), 3);
        assert_eq!(step(&m, 0, "b"), ("sink".into(), "undefined".into()));
        assert_eq!(step(&m, 2, "a"), ("sink".into(), "undefined".into()));
        assert_eq!(step(&m, 2, "b"), ("sink".into(), "undefined".into()));
        assert_eq!(step(&m, 1, "b"), ("s0".into(), "y".into()));
    }

    #[test]
    fn fresh_names_avoid_existing_ones_and_complete_machines_are_unchanged() {
        let m = mealy_from_named("p", 2, &[(0, "a", "undefined", 1)]).unwrap();
        // State s1 renamed to `sink` forces a fresh sink name.
        let named = Mealy::new(
            "p",
            m.inputs.clone(),
            m.outputs.clone(),
            vec!["s0".into(), "sink".into()],
            StateId(0),
            &m.quads().collect::<Vec<_>>(),
        )
        .unwrap();
        let c = complete_mealy(&named, Completion::Sink).unwrap();
        assert_eq!(step(&c, 1, "a"), ("sink_1".into(), "undefined_1".into()));
        let again = complete_mealy(&c, Completion::SelfLoop).unwrap();
        assert_eq!(again, c);
    }
}
