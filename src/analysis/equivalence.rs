//! Equivalence of states (van den Bos Def. 2.9-2.13, Prop. 2.14): two states are equivalent when
//! exactly the same implementations conform to them. On the demonic completion `X(S)` (Def. 2.10:
//! every unspecified input leads to a chaos state χ that allows everything) this is the largest
//! relation with equal outputs whose common successors are related, i.e. bisimilarity of the
//! deterministic `X(S)`, computed by partition refinement.
//!
//! Equivalence implies compatibility (Lemma 2.25); equivalent states need not be distinguished.
//!
//! The computation lives with the model transformations (minimisation uses it); this module
//! re-exports it under the analysis names.

pub use crate::model::{EquivalenceClasses as Equivalence, equivalence_classes};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Compatibility;
    use crate::model::{StateId, suspension_from_marked};

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
        let e = equivalence_classes(&sa);
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
        let sa = crate::analysis::compatibility::tests::vdbos_fig_2_1();
        let e = equivalence_classes(&sa);
        // Six singleton classes plus the class of χ.
        assert_eq!(e.num_classes(), 7);
    }
}
