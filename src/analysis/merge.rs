//! The merge `q ∧ r` of two compatible states (van den Bos Def. 2.20-2.23): the parallel
//! composition of the demonic completions started in `(q, r)`, restricted to its valid states.
//! An implementation conforms to both states iff it conforms to the merge (Lemma 2.24), and the
//! merge exists iff the states are compatible (Lemma 2.22).

use super::validity::prune_invalid;
use crate::model::{Automaton, LabelId, StateId, SuspensionAutomaton};
use std::collections::HashMap;

/// Why two states cannot be merged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// The states are incompatible: no implementation conforms to both.
    #[error("states `{q}` and `{r}` are incompatible, so they have no merge: {reason}")]
    Incompatible {
        /// First state name.
        q: String,
        /// Second state name.
        r: String,
        /// The tester's play that shows it.
        reason: String,
    },
    /// A state id outside the automaton.
    #[error("state {0} does not exist")]
    NoSuchState(u32),
}

/// A state of the demonic completion: a state of `S` or the chaos state χ.
type Completed = Option<StateId>;

/// The merge `q ∧ r` as a new suspension automaton over the same alphabet. Its states are the
/// valid pairs reachable from `(q, r)`, named `q&r` (`chaos` for χ); the initial state is `(q, r)`.
pub fn merge(
    sa: &SuspensionAutomaton,
    q: StateId,
    r: StateId,
) -> Result<SuspensionAutomaton, MergeError> {
    for s in [q, r] {
        if s.index() >= sa.num_states() {
            return Err(MergeError::NoSuchState(s.0));
        }
    }
    let labels: Vec<LabelId> = sa.alphabet.ids().collect();
    let step = |s: Completed, l: LabelId| -> Option<Completed> {
        match s {
            None => Some(None),
            Some(s) => match sa.after(s, l) {
                Some(t) => Some(Some(t)),
                None if sa.alphabet.is_input(l) => Some(None),
                None => None,
            },
        }
    };
    let name = |s: Completed| s.map_or("chaos".to_owned(), |s| sa.state_name(s).to_owned());
    let mut index: HashMap<(Completed, Completed), u32> = HashMap::new();
    let mut order = vec![(Some(q), Some(r))];
    index.insert((Some(q), Some(r)), 0);
    let mut triples = Vec::new();
    let mut head = 0;
    while head < order.len() {
        let (a, b) = order[head];
        for &l in &labels {
            if let (Some(ta), Some(tb)) = (step(a, l), step(b, l)) {
                let next = order.len() as u32;
                let id = *index.entry((ta, tb)).or_insert_with(|| {
                    order.push((ta, tb));
                    next
                });
                triples.push((StateId(head as u32), l, StateId(id)));
            }
        }
        head += 1;
    }
    let names = order
        .iter()
        .map(|&(a, b)| format!("{}&{}", name(a), name(b)))
        .collect();
    let product = Automaton::new(
        format!("{}/{}&{}", sa.name, sa.state_name(q), sa.state_name(r)),
        sa.alphabet.clone(),
        names,
        StateId(0),
        triples,
    )
    .map_err(|e| MergeError::Incompatible {
        q: sa.state_name(q).to_owned(),
        r: sa.state_name(r).to_owned(),
        reason: e.to_string(),
    })?;
    prune_invalid(&product).map_err(|e| MergeError::Incompatible {
        q: sa.state_name(q).to_owned(),
        r: sa.state_name(r).to_owned(),
        reason: e.play,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Compatibility;
    use crate::analysis::compatibility::tests::vdbos_fig_2_1 as fig_2_1;

    #[test]
    fn fig_2_3_merge_of_2_and_3() {
        let sa = fig_2_1();
        let m = merge(&sa, StateId(1), StateId(2)).unwrap();
        assert_eq!(m.state_name(StateId(0)), "1&2");
        // 2 ∧ 3 allows w only, then 4 ∧ 5 allows y and z (x of 4 is not allowed by 5).
        let w = sa.alphabet.get("w").unwrap();
        let x = sa.alphabet.get("x").unwrap();
        let y = sa.alphabet.get("y").unwrap();
        let z = sa.alphabet.get("z").unwrap();
        assert_eq!(m.outputs_enabled(StateId(0)).collect::<Vec<_>>(), vec![w]);
        let s45 = m.after(StateId(0), w).unwrap();
        assert_eq!(m.state_name(s45), "3&4");
        assert_eq!(m.outputs_enabled(s45).collect::<Vec<_>>(), vec![y, z]);
        assert!(m.after(s45, x).is_none());
        // Input a is specified in both 2 and 3 and leads to 4 ∧ 5 as well (Example 2.39: a x is
        // no trace of the merge).
        let a = sa.alphabet.get("a").unwrap();
        assert_eq!(m.after(StateId(0), a), Some(s45));
        let err = merge(&sa, StateId(0), StateId(3)).unwrap_err();
        assert!(matches!(err, MergeError::Incompatible { .. }));
    }

    #[test]
    fn merge_exists_iff_compatible() {
        for seed in 0..100u64 {
            let sa =
                crate::identify::random::random_suspension(seed, 2 + (seed % 5) as usize, 2, 2);
            let c = Compatibility::compute(&sa);
            for q in sa.states() {
                for r in sa.states() {
                    assert_eq!(
                        merge(&sa, q, r).is_ok(),
                        c.compatible(q, r),
                        "seed {seed} {q} {r}"
                    );
                }
            }
        }
    }
}
