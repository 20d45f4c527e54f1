//! Equivalence of states (van den Bos Def. 2.9-2.13, Prop. 2.14): two states are equivalent when
//! exactly the same implementations conform to them. On the demonic completion `X(S)` (Def. 2.10:
//! every unspecified input leads to a chaos state χ that allows everything) this is the largest
//! relation with equal outputs whose common successors are related, i.e. bisimilarity of the
//! deterministic `X(S)`, computed by partition refinement.
//!
//! Equivalence implies compatibility (Lemma 2.25); equivalent states need not be distinguished.

use crate::model::{StateId, SuspensionAutomaton};
use std::collections::HashMap;

/// The classes of equivalent states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Equivalence {
    /// Class of each state; classes are numbered in order of their smallest state.
    class: Vec<u32>,
    num_classes: usize,
}

impl Equivalence {
    /// Computes the equivalence classes of the states of `sa` on its demonic completion.
    pub fn compute(sa: &SuspensionAutomaton) -> Equivalence {
        let n = sa.num_states();
        let chaos = n; // χ: enables every label, loops to itself.
        let inputs: Vec<_> = sa.alphabet.inputs().collect();
        // Successor of state s (χ included) under every input, and its enabled outputs.
        let succ = |s: usize, l| -> usize {
            if s == chaos {
                return chaos;
            }
            sa.after(StateId(s as u32), l).map_or(chaos, |t| t.index())
        };
        let outputs_of = |s: usize| -> Vec<u32> {
            if s == chaos {
                return sa.alphabet.outputs().map(|l| l.0).collect();
            }
            sa.outputs_enabled(StateId(s as u32)).map(|l| l.0).collect()
        };
        // Initial partition: by the set of enabled outputs.
        let mut class = vec![0u32; n + 1];
        let mut index: HashMap<Vec<u32>, u32> = HashMap::new();
        for (s, c) in class.iter_mut().enumerate() {
            let key = outputs_of(s);
            let next = index.len() as u32;
            *c = *index.entry(key).or_insert(next);
        }
        let mut num = index.len();
        loop {
            let mut index: HashMap<Vec<u32>, u32> = HashMap::new();
            let mut next_class = vec![0u32; n + 1];
            for (s, c) in next_class.iter_mut().enumerate() {
                let mut key = vec![class[s]];
                for &a in &inputs {
                    key.push(class[succ(s, a)]);
                }
                if s == chaos {
                    for x in sa.alphabet.outputs() {
                        key.push(x.0);
                        key.push(class[chaos]);
                    }
                } else {
                    for x in sa.outputs_enabled(StateId(s as u32)) {
                        key.push(x.0);
                        key.push(class[succ(s, x)]);
                    }
                }
                let next = index.len() as u32;
                *c = *index.entry(key).or_insert(next);
            }
            class = next_class;
            if index.len() == num {
                break;
            }
            num = index.len();
        }
        // Renumber classes of the real states in order of first occurrence.
        let mut renumber: HashMap<u32, u32> = HashMap::new();
        let class: Vec<u32> = class[..n]
            .iter()
            .map(|c| {
                let next = renumber.len() as u32;
                *renumber.entry(*c).or_insert(next)
            })
            .collect();
        Equivalence {
            num_classes: renumber.len(),
            class,
        }
    }

    /// Whether `q ≈ r`.
    pub fn equivalent(&self, q: StateId, r: StateId) -> bool {
        self.class[q.index()] == self.class[r.index()]
    }

    /// The class number of `q` (classes are numbered by their smallest state).
    pub fn class_of(&self, q: StateId) -> u32 {
        self.class[q.index()]
    }

    /// Number of classes.
    pub fn num_classes(&self) -> usize {
        self.num_classes
    }

    /// The classes, each sorted, in order of their smallest state.
    pub fn classes(&self) -> Vec<Vec<StateId>> {
        let mut out = vec![Vec::new(); self.num_classes];
        for (s, &c) in self.class.iter().enumerate() {
            out[c as usize].push(StateId(s as u32));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Compatibility;
    use crate::model::suspension_from_marked;

    #[test]
    fn unspecified_inputs_equal_explicit_chaos() {
        // State 0 leaves input a unspecified; state 1 specifies it into a state allowing every
        // output forever after every input (explicit chaos); state 2 restricts the output after a.
        let sa = suspension_from_marked(
            "t",
            5,
            &[
                (0, "!x", 0),
                (1, "!x", 1),
                (1, "?a", 3),
                (3, "!x", 3),
                (3, "!y", 3),
                (3, "delta", 3),
                (3, "?a", 3),
                (2, "!x", 2),
                (2, "?a", 4),
                (4, "!x", 4),
                (4, "?a", 4),
            ],
        )
        .unwrap();
        let e = Equivalence::compute(&sa);
        assert!(e.equivalent(StateId(0), StateId(1)));
        assert!(!e.equivalent(StateId(0), StateId(2)));
        assert!(!e.equivalent(StateId(3), StateId(4)));
        assert_eq!(e.classes()[0], vec![StateId(0), StateId(1)]);
        // Lemma 2.25: equivalence implies compatibility.
        let c = Compatibility::compute(&sa);
        for q in sa.states() {
            for r in sa.states() {
                if e.equivalent(q, r) {
                    assert!(c.compatible(q, r));
                }
            }
        }
    }

    #[test]
    fn compatible_states_of_fig_2_1_are_not_equivalent() {
        let sa = crate::analysis::compatibility::tests::fig_2_1();
        let e = Equivalence::compute(&sa);
        assert_eq!(e.num_classes(), 6);
    }
}
