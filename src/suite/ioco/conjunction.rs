//! Merges of compatible states (van den Bos Def. 2.20-2.23), generalised to sets of
//! specification states, so that merges of merges stay flat.
//!
//! The merge `q ∧ q'` is the parallel composition of the demonic completions with the invalid
//! states (Def. 2.21) removed. A state of a merge of merges is a tuple of specification states
//! (or χ); since χ is neutral for composition and `q ∧ q ≅ q`, it is determined up to
//! equivalence by the *set* of its non-χ members. The conjunction of a set `D` therefore has:
//! - an input `a` when some member enables it, leading to the set of the members' `a`-successors
//!   (members without `a` become χ and drop out; if no member enables `a`, the target is
//!   (χ, …, χ), which the thesis removes as it is equivalent to chaos, Example 2.38);
//! - an output `x` when every member enables it, leading to the set of successors;
//! - validity as in Def. 2.21: a set is invalid if it has no valid output successor or an input
//!   successor that is invalid. The conjunction is defined when the root set is valid
//!   (Lemma 2.22/2.24: exactly when some implementation conforms to all members).
//!
//! Conjunctions are compared up to isomorphism through [`canonical_form`].

use super::error::IocoSuiteError;
use crate::model::{Alphabet, LabelId, StateId, SuspensionAutomaton};
use std::collections::{BTreeMap, HashMap, VecDeque};

/// The conjunction of a set of specification states.
#[derive(Clone, Debug)]
pub(crate) struct Conjunction {
    /// The merge as a suspension automaton; state 0 is the root set.
    pub sa: SuspensionAutomaton,
    /// The specification states each merge state stands for (sorted).
    pub members: Vec<Vec<StateId>>,
}

