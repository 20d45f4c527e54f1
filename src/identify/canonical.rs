//! A canonical numbering of a suspension automaton, so that state identification does not depend
//! on how the states and edges of the model file happen to be ordered.
//!
//! Algorithms 3-5 of van den Bos leave choices open (which split of a leaf, which least common
//! ancestor, which leaf first); any rule phrased over ids ("the first candidate", "the oldest
//! node") then depends on the numbering. Rather than thread invariant keys through every choice,
//! the automaton is renumbered first, by its structure alone:
//!
//! * labels: inputs before outputs, each by name (names are part of the model, ids are not);
//! * states: breadth-first from the initial state, the successors of a state visited in that
//!   label order. In a deterministic automaton this numbers every reachable state the same way
//!   for every isomorphic copy, whatever the input order;
//! * unreachable states (none after `distinguish --minimize`) are ordered by the classes of a
//!   colour refinement (the signature of a state is its colour and the colours of its successors
//!   per label), then breadth-first from the first of them in the same way. Only states the
//!   refinement cannot tell apart, and no path from a numbered state reaches, are ordered by
//!   their ids.
//!
//! Every later choice that falls back on ids then falls back on this structural order, so
//! renumbered or reordered copies of a model give identical metrics and isomorphic (here even
//! identical, up to state names) graphs; a property test checks this on random permutations.

use crate::model::{Alphabet, LabelId, ModelError, StateId, SuspensionAutomaton};
use std::collections::{BTreeMap, VecDeque};

/// `sa` with labels and states renumbered canonically (see the module documentation). State
/// names and the model name are kept, so outputs name the same states as the input file.
pub fn canonical_form(sa: &SuspensionAutomaton) -> Result<SuspensionAutomaton, ModelError> {
    // Labels: (kind, name) order.
    let mut labels: Vec<LabelId> = sa.alphabet.ids().collect();
    labels.sort_by(|&a, &b| {
        (sa.alphabet.kind(a), sa.alphabet.name(a)).cmp(&(sa.alphabet.kind(b), sa.alphabet.name(b)))
    });
    let (alphabet, new_label) = reinterned(sa, &labels)?;
    // Per state, its edges in the new label order.
    let edges = |q: StateId| -> Vec<(LabelId, StateId)> {
        let mut e: Vec<(LabelId, StateId)> = sa
            .enabled(q)
            .iter()
            .map(|&(l, t)| (new_label[l.index()], t))
            .collect();
        e.sort_unstable();
        e
    };
    let n = sa.num_states();
    let mut order: Vec<StateId> = Vec::with_capacity(n);
    let mut new_id: Vec<Option<u32>> = vec![None; n];
    let bfs = |start: StateId, order: &mut Vec<StateId>, new_id: &mut Vec<Option<u32>>| {
        let mut queue = VecDeque::from([start]);
        new_id[start.index()] = Some(order.len() as u32);
        order.push(start);
        while let Some(q) = queue.pop_front() {
            for (_, t) in edges(q) {
                if new_id[t.index()].is_none() {
                    new_id[t.index()] = Some(order.len() as u32);
                    order.push(t);
                    queue.push_back(t);
                }
            }
        }
    };
    bfs(sa.initial(), &mut order, &mut new_id);
    if order.len() < n {
        let colour = refinement_colours(sa, &new_label);
        let mut rest: Vec<StateId> = sa
            .states()
            .filter(|q| new_id[q.index()].is_none())
            .collect();
        rest.sort_by_key(|q| (colour[q.index()], *q));
        for q in rest {
            if new_id[q.index()].is_none() {
                bfs(q, &mut order, &mut new_id);
            }
        }
    }
    let names: Vec<String> = order.iter().map(|&q| sa.state_name(q).to_owned()).collect();
    let mut triples = Vec::with_capacity(sa.num_transitions());
    for (k, &q) in order.iter().enumerate() {
        for (l, t) in edges(q) {
            // Every state was numbered above.
            let to = new_id[t.index()].unwrap_or(0);
            triples.push((StateId(k as u32), l, StateId(to)));
        }
    }
    SuspensionAutomaton::new(sa.name.clone(), alphabet, names, StateId(0), triples)
}

/// The labels of `sa` interned afresh in the given `order` (every label once), with the id each
/// old label gets: one alphabet-copying loop for [`canonical_form`] and for the shuffled copies
/// of [`crate::identify::random::renumbered`].
pub(crate) fn reinterned(
    sa: &SuspensionAutomaton,
    order: &[LabelId],
) -> Result<(Alphabet, Vec<LabelId>), ModelError> {
    let mut alphabet = Alphabet::new();
    let mut new_label = vec![LabelId(0); sa.alphabet.len()];
    for &l in order {
        let name = sa.alphabet.name(l);
        new_label[l.index()] = if l == sa.quiescence() {
            alphabet.set_quiescence(name)?
        } else {
            alphabet.add(name, sa.alphabet.kind(l))?
        };
    }
    Ok((alphabet, new_label))
}

/// Colour refinement with colours numbered by the sorted order of their signatures, so the
/// colours themselves are invariant under renumbering.
pub(crate) fn refinement_colours(sa: &SuspensionAutomaton, new_label: &[LabelId]) -> Vec<u32> {
    let n = sa.num_states();
    let mut colour = vec![0u32; n];
    let mut count = 1usize;
    loop {
        let mut signatures: BTreeMap<(u32, Vec<(LabelId, u32)>), u32> = BTreeMap::new();
        let sig: Vec<(u32, Vec<(LabelId, u32)>)> = sa
            .states()
            .map(|q| {
                let mut s: Vec<(LabelId, u32)> = sa
                    .enabled(q)
                    .iter()
                    .map(|&(l, t)| (new_label[l.index()], colour[t.index()]))
                    .collect();
                s.sort_unstable();
                (colour[q.index()], s)
            })
            .collect();
        for s in &sig {
            signatures.entry(s.clone()).or_insert(0);
        }
        for (k, v) in signatures.values_mut().enumerate() {
            *v = k as u32;
        }
        let next: Vec<u32> = sig.iter().map(|s| signatures[s]).collect();
        let new_count = signatures.len();
        colour = next;
        if new_count == count {
            return colour;
        }
        count = new_count;
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    pub(crate) use crate::identify::random::renumbered as permuted;

    fn same(a: &SuspensionAutomaton, b: &SuspensionAutomaton) -> bool {
        a.alphabet == b.alphabet
            && a.state_names() == b.state_names()
            && a.initial() == b.initial()
            && a.triples().collect::<Vec<_>>() == b.triples().collect::<Vec<_>>()
    }

    #[test]
    fn permuted_copies_have_one_canonical_form() {
        for seed in 0..200u64 {
            let n = 2 + (seed % 9) as usize;
            let sa = crate::identify::random::random_suspension(seed, n, 2, 3);
            let c = canonical_form(&sa).unwrap();
            assert_eq!(c.num_states(), sa.num_states());
            for k in 0..3 {
                let p = permuted(&sa, seed * 7 + k);
                assert!(same(&canonical_form(&p).unwrap(), &c), "seed {seed}/{k}");
            }
            // Canonical forms are fixed points.
            assert!(same(&canonical_form(&c).unwrap(), &c));
        }
    }
}