/// The conjunction of `root` in `spec`, or `None` if no implementation conforms to all of
/// `root` (its root is invalid). Fails if it would have more than `budget` states.
pub(crate) fn conjunction(
    spec: &SuspensionAutomaton,
    root: &[StateId],
    budget: usize,
) -> Result<Option<Conjunction>, IocoSuiteError> {
    let mut root = root.to_vec();
    root.sort_unstable();
    root.dedup();
    let labels: Vec<LabelId> = spec.alphabet.ids().collect();
    let mut index: HashMap<Vec<StateId>, usize> = HashMap::new();
    let mut sets: Vec<Vec<StateId>> = Vec::new();
    let mut edges: Vec<Vec<(LabelId, usize)>> = Vec::new();
    index.insert(root.clone(), 0);
    sets.push(root);
    let mut queue = VecDeque::from([0usize]);
    while let Some(d) = queue.pop_front() {
        let mut out = Vec::new();
        for &l in &labels {
            let set = &sets[d];
            let mut target: Vec<StateId> = if spec.alphabet.is_input(l) {
                set.iter().filter_map(|&q| spec.after(q, l)).collect()
            } else {
                let t: Option<Vec<StateId>> = set.iter().map(|&q| spec.after(q, l)).collect();
                t.unwrap_or_default()
            };
            if target.is_empty() {
                continue;
            }
            target.sort_unstable();
            target.dedup();
            let t = match index.get(&target) {
                Some(&t) => t,
                None => {
                    if sets.len() >= budget {
                        return Err(IocoSuiteError::Budget {
                            what: format!(
                                "the merge of states {} has more states than that, which",
                                names(spec, &sets[0])
                            ),
                            budget: budget as u128,
                            advice: "try --method unconditional or a smaller model".into(),
                        });
                    }
                    let t = sets.len();
                    index.insert(target.clone(), t);
                    sets.push(target);
                    queue.push_back(t);
                    t
                }
            };
            out.push((l, t));
        }
        edges.push(out);
    }
    // Def. 2.21: remove invalid states until none is left.
    let mut valid = vec![true; sets.len()];
    loop {
        let mut changed = false;
        for d in 0..sets.len() {
            if !valid[d] {
                continue;
            }
            let bad_input = edges[d]
                .iter()
                .any(|&(l, t)| spec.alphabet.is_input(l) && !valid[t]);
            let some_output = edges[d]
                .iter()
                .any(|&(l, t)| spec.alphabet.is_output(l) && valid[t]);
            if bad_input || !some_output {
                valid[d] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    if !valid[0] {
        return Ok(None);
    }
    // Renumber the valid states reachable from the root, breadth-first.
    let mut new_id: BTreeMap<usize, u32> = BTreeMap::new();
    let mut order = vec![0usize];
    new_id.insert(0, 0);
    let mut k = 0;
    while k < order.len() {
        let d = order[k];
        for &(_, t) in &edges[d] {
            if valid[t] && !new_id.contains_key(&t) {
                new_id.insert(t, order.len() as u32);
                order.push(t);
            }
        }
        k += 1;
    }
    let mut triples = Vec::new();
    for (i, &d) in order.iter().enumerate() {
        for &(l, t) in &edges[d] {
            if let Some(&j) = new_id.get(&t) {
                triples.push((StateId(i as u32), l, StateId(j)));
            }
        }
    }
    let members: Vec<Vec<StateId>> = order.iter().map(|&d| sets[d].clone()).collect();
    let state_names = members.iter().map(|m| names(spec, m)).collect();
    let alphabet: Alphabet = spec.alphabet.clone();
    let sa = SuspensionAutomaton::new(
        format!("{}/merge", spec.name),
        alphabet,
        state_names,
        StateId(0),
        triples,
    )
    .expect("valid merge states keep an output and determinism");
    Ok(Some(Conjunction { sa, members }))
}

/// `{a,b}` with the specification's state names.
pub(crate) fn names(spec: &SuspensionAutomaton, set: &[StateId]) -> String {
    let inner: Vec<&str> = set.iter().map(|&q| spec.state_name(q)).collect();
    format!("{{{}}}", inner.join(","))
}

/// A canonical encoding of the part of `sa` reachable from `start`: states numbered breadth-first
/// in label order, then every state's transitions. Two rooted automata over the same alphabet are
/// isomorphic exactly when their encodings are equal.
#[cfg(test)]
pub(crate) fn canonical_form(sa: &SuspensionAutomaton, start: StateId) -> Vec<u32> {
    canonical_numbering(sa, start).0
}

/// [`canonical_form`] and the number it gives each state reachable from `start`.
fn canonical_numbering(
    sa: &SuspensionAutomaton,
    start: StateId,
) -> (Vec<u32>, HashMap<StateId, u32>) {
    let mut number: HashMap<StateId, u32> = HashMap::new();
    let mut order = vec![start];
    number.insert(start, 0);
    let mut k = 0;
    let mut code = Vec::new();
    while k < order.len() {
        let q = order[k];
        for &(l, t) in sa.enabled(q) {
            let next = order.len() as u32;
            let id = *number.entry(t).or_insert_with(|| {
                order.push(t);
                next
            });
            code.extend([l.0, id]);
        }
        code.push(u32::MAX);
        k += 1;
    }
    (code, number)
}

/// A merge up to isomorphism whatever its root: the canonical encoding of the part of `sa`
/// reachable from its initial state, taken from the state that gives the least encoding among
/// the states from which that whole part is reachable; and the number of each state in it.
/// Two merges that are the same automaton rooted at different states get the same form, and
/// their roots get the numbers of corresponding states.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct UnrootedForm {
    /// The encoding (as [`canonical_form`] from the chosen state).
    pub code: Vec<u32>,
    /// Per state of `sa`, its number in the encoding (`u32::MAX` if unreachable).
    pub number: Vec<u32>,
}

pub(crate) fn unrooted_form(sa: &SuspensionAutomaton) -> UnrootedForm {
    let (code, number) = canonical_numbering(sa, sa.initial());
    let size = number.len();
    let mut best = (code, number);
    let mut candidates: Vec<StateId> = best.1.keys().copied().collect();
    candidates.sort_unstable();
    for c in candidates {
        if c == sa.initial() {
            continue;
        }
        let (code, number) = canonical_numbering(sa, c);
        if number.len() == size && code < best.0 {
            best = (code, number);
        }
    }
    let mut per_state = vec![u32::MAX; sa.num_states()];
    for (q, k) in best.1 {
        per_state[q.index()] = k;
    }
    UnrootedForm {
        code: best.0,
        number: per_state,
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::fig_2_1;
    use super::*;

    #[test]
    fn merge_of_2_and_3_in_fig_2_1() {
        // Example 2.38: the traces of 2 ∧ 3 are prefixes of wz* and ayz*. The conjunction
        // identifies a state by its set of members, so the ordered pairs (4,5) and (5,4) of the
        // merge (three states, see `analysis::merge`) are one state {4,5} here.
        let spec = fig_2_1();
        let m = conjunction(&spec, &[StateId(1), StateId(2)], 100)
            .unwrap()
            .unwrap();
        assert_eq!(m.sa.num_states(), 2);
        let l = |n: &str| spec.alphabet.get(n).unwrap();
        let q0 = m.sa.initial();
        assert!(m.sa.after_trace(q0, &[l("w"), l("z"), l("z")]).is_some());
        assert!(m.sa.after_trace(q0, &[l("a"), l("y"), l("z")]).is_some());
        // Example 2.39: ax is no trace of 2 ∧ 3.
        assert!(m.sa.after_trace(q0, &[l("a"), l("x")]).is_none());
        assert_eq!(m.members[0], vec![StateId(1), StateId(2)]);
    }

    #[test]
    fn incompatible_sets_have_no_conjunction() {
        let spec = fig_2_1();
        assert!(
            conjunction(&spec, &[StateId(0), StateId(3)], 100)
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn canonical_forms_identify_isomorphic_automata() {
        let spec = fig_2_1();
        let a = conjunction(&spec, &[StateId(1), StateId(2)], 100)
            .unwrap()
            .unwrap();
        let b = conjunction(&spec, &[StateId(2), StateId(1)], 100)
            .unwrap()
            .unwrap();
        assert_eq!(
            canonical_form(&a.sa, a.sa.initial()),
            canonical_form(&b.sa, b.sa.initial())
        );
        assert_ne!(
            canonical_form(&a.sa, a.sa.initial()),
            canonical_form(&spec, spec.initial())
        );
    }

    #[test]
    fn unrooted_forms_ignore_the_root() {
        // A three-state cycle rooted at each of its states: one form, and the roots get the
        // numbers of corresponding states; a path is a different automaton.
        // State k of the rotation by `root` is state (k + root) mod 3 of the cycle
        // 0 -x-> 1 -y-> 2 -x-> 0 (2 also loops on a); state 0 is initial.
        let cycle = |root: u32| {
            let edges = [(0u32, "!x", 1u32), (1, "!y", 2), (2, "!x", 0), (2, "?a", 2)];
            let at = |q: u32| (q + 3 - root) % 3;
            let rotated: Vec<(u32, &str, u32)> =
                edges.iter().map(|&(p, l, q)| (at(p), l, at(q))).collect();
            crate::model::suspension_from_marked("c", 3, &rotated).unwrap()
        };
        let forms: Vec<UnrootedForm> = (0..3).map(|r| unrooted_form(&cycle(r))).collect();
        assert_eq!(forms[0].code, forms[1].code);
        assert_eq!(forms[0].code, forms[2].code);
        // The root of rotation 1 is state 1 of rotation 0.
        assert_eq!(forms[1].number[0], forms[0].number[1]);
        assert_ne!(
            canonical_form(&cycle(0), StateId(0)),
            canonical_form(&cycle(1), StateId(0))
        );
        let path = crate::model::suspension_from_marked(
            "p",
            3,
            &[(0, "!x", 1), (1, "!y", 2), (2, "!x", 2), (2, "?a", 2)],
        )
        .unwrap();
        assert_ne!(unrooted_form(&path).code, forms[0].code);
    }
}
